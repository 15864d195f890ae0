export * from './projects';
export { answerOf } from './request';
export * from './settings';
