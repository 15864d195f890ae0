import { beforeEach, describe, expect, it } from 'vitest';
import type { ActionSetInput } from '../../domain/signal.js';
import { createFlagstaff, type Flagstaff } from '../../flagstaff.js';
import { alice, createTestFlagstaff, eventTypesSince, type TestClock } from '../test-support.js';

let flagstaff: Flagstaff;
let clock: TestClock;
beforeEach(async () => {
  ({ flagstaff, clock } = await createTestFlagstaff());
});

const eventsSince = (afterId: number) => flagstaff.store.events.search({ afterId, ascending: true });

async function endpointWithToken(name = 'ci') {
  const endpoint = await flagstaff.signals.endpoints.create(alice, { name, description: 'CI pipeline' });
  const token = await flagstaff.signals.tokens.create(alice, endpoint.id, { name: 'github' });
  return { endpoint, secret: token.token };
}

describe('signal endpoints and tokens', () => {
  it('creates, updates and deletes endpoints with events; tokens show their secret only once', async () => {
    const endpoint = await flagstaff.signals.endpoints.create(alice, { name: 'ci' });
    expect(endpoint).toMatchObject({
      name: 'ci',
      description: null,
      enabled: true,
      createdByUserId: 1,
      tokens: [],
    });
    const token = await flagstaff.signals.tokens.create(alice, endpoint.id, { name: 'github' });
    expect(token.token).toMatch(/^[0-9a-f]{64}$/);
    expect(token).toMatchObject({ name: 'github', signalEndpointId: endpoint.id });
    const listed = await flagstaff.signals.tokens.list(alice, endpoint.id);
    expect(listed).toEqual([
      {
        id: token.id,
        name: 'github',
        signalEndpointId: endpoint.id,
        createdAt: token.createdAt,
        createdByUserId: 1,
      },
    ]);
    expect((await flagstaff.signals.endpoints.get(alice, endpoint.id)).tokens).toEqual(listed);
    const updated = await flagstaff.signals.endpoints.update(alice, endpoint.id, {
      description: 'from CI',
      enabled: false,
    });
    expect(updated).toMatchObject({ name: 'ci', description: 'from CI', enabled: false });
    await flagstaff.signals.tokens.delete(alice, endpoint.id, token.id);
    await flagstaff.signals.endpoints.delete(alice, endpoint.id);
    expect(await flagstaff.signals.endpoints.list(alice)).toEqual([]);
    const events = await eventsSince(0);
    expect(events.map((e) => e.type)).toEqual([
      'signal-endpoint-created',
      'signal-endpoint-token-created',
      'signal-endpoint-updated',
      'signal-endpoint-token-deleted',
      'signal-endpoint-deleted',
    ]);
    expect(JSON.stringify(events)).not.toContain(token.token);
    expect(JSON.stringify(events)).not.toContain('tokenHash');
  });

  it('enforces the endpoint and token limits, names and uniqueness', async () => {
    for (let i = 1; i <= 5; i++) await flagstaff.signals.endpoints.create(alice, { name: `e${i}` });
    await expect(flagstaff.signals.endpoints.create(alice, { name: 'e6' })).rejects.toMatchObject({
      code: 'LIMIT_EXCEEDED',
      message: expect.stringContaining('signal endpoints limit is 5'),
    });
    const [first] = await flagstaff.signals.endpoints.list(alice);
    for (let i = 1; i <= 5; i++) await flagstaff.signals.tokens.create(alice, first!.id, { name: `t${i}` });
    await expect(flagstaff.signals.tokens.create(alice, first!.id, { name: 't6' })).rejects.toMatchObject({
      code: 'LIMIT_EXCEEDED',
      message: expect.stringContaining('tokens per signal endpoint limit is 5'),
    });
    await flagstaff.signals.endpoints.delete(alice, first!.id);
    await expect(flagstaff.signals.endpoints.create(alice, { name: 'e2' })).rejects.toMatchObject({
      code: 'CONFLICT',
    });
    await expect(flagstaff.signals.endpoints.create(alice, { name: 'Not OK' })).rejects.toMatchObject({
      code: 'VALIDATION',
      message: expect.stringContaining('"name"'),
    });
    await expect(flagstaff.signals.tokens.create(alice, 99, { name: 'x' })).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    // @ts-expect-error the in-process API is typed now; the runner still refuses such a call at run time.
    await expect(flagstaff.signals.tokens.create(alice, 2, {})).rejects.toMatchObject({
      code: 'VALIDATION',
      message: expect.stringContaining('"name"'),
    });
  });
});

describe('receiving signals', () => {
  it('stores the signal with its token name and answers with its id', async () => {
    const { endpoint, secret } = await endpointWithToken();
    const result = await flagstaff.signals.receive('ci', `Bearer ${secret}`, { status: 'deployed' });
    const [signal] = await flagstaff.signals.listSignals(alice, endpoint.id);
    expect(signal).toMatchObject({
      id: result.signalId,
      source: 'signal-endpoint',
      sourceId: endpoint.id,
      payload: { status: 'deployed' },
      tokenName: 'github',
    });
  });

  it('counts the rate limit in the store, so every process on one store shares it', async () => {
    // A second Flagstaff over the same store stands for a second server on one database; the
    // limit used to be a map in each process, so each let its own request through.
    const other = await createFlagstaff({ store: flagstaff.store, clock });
    const { endpoint, secret } = await endpointWithToken();
    await flagstaff.signals.receive('ci', `Bearer ${secret}`, { from: 'a' });
    await expect(other.signals.receive('ci', `Bearer ${secret}`, { from: 'b' })).rejects.toMatchObject({
      code: 'RATE_LIMITED',
      details: { retryAfterSeconds: 1 },
    });
    clock.advance(999);
    await expect(other.signals.receive('ci', `Bearer ${secret}`, {})).rejects.toMatchObject({
      code: 'RATE_LIMITED',
    });
    clock.advance(1);
    await other.signals.receive('ci', `Bearer ${secret}`, { from: 'b' });
    const stored = await flagstaff.signals.listSignals(alice, endpoint.id);
    expect(stored.map((signal) => signal.payload)).toEqual([{ from: 'b' }, { from: 'a' }]);
  });

  it('refuses unknown or disabled endpoints, wrong tokens, and more than one request per second', async () => {
    const { endpoint, secret } = await endpointWithToken();
    await expect(flagstaff.signals.receive('nope', `Bearer ${secret}`, {})).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    await expect(flagstaff.signals.receive('ci', undefined, {})).rejects.toMatchObject({
      code: 'UNAUTHENTICATED',
    });
    await expect(flagstaff.signals.receive('ci', 'Bearer wrong', {})).rejects.toMatchObject({
      code: 'UNAUTHENTICATED',
    });
    await flagstaff.signals.receive('ci', `Bearer ${secret}`, undefined);
    await expect(flagstaff.signals.receive('ci', `Bearer ${secret}`, {})).rejects.toMatchObject({
      code: 'RATE_LIMITED',
      message: expect.stringContaining('1 request per second'),
    });
    clock.advance(1_000);
    await flagstaff.signals.receive('ci', secret, {});
    await flagstaff.signals.endpoints.update(alice, endpoint.id, { enabled: false });
    clock.advance(1_000);
    await expect(flagstaff.signals.receive('ci', `Bearer ${secret}`, {})).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    expect(await flagstaff.signals.listSignals(alice, endpoint.id)).toHaveLength(2);
    await flagstaff.signals.endpoints.update(alice, endpoint.id, { enabled: true });
    await expect(
      flagstaff.signals.receive('ci', `Bearer ${secret}`, { big: 'x'.repeat(101 * 1024) }),
    ).rejects.toMatchObject({ code: 'LIMIT_EXCEEDED', message: expect.stringContaining('100 kB') });
  });
});

describe('action sets', () => {
  const toggleSet = (
    sourceId: number,
    action: ActionSetInput['actions'][number]['action'],
    payload: Record<string, unknown> = { status: 'deployed' },
  ) => ({
    name: `${action} checkout`,
    project: 'default',
    match: { source: 'signal-endpoint' as const, sourceId, payload },
    actions: [{ action, executionParams: { featureName: 'checkout', environment: 'production' } }],
  });

  it('toggles features when the payload matches, as signal:<endpoint>, with events only on change', async () => {
    const { endpoint, secret } = await endpointWithToken();
    await flagstaff.features.create(alice, 'default', { name: 'checkout' });
    const on = await flagstaff.signals.actionSets.create(alice, toggleSet(endpoint.id, 'TOGGLE_FEATURE_ON'));
    expect(on.actions[0]?.executionParams).toEqual({
      project: 'default',
      featureName: 'checkout',
      environment: 'production',
    });
    const start = await flagstaff.store.events.latestId();
    await flagstaff.signals.receive('ci', `Bearer ${secret}`, { status: 'failed' });
    expect(await eventTypesSince(flagstaff, start)).toEqual([]);
    clock.advance(1_000);
    await flagstaff.signals.receive('ci', `Bearer ${secret}`, { status: 'deployed', commit: 'abc' });
    expect((await flagstaff.store.featureEnvironments.get('checkout', 'production'))?.enabled).toBe(true);
    const events = await eventsSince(start);
    expect(events.map((e) => e.type)).toEqual(['feature-strategy-add', 'feature-environment-enabled']);
    expect(events[1]).toMatchObject({
      createdBy: 'signal:ci',
      featureName: 'checkout',
      environment: 'production',
    });
    clock.advance(1_000);
    const again = await flagstaff.store.events.latestId();
    await flagstaff.signals.receive('ci', `Bearer ${secret}`, { status: 'deployed' });
    expect(await eventTypesSince(flagstaff, again)).toEqual([]);
    await flagstaff.signals.actionSets.delete(alice, on.id);
    await flagstaff.signals.actionSets.create(
      alice,
      toggleSet(endpoint.id, 'TOGGLE_FEATURE_OFF', { status: 'failed' }),
    );
    clock.advance(1_000);
    await flagstaff.signals.receive('ci', `Bearer ${secret}`, { status: 'failed' });
    expect((await flagstaff.store.featureEnvironments.get('checkout', 'production'))?.enabled).toBe(false);
    expect((await eventsSince(again)).map((e) => e.type)).toEqual([
      'actions-deleted',
      'actions-created',
      'feature-environment-disabled',
    ]);
  });

  it('keeps the signal when an action fails, and skips disabled action sets', async () => {
    const { endpoint, secret } = await endpointWithToken();
    await flagstaff.signals.actionSets.create(alice, toggleSet(endpoint.id, 'TOGGLE_FEATURE_ON'));
    await flagstaff.signals.actionSets.create(alice, {
      ...toggleSet(endpoint.id, 'TOGGLE_FEATURE_OFF'),
      enabled: false,
    });
    const start = await flagstaff.store.events.latestId();
    const { signalId } = await flagstaff.signals.receive('ci', `Bearer ${secret}`, { status: 'deployed' });
    expect((await flagstaff.signals.listSignals(alice, endpoint.id)).map((s) => s.id)).toEqual([signalId]);
    expect(await eventTypesSince(flagstaff, start)).toEqual([]);
  });

  it('disables and enables strategies (feature-strategy-update)', async () => {
    const { endpoint, secret } = await endpointWithToken();
    await flagstaff.features.create(alice, 'default', { name: 'checkout' });
    await flagstaff.featureEnvironments.setEnabled(alice, 'default', 'checkout', 'production', true);
    const [strategy] = await flagstaff.store.strategies.list({
      featureName: 'checkout',
      environment: 'production',
    });
    const params = { featureName: 'checkout', environment: 'production', strategyId: strategy!.id };
    await flagstaff.signals.actionSets.create(alice, {
      ...toggleSet(endpoint.id, 'DISABLE_FEATURE_STRATEGY', { status: 'incident' }),
      actions: [{ action: 'DISABLE_FEATURE_STRATEGY', executionParams: params }],
    });
    const start = await flagstaff.store.events.latestId();
    await flagstaff.signals.receive('ci', `Bearer ${secret}`, { status: 'incident' });
    expect((await flagstaff.store.strategies.get(strategy!.id))?.disabled).toBe(true);
    const events = await eventsSince(start);
    expect(events.map((e) => [e.type, e.createdBy])).toEqual([['feature-strategy-update', 'signal:ci']]);
    expect(events[0]).toMatchObject({ data: { disabled: true }, preData: { disabled: false } });
  });

  it('refuses incomplete actions, foreign projects and unknown sources, naming the property', async () => {
    const { endpoint } = await endpointWithToken();
    const base = toggleSet(endpoint.id, 'TOGGLE_FEATURE_ON');
    await expect(
      flagstaff.signals.actionSets.create(alice, {
        ...base,
        actions: [{ action: 'TOGGLE_FEATURE_ON', executionParams: { featureName: 'checkout' } }],
      }),
    ).rejects.toMatchObject({
      code: 'VALIDATION',
      message: expect.stringContaining('"actions[0].executionParams.environment"'),
    });
    await expect(
      flagstaff.signals.actionSets.create(alice, {
        ...base,
        actions: [
          {
            action: 'TOGGLE_FEATURE_ON',
            executionParams: { project: 'x', featureName: 'f', environment: 'production' },
          },
        ],
      }),
    ).rejects.toMatchObject({
      code: 'VALIDATION',
      message: expect.stringContaining('"actions[0].executionParams.project"'),
    });
    await expect(
      flagstaff.signals.actionSets.create(alice, { ...base, match: { ...base.match, sourceId: 99 } }),
    ).rejects.toMatchObject({ code: 'NOT_FOUND', message: expect.stringContaining('"match.sourceId"') });
    await expect(flagstaff.signals.actionSets.create(alice, { ...base, actions: [] })).rejects.toMatchObject({
      code: 'VALIDATION',
      message: expect.stringContaining('"actions"'),
    });
    await expect(flagstaff.signals.actionSets.delete(alice, 5)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect(await flagstaff.signals.actionSets.list(alice)).toEqual([]);
  });
});
