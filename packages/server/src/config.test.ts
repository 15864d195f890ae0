import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, statementTimeout } from './config.js';

describe('FLAGSTAFF_PG_STATEMENT_TIMEOUT_MS', () => {
  const pg = 'postgres://flags@db/flags';

  it('is passed on for PostgreSQL; unset leaves the store default', () => {
    expect(loadConfig({ DATABASE_URL: pg, FLAGSTAFF_PG_STATEMENT_TIMEOUT_MS: '5000' }).database).toEqual({
      kind: 'postgres',
      url: pg,
      statementTimeoutMs: 5000,
    });
    expect(loadConfig({ DATABASE_URL: pg, FLAGSTAFF_PG_STATEMENT_TIMEOUT_MS: '0' }).database).toMatchObject({
      statementTimeoutMs: 0,
    });
    expect(loadConfig({ DATABASE_URL: pg }).database).toEqual({ kind: 'postgres', url: pg });
    expect(loadConfig({ DATABASE_URL: pg, FLAGSTAFF_PG_STATEMENT_TIMEOUT_MS: ' ' }).database).toEqual({
      kind: 'postgres',
      url: pg,
    });
  });

  it('is ignored for SQLite', () => {
    expect(loadConfig({ DATABASE_URL: './x.db', FLAGSTAFF_PG_STATEMENT_TIMEOUT_MS: '100' }).database).toEqual(
      {
        kind: 'sqlite',
        filename: './x.db',
      },
    );
  });

  it('refuses anything but a whole number of milliseconds, naming the variable', () => {
    for (const value of ['-1', '1.5', '30s', '1e3', '99999999999999999999'])
      expect(() => statementTimeout(value)).toThrow(
        new ConfigError(
          `FLAGSTAFF_PG_STATEMENT_TIMEOUT_MS must be a whole number of milliseconds (0 sets none), not "${value}".`,
        ),
      );
    expect(() => loadConfig({ DATABASE_URL: './x.db', FLAGSTAFF_PG_STATEMENT_TIMEOUT_MS: 'soon' })).toThrow(
      ConfigError,
    );
  });
});
