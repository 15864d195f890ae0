export { type FlagstaffRouterOptions, flagstaffRouter } from './router.js';
