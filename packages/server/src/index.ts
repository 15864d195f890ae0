export { ConfigError, type DatabaseConfig, loadConfig, type ServerConfig } from './config.js';
export { jsonLogger, logLevelOf } from './logger.js';
export { type RunningServer, startServer } from './server.js';
