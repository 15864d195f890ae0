import type { Caller } from '../../auth/caller.js';
import { FlagstaffError } from '../../errors.js';
import type { ServiceDeps } from '../deps.js';

/** Backups of the store, for root Admins. */
export function createBackupService(deps: ServiceDeps) {
  const { store } = deps;
  return {
    /**
     * Writes a consistent copy of the store to `destination` (a new file, overwritten if present)
     * while it keeps serving. FORBIDDEN for anyone but root Admins (a backup holds every secret's
     * hash and every user); NOT_FOUND, naming what to use instead, where the store has no backup.
     */
    async create(caller: Caller, destination: string): Promise<void> {
      await deps.policy.require(caller, 'ADMIN');
      if (!store.backup)
        throw new FlagstaffError(
          'NOT_FOUND',
          `The ${store.name} store has no backup through Flagstaff: back up PostgreSQL with pg_dump; a memory or :memory: store holds nothing that outlives the process.`,
          { resource: 'backup' },
        );
      await store.backup(destination);
      deps.logger.info('store backed up', { store: store.name, caller: caller.actor.name });
    },
  };
}

export type BackupService = ReturnType<typeof createBackupService>;
