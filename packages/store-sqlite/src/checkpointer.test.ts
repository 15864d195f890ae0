import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { project, withWriteTransactions } from '@flagstaff/core/testing';
import { afterAll, describe, expect, test } from 'vitest';
import { sqliteStore } from './sqlite-store.js';

const dir = mkdtempSync(join(tmpdir(), 'flagstaff-sqlite-checkpoints-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
const freshFile = (): string => join(dir, `db-${++n}.sqlite`);
const size = (file: string): number => (existsSync(file) ? statSync(file).size : 0);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const bigProject = (id: string) => project(id, { description: 'x'.repeat(2000) });

async function writeSome(store: Awaited<ReturnType<typeof sqliteStore>>, prefix: string) {
  for (let i = 0; i < 50; i++)
    await withWriteTransactions(store).projects.insert(bigProject(`${prefix}-${i}`));
}

describe('background WAL checkpoints', () => {
  test('move committed pages into the database file without a commit filling the WAL', async () => {
    const file = freshFile();
    const store = await sqliteStore({ filename: file, checkpointIntervalMs: 50 });
    await writeSome(store, 'p');
    const deadline = Date.now() + 5000;
    // 50 projects of ~2 kB are far below the 1,000 WAL pages at which a commit would checkpoint.
    while (size(file) < 100_000 && Date.now() < deadline) await sleep(25);
    expect(size(file)).toBeGreaterThanOrEqual(100_000);
    expect((await store.projects.list()).length).toBe(50);
    await store.close();
  });

  test('with checkpointIntervalMs 0, pages stay in the WAL until SQLite checkpoints by itself', async () => {
    const file = freshFile();
    const store = await sqliteStore({ filename: file, checkpointIntervalMs: 0 });
    await writeSome(store, 'p');
    await sleep(300);
    expect(size(file)).toBeLessThan(100_000);
    expect(size(`${file}-wal`)).toBeGreaterThanOrEqual(100_000);
    await store.close();
  });

  test('closing the last store on a file lets go of it: the WAL is folded in and removed', async () => {
    const file = freshFile();
    const a = await sqliteStore({ filename: file, checkpointIntervalMs: 50 });
    const b = await sqliteStore({ filename: file, checkpointIntervalMs: 50 });
    await writeSome(a, 'a');
    await a.close();
    await writeSome(b, 'b');
    await b.close();
    expect(existsSync(`${file}-wal`)).toBe(false);
    const reopened = await sqliteStore({ filename: file });
    expect((await reopened.projects.list()).length).toBe(100);
    await reopened.close();
  });

  test('a process that used a file store exits by itself once the store is closed', async () => {
    // Regression: the checkpoint thread was unref'd before its message listener was attached, which
    // refs its port again, so a script that closed every store could still hang instead of exiting.
    const script = join(dir, 'exits.mts');
    const store = pathToFileURL(join(dirname(fileURLToPath(import.meta.url)), 'sqlite-store.ts')).href;
    writeFileSync(
      script,
      `import { sqliteStore } from ${JSON.stringify(store)};
      const store = await sqliteStore({ filename: ${JSON.stringify(freshFile())}, checkpointIntervalMs: 20 });
      const base = ${JSON.stringify(bigProject('x'))};
      for (let i = 0; i < 20; i++) await store.transaction((tx) => tx.projects.insert({ ...base, id: 'p' + i }));
      await new Promise((resolve) => setTimeout(resolve, 200));
      await store.close();
      process.stdout.write('closed');`,
    );
    const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', script], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    const exited = await new Promise<number | null | 'hung'>((resolve) => {
      const timer = setTimeout(() => resolve('hung'), 20_000);
      child.on('exit', (code) => {
        clearTimeout(timer);
        resolve(code);
      });
    });
    if (exited === 'hung') child.kill('SIGKILL');
    expect(out).toBe('closed');
    expect(exited).toBe(0);
  }, 30_000);
});
