import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// What a user gets from npm: every published package packed with `npm pack`, installed from the
// tarballs (with Express 5 from the registry) into an app outside the workspace, then used the ways the
// README shows. A file missing from `files`, a dependency only the workspace provides, or an `exports`
// entry pointing nowhere fails here. It relies on the builds the tests' global setup makes.

const run = promisify(execFile);
const repoDir = fileURLToPath(new URL('../../..', import.meta.url));
const PACKAGES = [
  'core',
  'store-sql',
  'store-sqlite',
  'store-postgres',
  'http',
  'http-express',
  'admin-ui',
  'openfeature',
  'mcp',
  'server',
];

/** The parent `npm test` passes npm_* settings down; the app's npm must not inherit the workspace's. */
const cleanEnv = (): NodeJS.ProcessEnv =>
  Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^npm_/i.test(key)));

const npm = (args: string[], cwd: string) =>
  run('npm', args, { cwd, env: cleanEnv(), maxBuffer: 64 * 1024 * 1024, timeout: 240_000 });

interface Packed {
  name: string;
  filename: string;
  files: { path: string }[];
}

/** The files `exports` and `bin` name: `import` targets always, `types` targets when the build made them. */
function namedFiles(packageDir: string): string[] {
  const manifest = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8'));
  const files: string[] = [...Object.values<string>(manifest.bin ?? {})];
  const walk = (entry: unknown, condition: string) => {
    if (typeof entry === 'string') {
      if (condition === 'import' || (condition === 'types' && existsSync(join(packageDir, entry))))
        files.push(entry);
    } else if (entry && typeof entry === 'object')
      for (const [key, value] of Object.entries(entry)) walk(value, key.startsWith('.') ? condition : key);
  };
  walk(manifest.exports, 'import');
  return files.map((file) => file.replace(/^\.\//, ''));
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

// The app: the README's in-process example, the Express router with the UI, the stores, OpenFeature.
const APP = `
import express from 'express';
import { createFlagstaff, createMemoryStore, SYSTEM } from '@flagstaff/core';
import { flagstaffRouter } from '@flagstaff/http-express';
import { createFetchHandler } from '@flagstaff/http';
import { sqliteStore } from '@flagstaff/store-sqlite';
import { postgresStore } from '@flagstaff/store-postgres';
import { openSqlStore } from '@flagstaff/store-sql';
import { createFlagstaffProvider } from '@flagstaff/openfeature';
import { loadConfig, startServer } from '@flagstaff/server';
import { adminUiAssetsDir } from '@flagstaff/admin-ui';
import { OpenFeature } from '@openfeature/server-sdk';

const out = {};
const flagstaff = await createFlagstaff({ store: createMemoryStore() });
await flagstaff.features.create(SYSTEM, 'default', { name: 'new-checkout' });
await flagstaff.featureEnvironments.setEnabled(SYSTEM, 'default', 'new-checkout', 'development', true);
const flags = await flagstaff.client.evaluator('development');
out.inProcess = flags.isEnabled('new-checkout', { userId: '42' });

await OpenFeature.setProviderAndWait(createFlagstaffProvider(flagstaff, { environment: 'development' }));
out.openFeature = await OpenFeature.getClient().getBooleanValue('new-checkout', false, { targetingKey: '42' });
await OpenFeature.close();

const sqlite = await createFlagstaff({ store: await sqliteStore({ filename: process.argv[2] }) });
out.sqliteProjects = (await sqlite.projects.list(SYSTEM)).map((p) => p.id);
await sqlite.close();
out.exports = [typeof postgresStore, typeof openSqlStore, typeof createFetchHandler, typeof loadConfig,
  typeof startServer, typeof adminUiAssetsDir];

const app = express();
app.use('/flags', flagstaffRouter(flagstaff, { ui: true, auth: { type: 'none' } }));
const server = app.listen(0, '127.0.0.1');
await new Promise((resolve) => server.once('listening', resolve));
const base = 'http://127.0.0.1:' + server.address().port + '/flags';
const projects = await fetch(base + '/api/admin/projects');
out.projects = { status: projects.status, body: await projects.json() };
const ui = await fetch(base + '/ui/');
const html = await ui.text();
out.ui = { status: ui.status, type: ui.headers.get('content-type'), html };
const script = /src="\\.?\\/?(assets\\/[^"]+\\.js)"/.exec(html)?.[1];
const asset = await fetch(base + '/ui/' + script);
out.uiScript = { path: script, status: asset.status, bytes: (await asset.arrayBuffer()).byteLength };
server.close();
await flagstaff.close();
console.log(JSON.stringify(out));
`;

describe('the packed packages, installed from their tarballs into an app outside the workspace', () => {
  let dir: string;
  let appDir: string;
  let packed: Packed[];
  let serving: ChildProcess | undefined;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'flagstaff-pack-'));
    const tarballs = join(dir, 'tarballs');
    mkdirSync(tarballs);
    const workspaces = PACKAGES.flatMap((name) => ['--workspace', `@flagstaff/${name}`]);
    const { stdout } = await npm(['pack', '--json', '--pack-destination', tarballs, ...workspaces], repoDir);
    packed = JSON.parse(stdout.slice(stdout.indexOf('[')));
    appDir = join(dir, 'app');
    mkdirSync(appDir);
    writeFileSync(
      join(appDir, 'package.json'),
      `${JSON.stringify({ name: 'pack-install-app', private: true, type: 'module' })}\n`,
    );
    writeFileSync(join(appDir, 'app.mjs'), APP);
    const files = packed.map((p) => join(tarballs, p.filename));
    await npm(['install', '--no-audit', '--no-fund', ...files, 'express@5'], appDir);
  }, 300_000);

  afterAll(() => {
    if (serving?.pid && serving.exitCode === null) process.kill(-serving.pid, 'SIGKILL');
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('packs every package with its README, LICENSE and every file its exports and bin name', () => {
    expect(packed.map((p) => p.name).sort()).toEqual(PACKAGES.map((n) => `@flagstaff/${n}`).sort());
    for (const name of PACKAGES) {
      const tarball = packed.find((p) => p.name === `@flagstaff/${name}`)!;
      const paths = new Set(tarball.files.map((f) => f.path));
      const expected = [
        'package.json',
        'README.md',
        'LICENSE',
        ...namedFiles(join(repoDir, 'packages', name)),
      ];
      expect(
        expected.filter((file) => !paths.has(file)),
        `${name}: missing from the tarball`,
      ).toEqual([]);
      expect(
        [...paths].filter((p) => /\.test\.|(^|\/)src\//.test(p)),
        `${name}: sources or tests packed`,
      ).toEqual([]);
    }
    const ui = packed.find((p) => p.name === '@flagstaff/admin-ui')!;
    expect(ui.files.map((f) => f.path)).toContain('dist/THIRD_PARTY_NOTICES.md');
  });

  it('evaluates flags in-process, opens SQLite, and serves the API and the admin UI from the Express router', async () => {
    const { stdout } = await run(process.execPath, ['app.mjs', join(dir, 'app.db')], {
      cwd: appDir,
      env: cleanEnv(),
      timeout: 60_000,
    });
    const out = JSON.parse(stdout.trim().split('\n').pop()!);
    expect(out.inProcess).toBe(true);
    expect(out.openFeature).toBe(true);
    expect(out.sqliteProjects).toContain('default');
    expect(out.exports).toEqual(Array(6).fill('function'));
    expect(out.projects.status).toBe(200);
    expect(JSON.stringify(out.projects.body)).toContain('"default"');
    expect(out.ui.status).toBe(200);
    expect(out.ui.type).toMatch(/text\/html/);
    expect(out.ui.html).toContain('<base href="/flags/ui/"');
    expect(out.uiScript).toMatchObject({ status: 200 });
    expect(out.uiScript.bytes).toBeGreaterThan(1000);
  }, 90_000);

  it('runs `npx flagstaff serve` on a temporary SQLite file until /health answers', async () => {
    const port = await freePort();
    let output = '';
    serving = spawn('npx', ['--no-install', 'flagstaff', 'serve'], {
      cwd: appDir,
      detached: true, // its own process group: npx and the server end together
      env: { ...cleanEnv(), PORT: String(port), HOST: '127.0.0.1', DATABASE_URL: join(dir, 'serve.db') },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    serving.stdout?.on('data', (chunk) => (output += chunk));
    serving.stderr?.on('data', (chunk) => (output += chunk));
    const deadline = Date.now() + 60_000;
    let health: Response | undefined;
    while (!health && Date.now() < deadline && serving.exitCode === null) {
      health = await fetch(`http://127.0.0.1:${port}/health`).catch(() => undefined);
      if (!health) await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(health?.status, output).toBe(200);
    expect(await health?.json()).toEqual({ status: 'ok' });
    const ui = await fetch(`http://127.0.0.1:${port}/ui/`);
    expect(ui.status, output).toBe(200);
    const exited = new Promise((resolve) => serving?.once('exit', resolve));
    process.kill(-serving.pid!, 'SIGTERM');
    await exited;
  }, 90_000);
});
