// The real standalone server on an ephemeral port with a fresh SQLite file, serving the built admin UI
// itself at `/ui/`; for a sub-path, the same Flagstaff mounted at `<mount>` through the node:http
// adapter with `ui: true`, as a host app would mount it.
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { silentLogger } from '@flagstaff/core';
import { createNodeHandler } from '@flagstaff/http';
import { loadConfig, type RunningServer, startServer } from '@flagstaff/server';

export interface Harness {
  /** Where the router is mounted, ending in `/` (e.g. `http://127.0.0.1:1234/flags/`). */
  root: string;
  /** The admin UI's address: `<root>ui/`. */
  ui: string;
  api: RunningServer;
  close(): Promise<void>;
}

/** Starts the server (auth `none` unless told otherwise) and the UI under `mount` (`''` or `/flags`). */
export async function startHarness(
  options: {
    mount?: string;
    auth?: 'none' | 'token';
    adminToken?: string;
    adminPassword?: string;
    /** More of the server's environment settings. */
    env?: Record<string, string>;
  } = {},
): Promise<Harness> {
  const mount = options.mount ?? '';
  const dir = mkdtempSync(join(tmpdir(), 'flagstaff-ui-e2e-'));
  const config = {
    ...loadConfig({
      DATABASE_URL: join(dir, 'flagstaff.db'),
      FLAGSTAFF_AUTH: options.auth ?? 'none',
      ...(options.adminToken ? { FLAGSTAFF_ADMIN_TOKEN: options.adminToken } : {}),
      ...(options.adminPassword ? { FLAGSTAFF_ADMIN_PASSWORD: options.adminPassword } : {}),
      ...options.env,
    }),
    port: 0,
    host: '127.0.0.1',
  };
  const api = await startServer(config, silentLogger);
  let mounted: Server | null = null;
  let root = `${api.url}/`;
  if (mount) {
    const handler = createNodeHandler(api.flagstaff, {
      basePath: mount,
      auth: { type: config.auth },
      logger: silentLogger,
      ui: true,
    });
    mounted = createServer((req, res) => void handler(req, res));
    const server = mounted;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    root = `http://127.0.0.1:${(server.address() as AddressInfo).port}${mount}/`;
  }
  return {
    root,
    ui: `${root}ui/`,
    api,
    async close() {
      if (mounted) {
        const server = mounted;
        server.closeAllConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
      }
      await api.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
