import { callerOf, createFlagstaff, createMemoryStore, type Flagstaff, SYSTEM } from '@flagstaff/core';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFlagstaffMcpServer } from './create-server.js';
import { createFacadeBackend } from './facade-backend.js';
import { exerciseEveryTool, expectInvalidArgumentsRefused, expectViewerRefused } from './testing/index.js';
import { typegenKey } from './tools/cleanup-tool.js';

let flagstaff: Flagstaff;
const clients: Client[] = [];

/** A client connected in memory to the tools running in-process as `caller`. */
async function connect(caller: Parameters<typeof createFacadeBackend>[1]): Promise<Client> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await createFlagstaffMcpServer(createFacadeBackend(flagstaff, caller)).connect(serverSide);
  const client = new Client({ name: 'tools-test', version: '1.0.0' });
  await client.connect(clientSide);
  clients.push(client);
  return client;
}

beforeAll(async () => {
  flagstaff = await createFlagstaff({ store: createMemoryStore() });
});
afterAll(async () => {
  for (const client of clients) await client.close();
  await flagstaff.close();
});

describe('the MCP tools in-process', () => {
  it('lists every tool and runs each one', async () => {
    await exerciseEveryTool(await connect(SYSTEM), 'in-process-flag');
  });

  it('refuses invalid arguments with a tool error naming the argument', async () => {
    await expectInvalidArgumentsRefused(await connect(SYSTEM));
  });

  it("refuses a Viewer's create, naming the permission, and stores nothing", async () => {
    const user = await flagstaff.users.create(SYSTEM, { email: 'viewer@example.com', rootRole: 'Viewer' });
    const viewer = callerOf({ kind: 'user', userId: user.id, name: 'viewer', rootRole: 'Viewer' });
    await expectViewerRefused(await connect(viewer), await connect(SYSTEM), 'viewer-flag');
  });

  it('asks which branch to keep when a flag is partly rolled out, and refuses an unknown "keep"', async () => {
    const admin = await connect(SYSTEM);
    await flagstaff.features.create(SYSTEM, 'default', { name: 'half-on' });
    await flagstaff.featureEnvironments.setEnabled(SYSTEM, 'default', 'half-on', 'production', true);
    // Turning production on added the default 100% rollout; narrowing it leaves some users out.
    await admin.callTool({
      name: 'set_rollout',
      arguments: { name: 'half-on', environment: 'production', rollout: 10 },
    });
    const plan = await admin.callTool({ name: 'cleanup_flag', arguments: { name: 'half-on' } });
    expect(plan.structuredContent).toMatchObject({ keep: null, archived: false });
    const wrong = await admin.callTool({
      name: 'cleanup_flag',
      arguments: { name: 'half-on', keep: 'blue' },
    });
    expect(wrong.isError).toBe(true);
    expect(JSON.stringify(wrong.content)).toContain('\\"keep\\"');
  });

  it('names flags as typegen does', () => {
    expect(typegenKey('checkout')).toBe('checkout');
    expect(typegenKey('new-search')).toBe('"new-search"');
  });
});
