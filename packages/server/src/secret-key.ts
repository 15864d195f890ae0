import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Logger } from '@flagstaff/core';
import type { ServerConfig } from './config.js';

/**
 * The key API token secrets are sealed with: FLAGSTAFF_SECRET_KEY, else (SQLite) `secret.key` beside
 * the database file, generated once with mode 0600. On PostgreSQL every process must share one key,
 * so without FLAGSTAFF_SECRET_KEY secrets stay write-only (and a warning says so).
 */
export function resolveSecretKey(config: ServerConfig, logger: Logger): string | undefined {
  if (config.secretKey) return config.secretKey;
  if (config.database.kind !== 'sqlite' || config.database.filename === ':memory:') {
    if (config.database.kind === 'postgres')
      logger.warn(
        'FLAGSTAFF_SECRET_KEY is not set: API token secrets are write-only (shown once at creation), and password reset links work only on the process that made them, until it restarts',
      );
    return undefined;
  }
  const file = join(dirname(config.database.filename), 'secret.key');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  writeFileSync(file, `${randomBytes(32).toString('hex')}\n`, { mode: 0o600, flag: 'wx' });
  chmodSync(file, 0o600);
  logger.info('generated the key API token secrets are sealed with', { file });
  return readFileSync(file, 'utf8').trim();
}
