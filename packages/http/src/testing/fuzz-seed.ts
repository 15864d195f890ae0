import type { Store } from '@flagstaff/core';
import type { TestServer } from './harness.js';
import type { SeedValues } from './route-arbitraries.js';

const P = '/api/admin/projects/default';

/** Sends a seeding request; a conflict means the row is already there. */
async function ensure(s: TestServer, method: string, path: string, body?: unknown) {
  const res = await s.request(method, path, body === undefined ? {} : { body });
  if (res.status >= 400 && res.status !== 409)
    throw new Error(`seeding ${method} ${path}: ${res.status} ${res.text}`);
  return res;
}

/**
 * Puts the rows the fuzzed requests refer to back in place (requests before may have deleted or
 * archived them) and returns the values path parameters are drawn from.
 */
export async function seedFuzzData(
  s: TestServer,
): Promise<{ seed: SeedValues; tokens: Record<string, string> }> {
  const store = s.flagstaff.store;
  await ensure(s, 'POST', '/api/admin/projects', { id: 'fuzz-project', name: 'Fuzz project' });
  for (const name of ['seed-a', 'seed-b', 'seed-child', 'seed-archived']) {
    const existing = await store.features.get(name);
    if (existing?.archivedAt && name !== 'seed-archived')
      await ensure(s, 'POST', `/api/admin/archive/revive/${name}`);
    if (!existing) await ensure(s, 'POST', `${P}/features`, { name, description: 'fuzz seed' });
  }
  const archived = await store.features.get('seed-archived');
  if (archived && !archived.archivedAt) await ensure(s, 'DELETE', `${P}/features/seed-archived`);
  if ((await store.dependencies.list(['seed-child'])).length === 0)
    await ensure(s, 'POST', `${P}/features/seed-child/dependencies`, { feature: 'seed-a' });
  let strategies = await store.strategies.list({ featureName: 'seed-a' });
  if (strategies.length === 0) {
    await ensure(s, 'POST', `${P}/features/seed-a/environments/development/strategies`, {
      name: 'flexibleRollout',
      parameters: { rollout: '50', stickiness: 'default', groupId: 'seed-a' },
    });
    strategies = await store.strategies.list({ featureName: 'seed-a' });
  }
  let segments = await store.segments.list();
  if (segments.length === 0) {
    await ensure(s, 'POST', '/api/admin/segments', {
      name: 'seed-segment',
      constraints: [{ contextName: 'userId', operator: 'IN', values: ['a'] }],
    });
    segments = await store.segments.list();
  }
  await ensure(s, 'POST', '/api/admin/context', { name: 'region', legalValues: [{ value: 'eu' }] });
  await ensure(s, 'POST', '/api/admin/tag-types', { name: 'seed-type' });
  await ensure(s, 'POST', '/api/admin/features/seed-a/tags', { type: 'seed-type', value: 'seed-value' });
  if ((await store.addons.list()).length === 0)
    await ensure(s, 'POST', '/api/admin/addons', {
      provider: 'webhook',
      enabled: false,
      parameters: { url: 'http://127.0.0.1:9/never' },
      events: ['feature-created'],
    });
  if ((await store.signals.listEndpoints()).length === 0) {
    const endpoint = await ensure(s, 'POST', '/api/admin/signal-endpoints', { name: 'seed-endpoint' });
    await ensure(s, 'POST', `/api/admin/signal-endpoints/${endpoint.body.id}/tokens`, { name: 'seed' });
  }
  if ((await store.users.list()).length === 0) await s.user('Editor', 'seed-editor@example.com');
  if ((await store.groups.list()).length === 0)
    await ensure(s, 'POST', '/api/admin/groups', { name: 'seed-group', users: [] });
  const tokens = {
    admin: s.adminToken,
    client: await s.token('client'),
    frontend: await s.token('frontend'),
  };
  const victim = await s.token('client');
  const invite = await ensure(s, 'POST', '/api/admin/invite-link/tokens', {
    name: 'seed-invite',
    expiresAt: '2099-01-01T00:00:00.000Z',
  });

  const ids = (rows: { id: number }[]) => rows.map((r) => String(r.id));
  const endpoints = await store.signals.listEndpoints();
  const signalTokens = endpoints[0] ? await store.signals.listTokens(endpoints[0].id) : [];
  const numeric = [
    ...ids(segments),
    ...ids(await store.addons.list()),
    ...ids(endpoints),
    ...ids(await store.users.list()),
    ...ids(await store.groups.list()),
    ...ids(await store.signals.listActionSets()),
  ];
  const seed: SeedValues = {
    params: {
      projectId: ['default', 'fuzz-project'],
      featureName: ['seed-a', 'seed-b', 'seed-archived'],
      child: ['seed-child', 'seed-b'],
      parent: ['seed-a'],
      environment: ['development', 'production'],
      strategyId: strategies.map((st) => st.id),
      id: numeric,
      groupId: ids(await store.groups.list()),
      userId: ids(await store.users.list()),
      roleId: ['1', '2', '3', '4', '5'],
      tokenId: ids(signalTokens),
      actionSetId: ids(await store.signals.listActionSets()),
      endpointName: ['seed-endpoint'],
      name: ['region', 'seed-type', 'seed-a', 'simple'],
      contextField: ['region'],
      type: ['seed-type', 'simple'],
      value: ['seed-value'],
      token: [victim, typeof invite.body?.secret === 'string' ? invite.body.secret : 'none'],
    },
    words: [
      'default',
      'development',
      'production',
      'seed-a',
      'seed-b',
      'region',
      'seed-type',
      'userId',
      'IN',
    ],
  };
  return { seed, tokens };
}

const without = <T extends object>(rows: T[], ...keys: string[]) =>
  rows.map((row) => Object.fromEntries(Object.entries(row).filter(([k]) => !keys.includes(k))));

/**
 * Everything a request may change, read through the store. Left out: when tokens and users were
 * last seen, sessions and login throttles (a refused login is counted on purpose), metrics.
 */
export async function storeSnapshot(store: Store): Promise<string> {
  const features = await store.features.list();
  const endpoints = await store.signals.listEndpoints();
  const parts = {
    events: await store.events.latestId(),
    projects: await store.projects.list(),
    environments: await store.environments.list(),
    linked: await Promise.all(features.map((f) => store.commandReads.projectEnvironments(f.project))),
    features,
    featureEnvironments: await store.featureEnvironments.listForFeatures(features.map((f) => f.name)),
    strategies: await store.strategies.list({}),
    segments: await store.segments.list(),
    contextFields: await store.contextFields.list(),
    tagTypes: await store.tags.listTypes(),
    tags: await store.tags.listTags(),
    featureTags: await store.tags.listFeatureTags(),
    dependencies: await store.dependencies.list(),
    addons: await store.addons.list(),
    apiTokens: without(await store.apiTokens.list(), 'seenAt'),
    users: without(await store.users.list(), 'seenAt'),
    groups: await store.groups.list(),
    projectAccess: await store.projectAccess.list(),
    signupTokens: await store.signupTokens.list(),
    endpoints,
    signals: await Promise.all(endpoints.map((e) => store.signals.listSignals(e.id, 1000))),
    signalTokens: await Promise.all(endpoints.map((e) => store.signals.listTokens(e.id))),
    actionSets: await store.signals.listActionSets(),
  };
  return JSON.stringify(parts);
}
