// TEMPORARY TEST HARNESS (the lead replaces this one file once the server serves the UI itself):
// the real standalone server on an ephemeral port with a fresh SQLite file, fronted by a tiny HTTP
// server that serves `dist` at `<mount>/ui/` with the injected <base href> and proxies the rest.
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { extname, join, normalize } from 'node:path';
import { silentLogger } from '@flagstaff/core';
import { loadConfig } from '@flagstaff/standalone-server/src/config.js';
import { type RunningServer, startServer } from '@flagstaff/standalone-server/src/server.js';
import { adminUiAssetsDir } from '../assets-dir.js';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.json': 'application/json',
};

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
  options: { mount?: string; auth?: 'none' | 'token'; adminToken?: string } = {},
): Promise<Harness> {
  const mount = options.mount ?? '';
  const dir = mkdtempSync(join(tmpdir(), 'flagstaff-ui-e2e-'));
  const config = {
    ...loadConfig({
      DATABASE_URL: join(dir, 'flagstaff.db'),
      FLAGSTAFF_AUTH: options.auth ?? 'none',
      ...(options.adminToken ? { FLAGSTAFF_ADMIN_TOKEN: options.adminToken } : {}),
    }),
    port: 0,
    host: '127.0.0.1',
  };
  const api = await startServer(config, silentLogger);
  const assets = adminUiAssetsDir();
  const index = readFileSync(join(assets, 'index.html'), 'utf8').replace(
    '<head>',
    `<head>\n    <base href="${mount}/ui/">`,
  );
  const front: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (!url.pathname.startsWith(`${mount}/`)) return void res.writeHead(404).end();
    const rest = url.pathname.slice(mount.length);
    if (rest === '/ui' || rest.startsWith('/ui/')) {
      const file = normalize(join(assets, rest.slice(3)));
      if (
        file.startsWith(assets) &&
        existsSync(file) &&
        statSync(file).isFile() &&
        !file.endsWith('index.html')
      ) {
        res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' });
        return void res.end(readFileSync(file));
      }
      res.writeHead(200, { 'content-type': TYPES['.html']! });
      return void res.end(index);
    }
    const upstream = request(
      {
        host: '127.0.0.1',
        port: api.port,
        method: req.method,
        path: rest + url.search,
        headers: req.headers,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.writeHead(502).end());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
  const root = `http://127.0.0.1:${(front.address() as AddressInfo).port}${mount}/`;
  return {
    root,
    ui: `${root}ui/`,
    api,
    async close() {
      front.closeAllConnections();
      await new Promise<void>((resolve) => front.close(() => resolve()));
      await api.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
