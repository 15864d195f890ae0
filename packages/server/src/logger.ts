import type { Logger } from '@flagstaff/core';

export type LogLevel = 'info' | 'warn' | 'error';
const RANK: Record<LogLevel, number> = { info: 0, warn: 1, error: 2 };

/** Reads LOG_LEVEL (info, warn or error; default info). */
export function logLevelOf(value: string | undefined): LogLevel {
  const v = value?.trim().toLowerCase();
  return v === 'warn' || v === 'error' ? v : 'info';
}

/** Structured logs: one JSON object per line on stdout, from `minLevel` up. */
export function jsonLogger(
  write: (line: string) => void = (line) => process.stdout.write(line),
  minLevel: LogLevel = 'info',
): Logger {
  const log = (level: LogLevel) =>
    RANK[level] < RANK[minLevel]
      ? () => {}
      : (msg: string, fields?: Record<string, unknown>) =>
          write(`${JSON.stringify({ time: new Date().toISOString(), level, msg, ...fields })}\n`);
  return { info: log('info'), warn: log('warn'), error: log('error') };
}
