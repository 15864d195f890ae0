import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { silentLogger } from '@flagstaff/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serve } from '../serve.js';
import { createApiClient } from './api-client.js';
import { runCli } from './run.js';
import {
  ADMIN_TOKEN,
  type CliTestServer,
  largeExport,
  recordingIo,
  startCliTestServer,
} from './test-server.js';

const pkg = join(dirname(fileURLToPath(import.meta.url)), '../..');
// The bin package.json names; it loads the build.
const bin = join(pkg, 'bin/flagstaff.js');
const built = join(pkg, 'dist/cli.js');
const run = promisify(execFile);
const FILE = `
projects: [{ id: ops, name: Operations }]
features:
  - name: kill-switch
    project: ops
    type: kill-switch
    environments:
      production: { enabled: true }
`;

let server: CliTestServer;
let dir: string;
let applyFile: string;
beforeAll(async () => {
  server = await startCliTestServer();
  dir = mkdtempSync(join(tmpdir(), 'flagstaff-bin-'));
  applyFile = join(dir, 'flags.yaml');
  writeFileSync(applyFile, FILE);
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

const opsFeatures = async (url: string) =>
  (
    await createApiClient({ url, token: ADMIN_TOKEN }).get<{
      features: { name: string; environments: { name: string; enabled: boolean }[] }[];
    }>('/api/admin/projects/ops/features')
  ).features;

describe('the flagstaff bin', () => {
  it('prints usage, and runs apply through the built bin', async () => {
    expect(existsSync(built), `${built} is missing: run \`npm run build\` first`).toBe(true);
    const help = await run(process.execPath, [bin, '--help']);
    expect(help.stdout).toContain('Usage: flagstaff <command>');
    expect((await run(process.execPath, [bin, 'apply', '--help'])).stdout).toContain('--dry-run');
    const env = { ...process.env, FLAGSTAFF_URL: server.url, FLAGSTAFF_TOKEN: ADMIN_TOKEN };
    const dry = await run(process.execPath, [bin, 'apply', applyFile, '--dry-run'], { env });
    expect(dry.stdout).toContain('+ create feature ops/kill-switch');
    const refused = await run(process.execPath, [bin, 'export', '--features', 'nope'], { env }).catch(
      (e: { code: number; stderr: string }) => e,
    );
    expect(refused).toMatchObject({ code: 1 });
    expect(refused.stderr).toMatch(
      /^flagstaff export: POST \/api\/admin\/features-batch\/export failed: HTTP 404 NotFoundError: .*\n$/,
    );
    const unknown = await run(process.execPath, [bin, 'frobnicate']).catch(
      (e: { code: number; stderr: string }) => e,
    );
    expect(unknown).toMatchObject({ code: 2 });
  });

  it('serve with FLAGSTAFF_APPLY_FILE starts with the file applied (the bin, as its own process)', async () => {
    const child: ChildProcess = spawn(process.execPath, [bin, 'serve'], {
      env: {
        ...process.env,
        PORT: '0',
        HOST: '127.0.0.1',
        DATABASE_URL: join(dir, 'served.db'),
        FLAGSTAFF_ADMIN_TOKEN: ADMIN_TOKEN,
        FLAGSTAFF_APPLY_FILE: applyFile,
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    try {
      const port = await new Promise<number>((resolve, reject) => {
        let text = '';
        child.stdout?.on('data', (chunk: Buffer) => {
          text += chunk.toString();
          const match = /"msg":"flagstaff is listening","port":(\d+)/.exec(text);
          if (match) resolve(Number(match[1]));
        });
        child.once('exit', (code) => reject(new Error(`serve exited with ${code}: ${text}`)));
      });
      const features = await opsFeatures(`http://127.0.0.1:${port}`);
      expect(features.map((f) => f.name)).toEqual(['kill-switch']);
      expect(features[0]?.environments.find((e) => e.name === 'production')?.enabled).toBe(true);
    } finally {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
    }
  });
});

/** Runs the bin; resolves with its exit code and stderr once it exits. */
function exited(child: ChildProcess): Promise<{ code: number | null; stderr: string }> {
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, stderr })));
}

describe('flagstaff export | flagstaff import - (the bin, two processes, a real pipe)', () => {
  it('copies a project past 100 kB into a fresh server, with progress on stderr', async () => {
    const fresh = await startCliTestServer();
    try {
      await server.client.request('POST', '/api/admin/features-batch/import', {
        project: 'default',
        environment: 'development',
        data: largeExport(250),
      });
      const exporter = spawn(process.execPath, [bin, 'export', '--project', 'default'], {
        env: { ...process.env, FLAGSTAFF_URL: server.url, FLAGSTAFF_TOKEN: ADMIN_TOKEN },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const importer = spawn(process.execPath, [bin, 'import', '-', '--project', 'default'], {
        env: { ...process.env, FLAGSTAFF_URL: fresh.url, FLAGSTAFF_TOKEN: ADMIN_TOKEN },
        stdio: ['pipe', 'ignore', 'pipe'],
      });
      let piped = 0;
      exporter.stdout?.on('data', (chunk: Buffer) => {
        piped += chunk.length;
      });
      exporter.stdout?.pipe(importer.stdin!);
      const [exported, imported] = await Promise.all([exited(exporter), exited(importer)]);
      expect(exported).toEqual({ code: 0, stderr: 'exported 250 features\n' });
      expect(piped).toBeGreaterThan(100 * 1024);
      expect(imported.code, imported.stderr).toBe(0);
      expect(imported.stderr).toMatch(
        /^importing 250 features…\nimported into project default, environment development: done in \d+\.\d s\n$/,
      );
      const arrived = await fresh.client.get<{ features: unknown[] }>('/api/admin/projects/default/features');
      expect(arrived.features).toHaveLength(250);
    } finally {
      await fresh.close();
    }
  });
});

describe('serve --apply', () => {
  it('applies before listening; an invalid file stops the start with the path named', async () => {
    const env = {
      PORT: '0',
      HOST: '127.0.0.1',
      DATABASE_URL: join(dir, 'in-process.db'),
      FLAGSTAFF_ADMIN_TOKEN: ADMIN_TOKEN,
      LOG_LEVEL: 'error',
    };
    const running = await serve(env, applyFile, silentLogger);
    expect(running).toBeDefined();
    try {
      expect((await opsFeatures(running!.url)).map((f) => f.name)).toEqual(['kill-switch']);
    } finally {
      await running?.close();
    }
    const bad = join(dir, 'bad.yaml');
    writeFileSync(bad, 'features: [{ name: x, environments: { production: { enabled: "yes" } } }]');
    const errors: string[] = [];
    const logger = {
      ...silentLogger,
      error: (msg: string, fields?: Record<string, unknown>) =>
        errors.push(`${msg} ${JSON.stringify(fields)}`),
    };
    expect(await serve({ ...env, DATABASE_URL: join(dir, 'bad.db') }, bad, logger)).toBeUndefined();
    expect(errors.join('\n')).toContain('features[0].environments.production.enabled: expected boolean');
    const io = recordingIo();
    expect(await runCli(['serve', 'extra'], io)).toBe(2);
  });
});
