export * from './environments';
export { answerOf } from './request';
