import { createReadStream } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createBackup } from '@flagstaff/core';
import { z } from 'zod';
import { defineRoutes, type Reply } from '../route.js';

/** The download: the bytes of an SQLite database file (the test harness reads them as text). */
const backupFile = z.string().meta({ contentMediaType: 'application/vnd.sqlite3' });

/** Reads the file, then removes its directory: when the download ends, fails or is abandoned. */
async function* fileThenRemove(file: string, dir: string): AsyncGenerator<Uint8Array> {
  try {
    for await (const chunk of createReadStream(file)) yield chunk as Buffer;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** A consistent copy of the running store, downloaded (SQLite; PostgreSQL uses pg_dump). */
export const backupRoutes = defineRoutes([
  {
    method: 'get',
    path: '/api/admin/backup',
    api: 'admin',
    tag: 'Operations',
    summary: 'Download a backup of the store (an SQLite database file)',
    // The `backups.create` operation, written to a file of the route's own and streamed from it.
    operationId: createBackup.id,
    status: 200,
    mediaType: 'application/vnd.sqlite3',
    response: backupFile,
    errors: [404],
    handler: async ({ flagstaff, caller }): Promise<Reply> => {
      const dir = await mkdtemp(join(tmpdir(), 'flagstaff-backup-'));
      const file = join(dir, 'backup.db');
      try {
        await flagstaff.backups.create(caller, file);
        const { size } = await stat(file);
        const stamp = new Date().toISOString().replace(/[:.]/g, '-');
        return {
          kind: 'reply',
          status: 200,
          raw: fileThenRemove(file, dir),
          headers: {
            'content-type': 'application/vnd.sqlite3',
            'content-length': String(size),
            'content-disposition': `attachment; filename="flagstaff-${stamp}.db"`,
            'cache-control': 'no-store',
          },
        };
      } catch (error) {
        await rm(dir, { recursive: true, force: true });
        throw error;
      }
    },
  },
]);
