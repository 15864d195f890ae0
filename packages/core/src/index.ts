export * from './domain/index.js';
export * from './errors.js';
export * from './evaluation/index.js';
export * from './memory/index.js';
export * from './ports/index.js';
