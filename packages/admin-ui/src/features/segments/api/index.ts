export { answerOf } from '../../../lib/api-answer';
export * from './segments';
