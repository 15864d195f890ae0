import { beforeEach, describe, expect, it } from 'vitest';
import type { Principal } from '../../auth/principal.js';
import { exportDocumentSchema, importDataSchema } from '../../domain/feature-export.js';
import type { Flagstaff } from '../../flagstaff.js';
import { alice, createTestFlagstaff } from '../test-support.js';
import { exportFeatures, parseTag } from './export-operations.js';

let flagstaff: Flagstaff;
let segmentId: number;
beforeEach(async () => {
  ({ flagstaff } = await createTestFlagstaff());
  await flagstaff.projects.create(alice, { id: 'shop', name: 'Shop' });
  await flagstaff.contextFields.create(alice, { name: 'region' });
  await flagstaff.contextFields.create(alice, { name: 'plan' });
  await flagstaff.contextFields.create(alice, { name: 'unused' });
  const segment = await flagstaff.segments.create(alice, {
    name: 'beta-testers',
    constraints: [{ contextName: 'plan', operator: 'IN', values: ['beta'] }],
  });
  await flagstaff.segments.create(alice, { name: 'other-segment' });
  segmentId = segment.id;
  await flagstaff.tags.createType(alice, { name: 'team' });
  await flagstaff.tags.createType(alice, { name: 'unused-type' });

  await flagstaff.features.create(alice, 'shop', {
    name: 'checkout',
    description: 'New checkout',
    impressionData: true,
  });
  await flagstaff.features.create(alice, 'shop', { name: 'basket', type: 'experiment' });
  await flagstaff.features.create(alice, 'default', { name: 'banner' });
  await flagstaff.strategies.add(
    alice,
    { project: 'shop', feature: 'checkout', environment: 'production' },
    {
      name: 'flexibleRollout',
      parameters: { rollout: '50', stickiness: 'default', groupId: 'checkout' },
      constraints: [{ contextName: 'region', operator: 'IN', values: ['eu'] }],
      segments: [segmentId],
    },
  );
  await flagstaff.strategies.add(
    alice,
    { project: 'shop', feature: 'checkout', environment: 'development' },
    {
      name: 'default',
      constraints: [{ contextName: 'unused', operator: 'IN', values: ['x'] }],
    },
  );
  await flagstaff.featureEnvironments.setEnabled(alice, 'shop', 'checkout', 'production', true);
  await flagstaff.featureEnvironments.setVariants(alice, 'shop', 'basket', 'production', [
    {
      name: 'blue',
      weight: 1000,
      stickiness: 'default',
      overrides: [{ contextName: 'userId', values: ['u1'] }],
    },
  ]);
  await flagstaff.tags.addFeatureTag(alice, 'checkout', { type: 'team', value: 'payments' });
  await flagstaff.tags.addFeatureTag(alice, 'basket', { type: 'simple', value: 'cart' });
  await flagstaff.dependencies.add(alice, 'shop', 'basket', { feature: 'checkout' });
});

describe('exporting features', () => {
  it('exports named features with their configuration in the export environment only', async () => {
    const result = await flagstaff.exports.export(alice, {
      environment: 'production',
      features: ['checkout', 'basket'],
      downloadFile: false,
    });
    expect(result.features).toEqual([
      {
        name: 'basket',
        type: 'experiment',
        description: null,
        project: 'shop',
        stale: false,
        impressionData: false,
        archived: false,
      },
      {
        name: 'checkout',
        type: 'release',
        description: 'New checkout',
        project: 'shop',
        stale: false,
        impressionData: true,
        archived: false,
      },
    ]);
    expect(result.featureStrategies).toHaveLength(1);
    expect(result.featureStrategies[0]).toMatchObject({
      featureName: 'checkout',
      name: 'flexibleRollout',
      parameters: { rollout: '50', stickiness: 'default', groupId: 'checkout' },
      segments: [segmentId],
    });
    expect(result.featureStrategies[0]).not.toHaveProperty('environment');
    expect(result.featureStrategies[0]).not.toHaveProperty('createdAt');
    expect(result.featureEnvironments).toEqual([
      {
        name: 'basket',
        featureName: 'basket',
        environment: 'production',
        enabled: false,
        variants: [expect.objectContaining({ name: 'blue', weight: 1000 })],
      },
      { name: 'checkout', featureName: 'checkout', environment: 'production', enabled: true, variants: [] },
    ]);
    // region: a constraint; userId: a variant override. Not "unused" (development only) nor "plan" (inside the segment).
    expect(result.contextFields.map((c) => c.name).sort()).toEqual(['region', 'userId']);
    expect(result.contextFields[0]).not.toHaveProperty('createdAt');
    expect(result.segments).toEqual([{ id: segmentId, name: 'beta-testers' }]);
    expect(result.featureTags).toEqual([
      { featureName: 'basket', tagType: 'simple', tagValue: 'cart' },
      { featureName: 'checkout', tagType: 'team', tagValue: 'payments' },
    ]);
    expect(result.tagTypes.map((t) => t.name).sort()).toEqual(['simple', 'team']);
    expect(result.dependencies).toEqual([
      { feature: 'basket', dependencies: [{ feature: 'checkout', enabled: true, variants: [] }] },
    ]);
  });

  it('answers exactly its document schema, which the import reads back (one document, two readings)', async () => {
    const document = await flagstaff.exports.export(alice, { environment: 'production', features: [] });
    expect(document.features.length).toBe(3);
    expect(exportDocumentSchema.safeParse(document).error).toBeUndefined();
    expect(exportDocumentSchema.safeParse({ ...document, leaked: 1 }).success).toBe(false);
    const read = importDataSchema.parse(document);
    expect(read.features.map((f) => f.name)).toEqual(document.features.map((f) => f.name));
    expect(read.featureStrategies[0]).toMatchObject({ name: 'flexibleRollout', segments: [segmentId] });
    // Read leniently: Unleash's properties we do not know are kept aside, lists and details may be missing.
    const unleash = importDataSchema.parse({
      features: [{ name: 'from-unleash', createdAt: '2024-01-01' }],
      featureStrategies: [
        { featureName: 'from-unleash', name: 'default', disabled: null, parameters: { rollout: 50 } },
      ],
    });
    expect(unleash).toMatchObject({ featureEnvironments: [], segments: [], dependencies: [] });
    expect(unleash.featureStrategies[0]).toMatchObject({ constraints: [], variants: [], segments: [] });
  });

  it('selects by tag, by project, or every live feature for an empty list', async () => {
    const names = async (input: object) =>
      (await flagstaff.exports.export(alice, { environment: 'development', ...input })).features.map(
        (f) => f.name,
      );
    expect(await names({ tag: 'team:payments' })).toEqual(['checkout']);
    expect(await names({ tag: 'cart' })).toEqual(['basket']);
    expect(await names({ tag: 'team:nobody' })).toEqual([]);
    expect(await names({ project: 'shop' })).toEqual(['basket', 'checkout']);
    expect(await names({ project: 'default' })).toEqual(['banner']);
    expect(await names({ features: [] })).toEqual(['banner', 'basket', 'checkout']);
    // A non-empty list wins over the project; the tag wins over both.
    expect(await names({ features: ['banner'], project: 'shop' })).toEqual(['banner']);
    expect(await names({ features: ['banner'], tag: 'cart' })).toEqual(['basket']);
    await flagstaff.features.archive(alice, 'shop', ['basket']);
    expect(await names({ project: 'shop' })).toEqual(['checkout']);
  });

  it('writes features-exported with a summary, not the export', async () => {
    await flagstaff.exports.export(alice, { environment: 'production', project: 'shop' });
    const [event] = await flagstaff.store.events.search({ type: 'features-exported' });
    expect(event).toMatchObject({
      createdBy: alice.actor.name,
      createdByUserId: alice.actor.userId,
      environment: 'production',
      project: 'shop',
      data: { environment: 'production', featureCount: 2, features: ['basket', 'checkout'] },
    });
    expect(JSON.stringify(event!.data)).not.toContain('flexibleRollout');
  });

  it('fails with NOT_FOUND for an unknown environment, project or feature names, exporting nothing', async () => {
    await expect(
      flagstaff.exports.export(alice, { environment: 'staging', features: [] }),
    ).rejects.toMatchObject({
      code: 'NOT_FOUND',
      message: expect.stringContaining('"staging"'),
    });
    await expect(
      flagstaff.exports.export(alice, { environment: 'production', project: 'nope' }),
    ).rejects.toMatchObject({
      code: 'NOT_FOUND',
      message: expect.stringContaining('"nope"'),
    });
    const err = await flagstaff.exports
      .export(alice, { environment: 'production', features: ['checkout', 'ghost', 'phantom'] })
      .catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'NOT_FOUND', message: 'Could not find features "ghost", "phantom".' });
    expect(await flagstaff.store.events.search({ type: 'features-exported' })).toEqual([]);
  });

  it('rejects a body without environment or selection, naming the property', async () => {
    await expect(flagstaff.run.unknown(exportFeatures, alice, { features: [] })).rejects.toMatchObject({
      code: 'VALIDATION',
      message: expect.stringContaining('"environment"'),
    });
    await expect(flagstaff.exports.export(alice, { environment: 'production' })).rejects.toMatchObject({
      code: 'VALIDATION',
      message: expect.stringContaining('"features"'),
    });
    await expect(
      flagstaff.run.unknown(exportFeatures, alice, { environment: 'production', features: 'checkout' }),
    ).rejects.toMatchObject({ code: 'VALIDATION' });
  });

  it('parses tags as type:value or a simple value', () => {
    expect(parseTag('team:payments')).toEqual({ type: 'team', value: 'payments' });
    expect(parseTag('cart')).toEqual({ type: 'simple', value: 'cart' });
    expect(parseTag('a:b:c')).toEqual({ type: 'a', value: 'b:c' });
  });
});

describe('exporting with private projects', () => {
  /** A user principal with a root role, a member of `shop` when asked. */
  const userPrincipal = async (email: string, rootRole: 'Admin' | 'Editor', member = false) => {
    const user = await flagstaff.users.create(alice, { email, rootRole });
    if (member) await flagstaff.users.setUserProjectRoles(alice, 'shop', user.id, [5]);
    return (await flagstaff.access.userPrincipal(user.id))!;
  };

  it('leaves hidden features out of tag and full exports; naming one, or its project, is NOT_FOUND', async () => {
    await flagstaff.projects.update(alice, 'shop', { mode: 'private' });
    const editor = await userPrincipal('ed@example.com', 'Editor');
    const names = async (input: object, viewer: Principal | undefined = editor) =>
      (
        await flagstaff.exports.export(
          { principal: viewer, actor: alice.actor },
          { environment: 'production', ...input },
        )
      ).features.map((f) => f.name);
    expect(await names({ features: [] })).toEqual(['banner']);
    expect(await names({ tag: 'team:payments' })).toEqual([]);
    expect(await names({ project: 'default' })).toEqual(['banner']);
    await expect(names({ project: 'shop' })).rejects.toMatchObject({
      code: 'NOT_FOUND',
      message: 'Could not find project "shop".',
    });
    await expect(names({ features: ['banner', 'checkout'] })).rejects.toMatchObject({
      code: 'NOT_FOUND',
      message: 'Could not find feature "checkout".',
    });
    // What the editor exported is all the log says they exported.
    const [last] = await flagstaff.store.events.search({ type: 'features-exported', limit: 1 });
    expect(last?.data).toMatchObject({ featureCount: 1, features: ['banner'] });

    const member = await userPrincipal('mem@example.com', 'Editor', true);
    const admin = await userPrincipal('root@example.com', 'Admin');
    for (const viewer of [member, admin]) {
      expect(await names({ features: [] }, viewer)).toEqual(['banner', 'basket', 'checkout']);
      expect(await names({ project: 'shop' }, viewer)).toEqual(['basket', 'checkout']);
    }
    // In-process calls (no viewer) export everything.
    expect(
      (await flagstaff.exports.export(alice, { environment: 'production', features: [] })).features,
    ).toHaveLength(3);
  });
});
