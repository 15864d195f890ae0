export { answerOf } from './request';
export * from './segments';
