export { answerOf } from '../../../lib/api-answer';
export * from './projects';
export * from './settings';
