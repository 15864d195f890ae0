export { toUnleashContext } from './context.js';
export {
  createFlagstaffProvider,
  type FlagstaffProvider,
  type FlagstaffProviderOptions,
} from './provider.js';
