export type * from './access-ports.js';
export type * from './event-ports.js';
export type * from './feature-ports.js';
export type * from './integration-ports.js';
export type * from './project-ports.js';
export type * from './repositories.js';
export type { Clock, HttpClient, IdGenerator, Logger } from './runtime-ports.js';
export { silentLogger, systemClock } from './runtime-ports.js';
export type * from './store.js';
