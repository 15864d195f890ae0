import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/**
 * WAL checkpoints off the request path. SQLite's default runs a checkpoint inside whichever commit
 * pushes the WAL past 1,000 pages, so every ~60th command pays for copying them all back into the
 * database file. One worker thread per process instead runs a PASSIVE checkpoint of each open file
 * every `intervalMs` on its own connection: it copies what no reader still needs and never blocks
 * the writer, and pages written over and over between two runs are copied once.
 */

// CommonJS, run with `eval`: the same code works from the build and from the TypeScript sources.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.betterSqlite3);
const open = new Map();
const run = () => {
  for (const [file, db] of open) {
    try {
      db.pragma('wal_checkpoint(PASSIVE)');
    } catch (error) {
      parentPort.postMessage({ kind: 'failed', file, message: String(error && error.message || error) });
    }
  }
};
setInterval(run, workerData.intervalMs);
parentPort.on('message', (m) => {
  if (m.kind === 'add') {
    try {
      open.set(m.file, new Database(m.file, { fileMustExist: true, timeout: 0 }));
    } catch (error) {
      parentPort.postMessage({ kind: 'failed', file: m.file, message: String(error && error.message || error) });
    }
  } else if (m.kind === 'remove') {
    const db = open.get(m.file);
    open.delete(m.file);
    try { if (db) db.close(); } catch {}
    parentPort.postMessage({ kind: 'removed', id: m.id });
  }
});
`;

export interface CheckpointerOptions {
  intervalMs: number;
  /** Called when the background checkpoint cannot run for this file (the caller falls back to inline checkpoints). */
  onFailure: (message: string) => void;
}

interface Shared {
  worker: Worker;
  users: Map<string, { count: number; onFailure: Set<(message: string) => void> }>;
  pending: Map<number, () => void>;
  nextId: number;
}

let shared: Shared | null = null;

function startWorker(intervalMs: number): Shared {
  const require = createRequire(import.meta.url);
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: { betterSqlite3: require.resolve('better-sqlite3'), intervalMs },
  });
  const state: Shared = { worker, users: new Map(), pending: new Map(), nextId: 0 };
  const failAll = (message: string) => {
    for (const user of state.users.values()) for (const f of user.onFailure) f(message);
    for (const done of state.pending.values()) done();
    state.pending.clear();
    if (shared === state) shared = null;
  };
  worker.on('message', (m: { kind: string; file?: string; message?: string; id?: number }) => {
    if (m.kind === 'failed' && m.file) {
      for (const f of state.users.get(m.file)?.onFailure ?? []) f(m.message ?? 'unknown error');
    } else if (m.kind === 'removed' && m.id !== undefined) {
      state.pending.get(m.id)?.();
      state.pending.delete(m.id);
    }
  });
  worker.on('error', (error) => failAll(error.message));
  worker.on('exit', () => failAll('the checkpoint worker stopped'));
  // Never keeps the process alive (it stays, idle, between stores): closing a store checkpoints its
  // file anyway. Unref'd after the listeners are attached: adding a 'message' listener refs the
  // worker's port again, which kept processes from exiting.
  worker.unref();
  return state;
}

/**
 * Checkpoints `file` in the background until the returned function is called; that function
 * resolves once the worker has closed its connection, so the store can close the file last.
 */
export function checkpointInBackground(file: string, options: CheckpointerOptions): () => Promise<void> {
  shared ??= startWorker(options.intervalMs);
  const state = shared;
  let user = state.users.get(file);
  if (!user) {
    user = { count: 0, onFailure: new Set() };
    state.users.set(file, user);
    state.worker.postMessage({ kind: 'add', file });
  }
  user.count++;
  user.onFailure.add(options.onFailure);
  const current = user;
  let released = false;
  return async () => {
    if (released) return;
    released = true;
    current.onFailure.delete(options.onFailure);
    if (--current.count > 0 || shared !== state) return;
    state.users.delete(file);
    const id = state.nextId++;
    // Held while the worker lets go of the file, so the process cannot exit with the close unanswered.
    state.worker.ref();
    try {
      await new Promise<void>((resolve) => {
        state.pending.set(id, resolve);
        state.worker.postMessage({ kind: 'remove', file, id });
      });
    } finally {
      if (state.pending.size === 0) state.worker.unref();
    }
  };
}
