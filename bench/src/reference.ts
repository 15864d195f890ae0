import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { withPostgresDatabase } from './postgres-database.js';
// The reference server measured side by side, when one is running: Unleash (7.5.1 in our figures),
// started by hand on an empty database — see bench/README.md. Flagstaff's numbers mean most as ratios
// against it, taken in the same run on the same machine.

export interface ReferenceServer {
  base: string;
  adminToken: string;
  /** Its process id, for CPU per request (optional). */
  pid: number | undefined;
}

/** FLAGSTAFF_BENCH_REFERENCE_URL and _TOKEN (an admin token), and optionally _PID; null when unset. */
export function referenceServer(): ReferenceServer | null {
  const base = process.env.FLAGSTAFF_BENCH_REFERENCE_URL;
  const adminToken = process.env.FLAGSTAFF_BENCH_REFERENCE_TOKEN;
  if (!base || !adminToken) return null;
  const pid = Number(process.env.FLAGSTAFF_BENCH_REFERENCE_PID);
  return {
    base: base.replace(/\/$/, ''),
    adminToken,
    pid: Number.isInteger(pid) && pid > 0 ? pid : undefined,
  };
}

/** Whether a target (sqlite, postgres, reference) is wanted: FLAGSTAFF_BENCH_TARGETS, default all. */
export function wanted(target: 'sqlite' | 'postgres' | 'reference'): boolean {
  const list = process.env.FLAGSTAFF_BENCH_TARGETS;
  return !list || list.split(',').some((t) => t.trim() === target);
}

/**
 * Runs a suite's measurement on each wanted target: a SQLite file in a temporary folder, a fresh
 * PostgreSQL database, and the reference server when one is configured.
 */
export async function forEachTarget(
  suite: string,
  measure: (label: 'sqlite' | 'postgres', databaseUrl: string) => Promise<void>,
  measureReference: (reference: ReferenceServer) => Promise<unknown>,
): Promise<void> {
  if (wanted('sqlite')) {
    const dir = mkdtempSync(join(tmpdir(), `flagstaff-${suite}-bench-`));
    try {
      await measure('sqlite', join(dir, 'bench.db'));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  if (wanted('postgres')) await withPostgresDatabase(suite, (url) => measure('postgres', url));
  const reference = referenceServer();
  if (reference && wanted('reference')) await measureReference(reference);
}
