// Test support: the same calls through any transport, so in-memory, stdio and HTTP prove the same tools.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { expect } from 'vitest';

export const TOOL_NAMES = [
  'list_flags',
  'get_flag',
  'create_flag',
  'set_flag_enabled',
  'set_rollout',
  'evaluate_flags',
  'list_stale_flags',
  'cleanup_flag',
];

interface ToolAnswer {
  isError: boolean;
  text: string;
  data: Record<string, unknown>;
}

/** Calls a tool; the answer's text, whether it is an error, and its structured content. */
export async function callTool(
  client: Client,
  name: string,
  args: Record<string, unknown>,
): Promise<ToolAnswer> {
  const result = await client.callTool({ name, arguments: args });
  const content = result.content as { type: string; text?: string }[];
  return {
    isError: result.isError === true,
    text: content.map((c) => c.text ?? '').join('\n'),
    data: (result.structuredContent ?? {}) as Record<string, unknown>,
  };
}

/** Expects success and returns the structured content. */
async function ok(client: Client, name: string, args: Record<string, unknown>) {
  const answer = await callTool(client, name, args);
  expect(answer.isError, `${name} failed: ${answer.text}`).toBe(false);
  // biome-ignore lint/suspicious/noExplicitAny: the expectations below check the shape of what comes back
  return answer.data as Record<string, any>;
}

/** Lists the tools and resources, then calls every tool once as an admin, ending with an archive. */
export async function exerciseEveryTool(client: Client, flag: string): Promise<void> {
  const { tools } = await client.listTools();
  expect(tools.map((t) => t.name).sort()).toEqual([...TOOL_NAMES].sort());
  const create = tools.find((t) => t.name === 'create_flag')!;
  expect(create.inputSchema.properties).toHaveProperty('name');
  expect(create.description).toContain('directly');

  const created = await ok(client, 'create_flag', { name: flag, description: 'made by MCP' });
  expect(created).toMatchObject({ name: flag, project: 'default', type: 'release' });
  const listed = await ok(client, 'list_flags', { query: flag });
  expect(listed.flags.map((f: { name: string }) => f.name)).toContain(flag);

  const enabled = await ok(client, 'set_flag_enabled', {
    name: flag,
    environment: 'development',
    enabled: true,
  });
  expect(enabled.environments).toContainEqual(
    expect.objectContaining({ name: 'development', enabled: true }),
  );

  const first = await ok(client, 'set_rollout', {
    name: flag,
    environment: 'development',
    rollout: 25,
    stickiness: 'userId',
  });
  expect(first.strategy).toMatchObject({
    name: 'flexibleRollout',
    parameters: { rollout: '25', stickiness: 'userId', groupId: flag },
  });
  const second = await ok(client, 'set_rollout', { name: flag, environment: 'development', rollout: 50 });
  expect(second).toMatchObject({ action: 'updated', strategy: { id: first.strategy.id } });
  expect(second.strategy.parameters).toEqual({ rollout: '50', stickiness: 'userId', groupId: flag });

  const shown = await ok(client, 'get_flag', { name: flag });
  const development = shown.environments.find((e: { name: string }) => e.name === 'development');
  expect(development.strategies).toHaveLength(1);
  expect(development.strategies[0].parameters.rollout).toBe('50');

  const evaluated = await ok(client, 'evaluate_flags', {
    environment: 'development',
    context: { appName: 'mcp-test', userId: '42' },
    flags: [flag, 'no-such-flag'],
  });
  expect(evaluated.flags).toHaveLength(1);
  expect(evaluated.flags[0]).toMatchObject({ name: flag, enabledInEnvironment: true });
  expect(evaluated.flags[0].strategies[0].parameters.rollout).toBe('50');
  expect(evaluated.unknownFlags).toEqual(['no-such-flag']);

  const stale = await ok(client, 'list_stale_flags', {});
  expect(stale).toEqual({ stale: expect.any(Array), potentiallyStale: expect.any(Array) });

  const plan = await ok(client, 'cleanup_flag', { name: flag });
  expect(plan).toMatchObject({ flag, keep: 'disabled', archived: false });
  expect(plan.typegen.key).toBe(JSON.stringify(flag));
  expect((await callTool(client, 'get_flag', { name: flag })).isError).toBe(false);

  const resource = await client.readResource({ uri: 'flagstaff://flags' });
  const listing = resource.contents[0];
  expect(JSON.parse(listing && 'text' in listing ? listing.text : '{}').flags).toContainEqual(
    expect.objectContaining({ name: flag, environments: expect.objectContaining({ development: true }) }),
  );

  const archived = await ok(client, 'cleanup_flag', { name: flag, keep: 'enabled', archive: true });
  expect(archived).toMatchObject({ keep: 'enabled', archived: true });
  const gone = await callTool(client, 'get_flag', { name: flag });
  expect(gone.isError).toBe(true);
  expect(gone.text).toContain(flag);
}

/** Arguments the schemas refuse: a tool error naming the argument, not a protocol error. */
export async function expectInvalidArgumentsRefused(client: Client): Promise<void> {
  const badName = await callTool(client, 'create_flag', { name: 'has spaces' });
  expect(badName.isError).toBe(true);
  expect(badName.text).toMatch(/name/);
  const badRollout = await callTool(client, 'set_rollout', {
    name: 'x',
    environment: 'development',
    rollout: 150,
  });
  expect(badRollout.isError).toBe(true);
  expect(badRollout.text).toMatch(/rollout/);
  const missing = await callTool(client, 'set_flag_enabled', { name: 'x', environment: 'development' });
  expect(missing.isError).toBe(true);
  expect(missing.text).toMatch(/enabled/);
}

/** A Viewer may read but not create: the tool error names the permission and nothing is stored. */
export async function expectViewerRefused(viewer: Client, admin: Client, flag: string): Promise<void> {
  expect((await callTool(viewer, 'list_flags', {})).isError).toBe(false);
  const refused = await callTool(viewer, 'create_flag', { name: flag });
  expect(refused.isError).toBe(true);
  expect(refused.text).toContain('CREATE_FEATURE');
  const lookup = await callTool(admin, 'get_flag', { name: flag });
  expect(lookup.isError).toBe(true);
}
