import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { callerOf, SYSTEM } from '@flagstaff/core';
import { typegenKey } from '@flagstaff/mcp';
import {
  exerciseEveryTool,
  expectInvalidArgumentsRefused,
  expectViewerRefused,
} from '@flagstaff/mcp/testing';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { ADMIN_TOKEN, type CliTestServer, startCliTestServer } from './test-server.js';
import { renderTypes } from './typegen.js';

const pkg = join(dirname(fileURLToPath(import.meta.url)), '../..');
const bin = join(pkg, 'bin/flagstaff.js');

let server: CliTestServer;
let viewerToken: string;
const clients: Client[] = [];

beforeAll(async () => {
  server = await startCliTestServer({ FLAGSTAFF_MCP: 'true' });
  const { flagstaff } = server.running;
  const user = await flagstaff.users.create(SYSTEM, { email: 'viewer@example.com', rootRole: 'Viewer' });
  const viewer = callerOf({ kind: 'user', userId: user.id, name: 'viewer', rootRole: 'Viewer' });
  viewerToken = (
    await flagstaff.personalTokens.create(viewer, {
      description: 'mcp',
      expiresAt: new Date(Date.now() + 30 * 86_400_000).toISOString(),
    })
  ).secret;
});
afterAll(async () => {
  for (const client of clients) await client.close();
  await server.close();
});

async function overHttp(token: string): Promise<Client> {
  const client = new Client({ name: 'mcp-http-test', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), {
      requestInit: { headers: { authorization: token } },
    }),
  );
  clients.push(client);
  return client;
}

/** The built bin as an assistant starts it: `flagstaff mcp --url … --token …` on stdio. */
async function overStdio(token: string): Promise<Client> {
  const client = new Client({ name: 'mcp-stdio-test', version: '1.0.0' });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [bin, 'mcp', '--url', server.url, '--token', token],
      stderr: 'ignore',
    }),
  );
  clients.push(client);
  return client;
}

describe('MCP over Streamable HTTP at /mcp (FLAGSTAFF_MCP=true)', () => {
  it('lists and runs every tool as the admin token', async () => {
    await exerciseEveryTool(await overHttp(ADMIN_TOKEN), 'http-flag');
  });

  it('refuses invalid arguments, naming them', async () => {
    await expectInvalidArgumentsRefused(await overHttp(ADMIN_TOKEN));
  });

  it("runs a Viewer's personal access token as that Viewer: create is refused, nothing stored", async () => {
    await expectViewerRefused(
      await overHttp(`Bearer ${viewerToken}`),
      await overHttp(ADMIN_TOKEN),
      'http-viewer-flag',
    );
  });

  it('answers 401 without a token and 405 to GET', async () => {
    const init = { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } };
    const anonymous = await fetch(`${server.url}/mcp`, init);
    expect(anonymous.status).toBe(401);
    const get = await fetch(`${server.url}/mcp`, { headers: { authorization: ADMIN_TOKEN } });
    expect(get.status).toBe(405);
  });

  it('is off unless enabled', async () => {
    expect(loadConfig({}).mcp).toBe(false);
    expect(() => loadConfig({ FLAGSTAFF_MCP: 'yes' })).toThrow(/FLAGSTAFF_MCP/);
    const plain = await startCliTestServer();
    try {
      const answer = await fetch(`${plain.url}/mcp`, {
        method: 'POST',
        headers: { authorization: ADMIN_TOKEN },
      });
      expect(answer.status).toBe(404);
    } finally {
      await plain.close();
    }
  });
});

describe('flagstaff mcp (stdio, over the admin API)', () => {
  it('lists and runs every tool through the built bin', async () => {
    expect(existsSync(join(pkg, 'dist/cli.js')), 'run `npm run build` first').toBe(true);
    await exerciseEveryTool(await overStdio(ADMIN_TOKEN), 'stdio-flag');
  });

  it('refuses invalid arguments, and a Viewer token’s create with the server’s message', async () => {
    await expectInvalidArgumentsRefused(await overStdio(ADMIN_TOKEN));
    await expectViewerRefused(
      await overStdio(viewerToken),
      await overStdio(ADMIN_TOKEN),
      'stdio-viewer-flag',
    );
  });
});

it('names a flag in the clean-up plan as typegen writes it', () => {
  for (const name of ['checkout', 'new-search'])
    expect(renderTypes(new Map([[name, new Map()]]), { source: 'test' })).toContain(
      `  ${typegenKey(name)}:\n`,
    );
});
