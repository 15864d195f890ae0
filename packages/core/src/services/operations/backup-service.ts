import { z } from 'zod';
import type { Caller } from '../../auth/caller.js';
import { FlagstaffError } from '../../errors.js';
import { defineOperation } from '../../operations/define-operation.js';
import type { OperationRunner } from '../../operations/run-operation.js';

/**
 * Writes a consistent copy of the store to `destination` (a new file, overwritten if present) while
 * it keeps serving. Root Admins only (a backup holds every secret's hash and every user); NOT_FOUND,
 * naming what to use instead, where the store has no backup. Not routed as is: the HTTP download
 * picks the destination itself.
 */
export const createBackup = defineOperation({
  id: 'backups.create',
  summary: 'Write a consistent copy of the store to a file',
  kind: 'read',
  permission: 'ADMIN',
  input: z.object({ destination: z.string().min(1) }),
  output: z.null(),
  run: async ({ destination }, { deps, caller }) => {
    const { store } = deps;
    if (!store.backup)
      throw new FlagstaffError(
        'NOT_FOUND',
        `The ${store.name} store has no backup through Flagstaff: back up PostgreSQL with pg_dump; a memory or :memory: store holds nothing that outlives the process.`,
        { resource: 'backup' },
      );
    await store.backup(destination);
    deps.logger.info('store backed up', { store: store.name, caller: caller.actor.name });
    return null;
  },
});

/** Backups of the store, for root Admins: a typed wrapper. */
export function createBackupService(run: OperationRunner) {
  return {
    /** Writes a consistent copy of the store to `destination`. */
    async create(caller: Caller, destination: string): Promise<void> {
      await run(createBackup, caller, { destination });
    },
  };
}

export type BackupService = ReturnType<typeof createBackupService>;
