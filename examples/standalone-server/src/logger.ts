import type { Logger } from '@flagstaff/core';

/** Structured logs: one JSON object per line on stdout. */
export function jsonLogger(write: (line: string) => void = (line) => process.stdout.write(line)): Logger {
  const log = (level: string) => (msg: string, fields?: Record<string, unknown>) =>
    write(`${JSON.stringify({ time: new Date().toISOString(), level, msg, ...fields })}\n`);
  return { info: log('info'), warn: log('warn'), error: log('error') };
}
