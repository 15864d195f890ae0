import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type As, as, expectHidden } from '../testing/as-user.js';
import { createFeature } from '../testing/fixtures.js';
import { type HttpResult, startTestServer, type TestServer } from '../testing/harness.js';

/**
 * Read views beyond the project routes keep private projects from non-members: the event log and
 * its search, export, the playground, instance insights, token creation. Project "vault" is
 * private; "editor" is an Editor with no role in it, "member" an Editor with a role in it.
 */
let s: TestServer;
let editor: As;
let member: As;
let admin: As;

const projectsOf = (res: HttpResult): Set<string | null> =>
  new Set((res.body.events as { project: string | null }[]).map((e) => e.project));
const names = (list: { name: string }[]): string[] => list.map((f) => f.name).sort();

beforeAll(async () => {
  s = await startTestServer();
  editor = as(await s.user('Editor'));
  admin = as(await s.user('Admin'));
  const memberId = await s.user('Editor');
  member = as(memberId);
  const project = await s.request('POST', '/api/admin/projects', {
    body: { id: 'vault', name: 'Vault', mode: 'private' },
  });
  expect(project.status, project.text).toBe(201);
  const role = await s.request('PUT', `/api/admin/projects/vault/users/${memberId}/roles`, {
    body: { roles: [5] },
  });
  expect(role.status, role.text).toBe(200);
  await createFeature(s, 'open-f', 'default', { description: 'Rollout plans' });
  // The newest events are the vault's, so a page cut before leaving them out would come back short.
  await createFeature(s, 'vault-f', 'vault', { description: 'Rollout codes' });
  for (const name of ['vault-g', 'vault-h', 'vault-i'])
    await createFeature(s, name, 'vault', { description: 'Rollout codes' });
});
afterAll(() => s.close());

describe('event log and search', () => {
  it('GET /events leaves hidden projects out for non-members; a named hidden project has no events', async () => {
    const recent = await s.request('GET', '/api/admin/events', editor);
    expect(recent.status, recent.text).toBe(200);
    expect(projectsOf(recent)).not.toContain('vault');
    // Events without a project (users, the project's own role change excluded) stay visible.
    expect(projectsOf(recent)).toContain(null);
    expect(projectsOf(await s.request('GET', '/api/admin/events', member))).toContain('vault');
    expect((await s.request('GET', '/api/admin/events?project=vault', editor)).body.events).toEqual([]);
    expect(
      (await s.request('GET', '/api/admin/events?project=vault', admin)).body.events.length,
    ).toBeGreaterThan(4);
    expect(
      (await s.request('GET', '/api/admin/events?project=default', editor)).body.events.length,
    ).toBeGreaterThan(0);
  });

  it('POST /events/search returns full pages and a totalEvents that counts only what may be listed', async () => {
    const search = (body: object, who?: As) =>
      s.request('POST', '/api/admin/events/search', { body, ...who });
    const full = await search({}, editor);
    expect(full.status, full.text).toBe(200);
    expect(projectsOf(full)).not.toContain('vault');
    expect(full.body.totalEvents).toBe(full.body.events.length);
    const page = await search({ limit: 2 }, editor);
    expect(page.body.events).toHaveLength(2);
    expect(page.body.totalEvents).toBe(full.body.totalEvents);
    const all = await search({});
    expect(all.body.totalEvents).toBeGreaterThan(full.body.totalEvents);
    expect((await search({}, member)).body.totalEvents).toBe(all.body.totalEvents);

    expect((await search({ query: 'codes' }, editor)).body).toEqual({
      version: 1,
      events: [],
      totalEvents: 0,
    });
    expect((await search({ query: 'codes' }, admin)).body.totalEvents).toBe(4);
    const rollout = await search({ query: 'rollout', limit: 1 }, editor);
    expect(rollout.body.events.map((e: { featureName: string }) => e.featureName)).toEqual(['open-f']);
    expect(rollout.body.totalEvents).toBe(1);
    expect((await search({ project: 'vault' }, editor)).body.totalEvents).toBe(0);
    expect((await search({ feature: 'vault-f' }, editor)).body.totalEvents).toBe(0);
    expect((await search({ feature: 'vault-f' }, member)).body.totalEvents).toBe(1);
  });

  it('GET /events/:featureName has nothing for a feature of a hidden project', async () => {
    expect((await s.request('GET', '/api/admin/events/vault-f', editor)).body).toEqual({
      version: 1,
      toggleName: 'vault-f',
      events: [],
      totalEvents: 0,
    });
    expect((await s.request('GET', '/api/admin/events/vault-f', member)).body.totalEvents).toBe(1);
    expect((await s.request('GET', '/api/admin/events/vault-f')).body.totalEvents).toBe(1);
    expect((await s.request('GET', '/api/admin/events/open-f', editor)).body.totalEvents).toBe(1);
  });
});

describe('export and playground', () => {
  const exportAs = (body: object, who?: As) =>
    s.request('POST', '/api/admin/features-batch/export', {
      body: { environment: 'development', ...body },
      ...who,
    });

  it('export leaves hidden features out and answers 404 for a hidden project or feature', async () => {
    const everything = await exportAs({ features: [] }, editor);
    expect(everything.status, everything.text).toBe(200);
    expect(names(everything.body.features)).toEqual(['open-f']);
    expectHidden(await exportAs({ project: 'vault' }, editor), 'project "vault"');
    expectHidden(await exportAs({ project: 'nope' }, editor), 'project "nope"');
    expectHidden(await exportAs({ features: ['vault-f'] }, editor), 'feature "vault-f"');
    expect(names((await exportAs({ project: 'vault' }, member)).body.features)).toEqual([
      'vault-f',
      'vault-g',
      'vault-h',
      'vault-i',
    ]);
    expect(names((await exportAs({ features: [] }, admin)).body.features)).toHaveLength(5);
    expect(names((await exportAs({ features: [] })).body.features)).toHaveLength(5);
  });

  it('the playground evaluates only visible projects; a hidden project evaluates like an unknown one', async () => {
    const play = (projects: string[] | '*', who?: As) =>
      s.request('POST', '/api/admin/playground', {
        body: { environment: 'development', projects, context: { appName: 'web' } },
        ...who,
      });
    const visible = await play('*', editor);
    expect(visible.status, visible.text).toBe(200);
    expect(names(visible.body.features)).toEqual(['open-f']);
    expect((await play(['vault'], editor)).body.features).toEqual([]);
    expect((await play(['vault'], editor)).body.features).toEqual(
      (await play(['nope'], editor)).body.features,
    );
    expect(names((await play(['vault'], member)).body.features)).toEqual([
      'vault-f',
      'vault-g',
      'vault-h',
      'vault-i',
    ]);
    expect(names((await play('*', admin)).body.features)).toHaveLength(5);
  });
});

describe('project views and instance insights', () => {
  it('project-scoped views (overview, DORA, dependencies, environments) answer 404 like an unknown project', async () => {
    for (const path of [
      '/api/admin/projects/vault/overview',
      '/api/admin/projects/vault/dora',
      '/api/admin/projects/vault/dependencies',
      '/api/admin/environments/project/vault',
    ]) {
      expectHidden(await s.request('GET', path, editor), 'project "vault"');
      expect((await s.request('GET', path, member)).status).toBe(200);
    }
  });

  it('F16: instance insights count no hidden flag and list no hidden project by name', async () => {
    for (const path of ['/api/admin/insights', '/api/admin/dashboard/executive']) {
      const seen = await s.request('GET', path, editor);
      expect(seen.status, seen.text).toBe(200);
      expect(seen.text).not.toContain('vault');
      const rows = seen.body.projectFlagTrends as { project: string }[];
      expect(rows.some((r) => r.project === 'default')).toBe(true);
      const full = await s.request('GET', path, admin);
      expect(full.body.projectFlagTrends.some((r: { project: string }) => r.project === 'vault')).toBe(true);
      expect(full.body.flags.total).toBe(5);
      const hiddenLive = full.body.projectFlagTrends
        .filter((r: { project: string }) => r.project === 'vault')
        .at(-1).total;
      expect(hiddenLive).toBeGreaterThan(0);
      expect(seen.body.flags.total).toBe(5 - hiddenLive);
      expect(seen.body.flagTrends.at(-1).total).toBe(full.body.flagTrends.at(-1).total - hiddenLive);
    }
  });
});

describe('API token creation', () => {
  const create = (projects: string[], who?: As, type = 'client') =>
    s.request('POST', '/api/admin/api-tokens', {
      body: { tokenName: 'scoped', type, environment: 'development', projects },
      ...who,
    });

  it('scoping a client or frontend token to a hidden project is 404 for the project, as an unknown one', async () => {
    for (const type of ['client', 'frontend']) {
      expectHidden(await create(['vault'], editor, type), 'project "vault"');
      expectHidden(await create(['default', 'vault'], editor, type), 'project "vault"');
    }
    expectHidden(await create(['nope'], editor), 'project "nope"');
    const listed = await s.request('GET', '/api/admin/api-tokens');
    expect(listed.body.tokens.filter((t: { tokenName: string }) => t.tokenName === 'scoped')).toEqual([]);
    for (const who of [member, admin, undefined]) {
      const created = await create(['vault'], who);
      expect(created.status, created.text).toBe(201);
      expect(created.body.projects).toEqual(['vault']);
    }
    expect((await create(['default'], editor)).status).toBe(201);
  });
});
