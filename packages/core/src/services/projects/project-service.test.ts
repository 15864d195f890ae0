import { beforeEach, describe, expect, it } from 'vitest';
import { callerOf, SYSTEM } from '../../auth/caller.js';
import type { Flagstaff } from '../../flagstaff.js';
import { alice, createTestFlagstaff, eventTypesSince } from '../test-support.js';

let flagstaff: Flagstaff;
beforeEach(async () => {
  ({ flagstaff } = await createTestFlagstaff());
});

describe('a new instance', () => {
  it('has the default project on development and production, built-in context fields and the simple tag type, and no events', async () => {
    expect((await flagstaff.projects.list(SYSTEM)).map((p) => p.id)).toEqual(['default']);
    expect((await flagstaff.store.environments.listForProject('default')).map((l) => l.environment)).toEqual([
      'development',
      'production',
    ]);
    expect((await flagstaff.contextFields.list(alice)).map((f) => f.name)).toContain('userId');
    expect((await flagstaff.tags.listTypes(alice)).map((t) => t.name)).toEqual(['simple']);
    expect(await flagstaff.store.events.latestId()).toBe(0);
  });
});

describe('projects and environments', () => {
  it('creates, updates and deletes projects with events; refuses duplicates and non-empty deletes', async () => {
    await flagstaff.projects.create(alice, { id: 'p1', name: 'P1', mode: 'protected' });
    await expect(flagstaff.projects.create(alice, { id: 'p1', name: 'again' })).rejects.toMatchObject({
      code: 'CONFLICT',
    });
    const updated = await flagstaff.projects.update(alice, 'p1', {
      description: 'changed',
      featureLimit: 10,
    });
    expect(updated).toMatchObject({
      name: 'P1',
      mode: 'protected',
      description: 'changed',
      featureLimit: 10,
    });
    await flagstaff.features.create(alice, 'p1', { name: 'live-one' });
    await expect(flagstaff.projects.delete(alice, 'p1')).rejects.toMatchObject({ code: 'CONFLICT' });
    await flagstaff.features.archive(alice, 'p1', ['live-one']);
    await flagstaff.projects.delete(alice, 'p1');
    expect(await flagstaff.store.projects.get('p1')).toBeNull();
    expect(await flagstaff.store.features.get('live-one')).toBeNull();
    const types = await eventTypesSince(flagstaff);
    expect(types.filter((t) => t.startsWith('project-'))).toEqual([
      'project-created',
      'project-updated',
      'project-deleted',
    ]);
  });

  it('rejects an invalid naming pattern and an example that does not match', async () => {
    await expect(
      flagstaff.projects.create(alice, { id: 'p', name: 'P', featureNaming: { pattern: '[a-' } }),
    ).rejects.toMatchObject({
      message: expect.stringContaining('"featureNaming.pattern"'),
    });
    await expect(
      flagstaff.projects.create(alice, {
        id: 'p',
        name: 'P',
        featureNaming: { pattern: 'a+', example: 'b' },
      }),
    ).rejects.toMatchObject({
      message: expect.stringContaining('"featureNaming.example"'),
    });
  });

  it('links and unlinks environments, keeping at least one', async () => {
    await flagstaff.environments.create(alice, { name: 'staging', type: 'preproduction' });
    await flagstaff.projects.create(alice, { id: 'p2', name: 'P2', environments: ['development'] });
    await flagstaff.projects.addEnvironment(alice, 'p2', 'staging');
    await expect(flagstaff.projects.addEnvironment(alice, 'p2', 'staging')).rejects.toMatchObject({
      code: 'CONFLICT',
    });
    await flagstaff.projects.removeEnvironment(alice, 'p2', 'development');
    await expect(flagstaff.projects.removeEnvironment(alice, 'p2', 'staging')).rejects.toMatchObject({
      code: 'CONFLICT',
    });
    expect((await flagstaff.store.environments.listForProject('p2')).map((l) => l.environment)).toEqual([
      'staging',
    ]);
  });

  it('manages environments with events and refuses a duplicate', async () => {
    const start = await flagstaff.store.events.latestId();
    const env = await flagstaff.environments.create(alice, { name: 'qa', type: 'test' });
    expect(env.sortOrder).toBe(3);
    await expect(flagstaff.environments.create(alice, { name: 'qa', type: 'test' })).rejects.toMatchObject({
      code: 'CONFLICT',
    });
    await flagstaff.environments.update(alice, 'qa', { sortOrder: 9 });
    await flagstaff.environments.setEnabled(alice, 'qa', false);
    await flagstaff.environments.delete(alice, 'qa');
    expect(await eventTypesSince(flagstaff, start)).toEqual([
      'environment-created',
      'environment-updated',
      'environment-updated',
      'environment-deleted',
    ]);
  });
});

describe('dependencies', () => {
  beforeEach(async () => {
    for (const name of ['parent', 'child', 'grandchild'])
      await flagstaff.features.create(alice, 'default', { name });
  });

  it('adds, lists and removes parents with events', async () => {
    const start = await flagstaff.store.events.latestId();
    await flagstaff.dependencies.add(alice, 'default', 'child', { feature: 'parent', variants: ['blue'] });
    expect(await flagstaff.dependencies.list(alice, 'default', 'child')).toEqual([
      { feature: 'parent', enabled: true, variants: ['blue'] },
    ]);
    expect((await flagstaff.features.get(alice, 'default', 'parent')).children).toEqual(['child']);
    await flagstaff.dependencies.remove(alice, 'default', 'child', 'parent');
    await flagstaff.dependencies.add(alice, 'default', 'child', { feature: 'parent', enabled: false });
    await flagstaff.dependencies.removeAll(alice, 'default', 'child');
    expect(await eventTypesSince(flagstaff, start)).toEqual([
      'feature-dependency-added',
      'feature-dependency-removed',
      'feature-dependency-added',
      'feature-dependencies-removed',
    ]);
  });

  it('refuses cycles, unknown parents and variants on a disabled dependency', async () => {
    await flagstaff.dependencies.add(alice, 'default', 'child', { feature: 'parent' });
    await flagstaff.dependencies.add(alice, 'default', 'grandchild', { feature: 'child' });
    await expect(
      flagstaff.dependencies.add(alice, 'default', 'parent', { feature: 'grandchild' }),
    ).rejects.toMatchObject({ message: expect.stringContaining('cycle') });
    await expect(
      flagstaff.dependencies.add(alice, 'default', 'child', { feature: 'child' }),
    ).rejects.toMatchObject({ code: 'VALIDATION' });
    await expect(
      flagstaff.dependencies.add(alice, 'default', 'child', { feature: 'ghost' }),
    ).rejects.toMatchObject({ code: 'NOT_FOUND', message: 'Could not find feature "ghost".' });
    await expect(
      flagstaff.dependencies.add(alice, 'default', 'child', {
        feature: 'parent',
        enabled: false,
        variants: ['x'],
      }),
    ).rejects.toMatchObject({
      message: expect.stringContaining('"variants"'),
    });
  });
});

describe('segments, context fields and tags', () => {
  it('refuses deleting a segment in use and reports where it is used', async () => {
    await flagstaff.features.create(alice, 'default', { name: 'f' });
    const seg = await flagstaff.segments.create(alice, {
      name: 'beta',
      constraints: [{ contextName: 'userId', operator: 'IN', values: ['1'] }],
    });
    await expect(flagstaff.segments.create(alice, { name: 'beta' })).rejects.toMatchObject({
      code: 'CONFLICT',
    });
    const s = await flagstaff.strategies.add(
      alice,
      { project: 'default', feature: 'f', environment: 'development' },
      { name: 'default', segments: [seg.id] },
    );
    expect(await flagstaff.segments.strategiesUsing(SYSTEM, seg.id)).toEqual({
      strategies: [
        {
          id: s.id,
          featureName: 'f',
          projectId: 'default',
          environment: 'development',
          strategyName: 'default',
        },
      ],
      changeRequestStrategies: [],
    });
    await expect(flagstaff.segments.delete(alice, seg.id)).rejects.toMatchObject({ code: 'CONFLICT' });
    const updated = await flagstaff.segments.update(alice, seg.id, { name: 'beta-2', constraints: [] });
    expect(updated).toMatchObject({ id: seg.id, name: 'beta-2', constraints: [] });
  });

  it('manages context fields with events', async () => {
    const start = await flagstaff.store.events.latestId();
    await flagstaff.contextFields.create(alice, { name: 'tenant', legalValues: [{ value: 'acme' }] });
    await expect(flagstaff.contextFields.create(alice, { name: 'tenant' })).rejects.toMatchObject({
      code: 'CONFLICT',
    });
    expect(await flagstaff.contextFields.update(alice, 'tenant', { stickiness: true })).toMatchObject({
      stickiness: true,
      legalValues: [{ value: 'acme' }],
    });
    await flagstaff.contextFields.delete(alice, 'tenant');
    expect(await eventTypesSince(flagstaff, start)).toEqual([
      'context-field-created',
      'context-field-updated',
      'context-field-deleted',
    ]);
  });

  it('tags features, creating tags once, and bulk-tags a project', async () => {
    await flagstaff.features.create(alice, 'default', { name: 'a' });
    await flagstaff.features.create(alice, 'default', { name: 'b' });
    const start = await flagstaff.store.events.latestId();
    await flagstaff.tags.addFeatureTag(alice, 'a', { type: 'simple', value: 'team-x' });
    await flagstaff.tags.bulkTag(alice, 'default', {
      features: ['a', 'b'],
      tags: { addedTags: [{ type: 'simple', value: 'team-x' }], removedTags: [] },
    });
    await flagstaff.tags.removeFeatureTag(alice, 'a', { type: 'simple', value: 'team-x' });
    expect(await eventTypesSince(flagstaff, start)).toEqual([
      'tag-created',
      'feature-tagged',
      'feature-tagged',
      'feature-untagged',
    ]);
    expect(await flagstaff.tags.featuresWithTag(alice, { type: 'simple', value: 'team-x' })).toEqual(['b']);
    await expect(
      flagstaff.tags.addFeatureTag(alice, 'a', { type: 'nope', value: 'xx' }),
    ).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});

describe('private projects and id validation', () => {
  it('lists private projects only to viewers who may see them; no viewer sees all', async () => {
    await flagstaff.projects.create(alice, { id: 'secret', name: 'Secret', mode: 'private' });
    const editor = await flagstaff.users.create(alice, { email: 'ed@example.com', rootRole: 'Editor' });
    const principal = (await flagstaff.access.userPrincipal(editor.id))!;
    expect((await flagstaff.projects.list(callerOf(principal))).map((p) => p.id)).toEqual(['default']);
    expect((await flagstaff.projects.list(SYSTEM)).map((p) => p.id).sort()).toEqual(['default', 'secret']);
    await flagstaff.users.setUserProjectRoles(alice, 'secret', editor.id, [5]);
    expect((await flagstaff.projects.list(callerOf(principal))).map((p) => p.id).sort()).toEqual([
      'default',
      'secret',
    ]);
  });

  it('validateId: VALIDATION for an id create refuses, CONFLICT for a taken one, and writes nothing', async () => {
    await flagstaff.projects.validateId(alice, { id: 'fresh' });
    await expect(flagstaff.projects.validateId(alice, { id: 'default' })).rejects.toMatchObject({
      code: 'CONFLICT',
    });
    await expect(flagstaff.projects.validateId(alice, { id: 'no spaces' })).rejects.toMatchObject({
      code: 'VALIDATION',
      message: expect.stringContaining('"id"'),
    });
    expect((await flagstaff.projects.list(SYSTEM)).map((p) => p.id)).toEqual(['default']);
    expect(await flagstaff.store.events.latestId()).toBe(0);
  });
});

describe('validating segment, context field and tag type names', () => {
  it('answers as create would: CONFLICT for taken names, VALIDATION for refused ones, nothing written', async () => {
    await flagstaff.segments.validateName(alice, { name: 'beta' });
    await flagstaff.contextFields.validateName(alice, { name: 'tenant' });
    expect(await flagstaff.tags.validateType(alice, { name: 'team' })).toEqual({
      valid: true,
      tagType: { name: 'team', description: null, icon: null },
    });
    expect(await flagstaff.store.events.latestId()).toBe(0);
    await flagstaff.segments.create(alice, { name: 'beta' });
    await expect(flagstaff.segments.validateName(alice, { name: 'beta' })).rejects.toMatchObject({
      code: 'CONFLICT',
    });
    await expect(flagstaff.segments.validateName(alice, { name: '' })).rejects.toMatchObject({
      code: 'VALIDATION',
    });
    await expect(flagstaff.contextFields.validateName(alice, { name: 'userId' })).rejects.toMatchObject({
      code: 'CONFLICT',
    });
    await expect(flagstaff.contextFields.validateName(alice, { name: 'a b' })).rejects.toMatchObject({
      code: 'VALIDATION',
    });
    await expect(flagstaff.tags.validateType(alice, { name: 'simple' })).rejects.toMatchObject({
      code: 'CONFLICT',
    });
    await expect(flagstaff.tags.validateType(alice, { name: 'x' })).rejects.toMatchObject({
      code: 'VALIDATION',
    });
  });

  it('strategiesUsing leaves out strategies in private projects the viewer may not see', async () => {
    await flagstaff.projects.create(alice, { id: 'secret', name: 'Secret', mode: 'private' });
    await flagstaff.features.create(alice, 'secret', { name: 'hidden' });
    const seg = await flagstaff.segments.create(alice, { name: 'beta' });
    await flagstaff.strategies.add(
      alice,
      { project: 'secret', feature: 'hidden', environment: 'development' },
      { name: 'default', segments: [seg.id] },
    );
    const viewer = await flagstaff.users.create(alice, { email: 'v@example.com', rootRole: 'Viewer' });
    const principal = (await flagstaff.access.userPrincipal(viewer.id))!;
    expect((await flagstaff.segments.strategiesUsing(callerOf(principal), seg.id)).strategies).toEqual([]);
    expect(
      (await flagstaff.segments.strategiesUsing(SYSTEM, seg.id)).strategies.map((s) => s.featureName),
    ).toEqual(['hidden']);
  });
});
