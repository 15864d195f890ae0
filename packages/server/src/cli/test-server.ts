// Test support: the real server on a loopback port with a fresh SQLite file, and a CLI io that records.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { silentLogger } from '@flagstaff/core';
import { loadConfig } from '../config.js';
import { type RunningServer, startServer } from '../server.js';
import { type ApiClient, createApiClient } from './api-client.js';
import type { CliIo } from './io.js';

export const ADMIN_TOKEN = '*:*.clitestsecret0123456789abcdef0123456789';

export interface CliTestServer {
  running: RunningServer;
  url: string;
  dir: string;
  client: ApiClient;
  close(): Promise<void>;
}

/** Starts a server (token auth, a known admin token, and `env` settings) on its own temp directory. */
export async function startCliTestServer(env: Record<string, string> = {}): Promise<CliTestServer> {
  const dir = mkdtempSync(join(tmpdir(), 'flagstaff-cli-'));
  const config = {
    ...loadConfig({ ...env, DATABASE_URL: join(dir, 'flagstaff.db'), FLAGSTAFF_ADMIN_TOKEN: ADMIN_TOKEN }),
    port: 0,
    host: '127.0.0.1',
  };
  const running = await startServer(config, silentLogger);
  return {
    running,
    url: running.url,
    dir,
    client: createApiClient({ url: running.url, token: ADMIN_TOKEN }),
    close: async () => {
      await running.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A CliIo that keeps what commands print, pointed at a server. */
export function recordingIo(server?: { url: string }): CliIo & { out: string[]; err: string[] } {
  const out: string[] = [];
  const err: string[] = [];
  return {
    out,
    err,
    stdout: (text) => out.push(text),
    stderr: (text) => err.push(text),
    env: server ? { FLAGSTAFF_URL: server.url, FLAGSTAFF_TOKEN: ADMIN_TOKEN } : {},
  };
}

/** An export document of `count` features, each with a strategy and its constraint (~1 kB a feature). */
export function largeExport(count: number) {
  const names = Array.from({ length: count }, (_, i) => `large-feature-${String(i).padStart(4, '0')}`);
  return {
    features: names.map((name, i) => ({
      name,
      type: 'release',
      description: `Feature ${i} of a large project`,
    })),
    featureStrategies: names.map((featureName, i) => ({
      featureName,
      name: 'flexibleRollout',
      parameters: { rollout: String(i % 100), stickiness: 'default', groupId: featureName },
      constraints: [{ contextName: 'userId', operator: 'IN', values: [`${i}`, `${i + 1}`, `${i + 2}`] }],
    })),
    featureEnvironments: names.map((featureName, i) => ({ featureName, enabled: i % 2 === 0 })),
  };
}
