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

describe('FLAGSTAFF_ADDON_RETRY_WINDOW_MS and FLAGSTAFF_ADDON_RETRY_BASE_MS', () => {
  it('set the addon retry window and first delay; unset leaves the defaults', () => {
    expect(
      loadConfig({ FLAGSTAFF_ADDON_RETRY_WINDOW_MS: '60000', FLAGSTAFF_ADDON_RETRY_BASE_MS: '250' })
        .addonDelivery,
    ).toEqual({ retryWindowMs: 60_000, retryBaseDelayMs: 250 });
    expect(loadConfig({}).addonDelivery).toEqual({});
    expect(loadConfig({ FLAGSTAFF_ADDON_RETRY_WINDOW_MS: ' ' }).addonDelivery).toEqual({});
  });

  it('refuses anything but a positive whole number, naming the variable', () => {
    for (const value of ['0', '-5', '1.5', '24h'])
      expect(() => loadConfig({ FLAGSTAFF_ADDON_RETRY_WINDOW_MS: value })).toThrow(
        new ConfigError(`FLAGSTAFF_ADDON_RETRY_WINDOW_MS must be a positive integer, not "${value}"`),
      );
  });
});

describe('FLAGSTAFF_PLAYGROUND_MAX_EVALUATIONS and FLAGSTAFF_PLAYGROUND_MAX_ANSWER_BYTES', () => {
  it('F7: set the advanced playground bounds; unset leaves the defaults; refuse anything but a positive integer', () => {
    expect(
      loadConfig({
        FLAGSTAFF_PLAYGROUND_MAX_EVALUATIONS: '2000',
        FLAGSTAFF_PLAYGROUND_MAX_ANSWER_BYTES: '5000000',
      }).playground,
    ).toEqual({ maxEvaluations: 2000, maxAnswerBytes: 5_000_000 });
    expect(loadConfig({}).playground).toEqual({});
    expect(() => loadConfig({ FLAGSTAFF_PLAYGROUND_MAX_EVALUATIONS: '0' })).toThrow(
      new ConfigError('FLAGSTAFF_PLAYGROUND_MAX_EVALUATIONS must be a positive integer, not "0"'),
    );
  });
});
