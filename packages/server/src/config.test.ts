import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, statementTimeout } from './config.js';
import { serve } from './serve.js';

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

describe('FLAGSTAFF_SECURE_COOKIES and FLAGSTAFF_PAT_MAX_LIFETIME_DAYS', () => {
  it('F21: FLAGSTAFF_SECURE_COOKIES takes true or false (default false), naming the variable otherwise', () => {
    expect(loadConfig({}).secureCookies).toBe(false);
    expect(loadConfig({ FLAGSTAFF_SECURE_COOKIES: 'true' }).secureCookies).toBe(true);
    expect(loadConfig({ FLAGSTAFF_SECURE_COOKIES: ' TRUE ' }).secureCookies).toBe(true);
    expect(loadConfig({ FLAGSTAFF_SECURE_COOKIES: 'false' }).secureCookies).toBe(false);
    expect(() => loadConfig({ FLAGSTAFF_SECURE_COOKIES: 'yes' })).toThrow(
      new ConfigError('FLAGSTAFF_SECURE_COOKIES must be "true" or "false", not "yes".'),
    );
  });

  it('F19: FLAGSTAFF_PAT_MAX_LIFETIME_DAYS takes a positive whole number of days; unset leaves the default', () => {
    expect(loadConfig({}).patMaxLifetimeDays).toBeUndefined();
    expect(loadConfig({ FLAGSTAFF_PAT_MAX_LIFETIME_DAYS: '90' }).patMaxLifetimeDays).toBe(90);
    for (const value of ['0', '-1', '1.5', '1y'])
      expect(() => loadConfig({ FLAGSTAFF_PAT_MAX_LIFETIME_DAYS: value })).toThrow(
        new ConfigError(`FLAGSTAFF_PAT_MAX_LIFETIME_DAYS must be a positive integer, not "${value}"`),
      );
  });
});

describe('security limits', () => {
  it('F8: FLAGSTAFF_LOGIN_MAX_HASHES, _MAX_QUEUED and _MAX_HASHES_PER_CLIENT bound the sign-in hashes', () => {
    expect(
      loadConfig({
        FLAGSTAFF_LOGIN_MAX_HASHES: '8',
        FLAGSTAFF_LOGIN_MAX_QUEUED: '0',
        FLAGSTAFF_LOGIN_MAX_HASHES_PER_CLIENT: '3',
      }).loginHashLimits,
    ).toEqual({ maxInFlight: 8, maxQueued: 0, maxPerClient: 3 });
    expect(loadConfig({}).loginHashLimits).toEqual({});
    expect(() => loadConfig({ FLAGSTAFF_LOGIN_MAX_HASHES: '0' })).toThrow(ConfigError);
    expect(() => loadConfig({ FLAGSTAFF_LOGIN_MAX_QUEUED: '-1' })).toThrow(ConfigError);
  });

  it('F18: FLAGSTAFF_AUTH_MAX_FAILURES and FLAGSTAFF_AUTH_FAILURE_WINDOW_MS bound unknown tokens per address', () => {
    expect(
      loadConfig({ FLAGSTAFF_AUTH_MAX_FAILURES: '10', FLAGSTAFF_AUTH_FAILURE_WINDOW_MS: '30000' })
        .authFailures,
    ).toEqual({ maxFailures: 10, windowMs: 30_000 });
    expect(loadConfig({}).authFailures).toEqual({});
  });

  it('F13: FLAGSTAFF_STREAM_MAX_PER_TOKEN bounds the streams of one token', () => {
    expect(loadConfig({ FLAGSTAFF_STREAM_MAX_PER_TOKEN: '50' }).streaming).toEqual({ maxPerToken: 50 });
  });

  it('F18: refuses a FLAGSTAFF_ADMIN_TOKEN with fewer than 32 characters after "*:*.", saying what it needs', () => {
    const long = `*:*.${'a1'.repeat(16)}`;
    expect(loadConfig({ FLAGSTAFF_ADMIN_TOKEN: long }).adminToken).toBe(long);
    for (const value of ['*:*.my-operator-chosen-secret', `*:*.${'a'.repeat(31)}`, 'no-prefix'.repeat(8)])
      expect(() => loadConfig({ FLAGSTAFF_ADMIN_TOKEN: value })).toThrow(
        /FLAGSTAFF_ADMIN_TOKEN must look like "\*:\*\.<at least 32 letters, digits, - or _>"/,
      );
  });
});

describe('FLAGSTAFF_WEBHOOK_ALLOWED_HOSTS', () => {
  it('F6: is a comma list of host names, addresses and CIDR ranges; empty by default; a bad entry stops the start', () => {
    expect(loadConfig({}).webhookAllowedHosts).toEqual([]);
    expect(
      loadConfig({ FLAGSTAFF_WEBHOOK_ALLOWED_HOSTS: ' hooks.internal, 127.0.0.1 ,10.1.0.0/16,,' })
        .webhookAllowedHosts,
    ).toEqual(['hooks.internal', '127.0.0.1', '10.1.0.0/16']);
    expect(() => loadConfig({ FLAGSTAFF_WEBHOOK_ALLOWED_HOSTS: 'https://hooks.internal/' })).toThrow(
      ConfigError,
    );
    expect(() => loadConfig({ FLAGSTAFF_WEBHOOK_ALLOWED_HOSTS: '10.0.0.0/33' })).toThrow(
      /FLAGSTAFF_WEBHOOK_ALLOWED_HOSTS: .*"10.0.0.0\/33"/,
    );
  });
});

describe('a short FLAGSTAFF_ADMIN_TOKEN', () => {
  it('F18: stops the server from starting, logging why', async () => {
    const logged: { msg: string }[] = [];
    const log = (msg: string) => logged.push({ msg });
    const running = await serve(
      { FLAGSTAFF_ADMIN_TOKEN: '*:*.short-secret', DATABASE_URL: ':memory:' },
      undefined,
      {
        info: log,
        warn: log,
        error: log,
      },
    );
    expect(running).toBeUndefined();
    expect(logged.map((l) => l.msg).join('\n')).toContain('FLAGSTAFF_ADMIN_TOKEN must look like');
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

describe('FLAGSTAFF_TRUST_PROXY', () => {
  it('is a comma list of proxy addresses and CIDR ranges; empty by default; a host name or bad range stops the start', () => {
    expect(loadConfig({}).trustProxy).toEqual([]);
    expect(loadConfig({ FLAGSTAFF_TRUST_PROXY: ' 10.0.0.0/8, fd00::1 ,,' }).trustProxy).toEqual([
      '10.0.0.0/8',
      'fd00::1',
    ]);
    expect(() => loadConfig({ FLAGSTAFF_TRUST_PROXY: 'proxy.internal' })).toThrow(
      /FLAGSTAFF_TRUST_PROXY: "proxy.internal" is not an IP address or CIDR range/,
    );
    expect(() => loadConfig({ FLAGSTAFF_TRUST_PROXY: '10.0.0.0/33' })).toThrow(ConfigError);
  });
});
