export * from './context-fields';
export { answerOf } from './request';
