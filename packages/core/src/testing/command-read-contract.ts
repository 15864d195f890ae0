import { describe, expect, test } from 'vitest';
import type { DefaultStrategy } from '../domain/strategy.js';
import { environment, feature, project, type StoreFactory, useStore } from './fixtures.js';

const defaultStrategy: DefaultStrategy = {
  name: 'flexibleRollout',
  title: null,
  disabled: false,
  sortOrder: 0,
  constraints: [],
  variants: [],
  parameters: { rollout: '50', stickiness: 'default', groupId: '' },
  segments: [],
};

/** The write side's read models: what commands read before they write, each in one read. */
export function describeCommandReadContract(open: StoreFactory): void {
  describe('command reads', () => {
    const store = useStore(open);

    /** alpha uses prod (with a default strategy), zeta and dev; beta uses prod only. */
    async function seed(): Promise<void> {
      await store().projects.insert(project('alpha'));
      await store().projects.insert(project('beta'));
      await store().environments.insert(environment('prod', { type: 'production', sortOrder: 2 }));
      await store().environments.insert(environment('dev', { sortOrder: 1 }));
      await store().environments.insert(environment('zeta', { sortOrder: 1 }));
      await store().environments.linkProject({ projectId: 'alpha', environment: 'prod', defaultStrategy });
      await store().environments.linkProject({
        projectId: 'alpha',
        environment: 'zeta',
        defaultStrategy: null,
      });
      await store().environments.linkProject({
        projectId: 'alpha',
        environment: 'dev',
        defaultStrategy: null,
      });
      await store().environments.linkProject({
        projectId: 'beta',
        environment: 'prod',
        defaultStrategy: null,
      });
      await store().tags.insertType({ name: 'simple', description: null, icon: null });
      await store().tags.insertType({ name: 'team', description: null, icon: null });
      await store().features.insert(feature('checkout', 'alpha'));
      await store().features.insert(feature('banner', 'beta', { archivedAt: '2026-01-02T00:00:00.000Z' }));
      for (const tag of [
        { type: 'team', value: 'payments' },
        { type: 'simple', value: 'zeta' },
        { type: 'simple', value: 'beta' },
      ]) {
        await store().tags.ensureTag(tag);
        await store().tags.addFeatureTag('checkout', tag);
      }
    }
    const checkoutTags = [
      { type: 'simple', value: 'beta' },
      { type: 'simple', value: 'zeta' },
      { type: 'team', value: 'payments' },
    ];

    test('feature: the feature and its tags by type then value, archived too; null when unknown', async () => {
      await seed();
      expect(await store().commandReads.feature('checkout')).toEqual({
        feature: await store().features.get('checkout'),
        tags: checkoutTags,
      });
      expect(await store().commandReads.feature('banner')).toEqual({
        feature: await store().features.get('banner'),
        tags: [],
      });
      expect(await store().commandReads.feature('nobody')).toBeNull();
    });

    test('featureInEnvironment: also the project link to the environment, null when the project does not use it', async () => {
      await seed();
      expect(await store().commandReads.featureInEnvironment('checkout', 'prod')).toEqual({
        feature: await store().features.get('checkout'),
        tags: checkoutTags,
        linked: {
          environment: await store().environments.get('prod'),
          link: { projectId: 'alpha', environment: 'prod', defaultStrategy },
        },
      });
      expect(await store().commandReads.featureInEnvironment('banner', 'prod')).toEqual({
        feature: await store().features.get('banner'),
        tags: [],
        linked: {
          environment: await store().environments.get('prod'),
          link: { projectId: 'beta', environment: 'prod', defaultStrategy: null },
        },
      });
      const unlinked = await store().commandReads.featureInEnvironment('banner', 'dev');
      expect(unlinked).toMatchObject({ tags: [], linked: null });
      expect(unlinked?.feature.name).toBe('banner');
      expect((await store().commandReads.featureInEnvironment('checkout', 'nowhere'))?.linked).toBeNull();
      expect(await store().commandReads.featureInEnvironment('nobody', 'prod')).toBeNull();
    });

    test('projectEnvironment and projectEnvironments: the environment with the link, by sortOrder then name', async () => {
      await seed();
      const linked = async (projectId: string, name: string) => ({
        environment: await store().environments.get(name),
        link: (await store().environments.listForProject(projectId)).find((l) => l.environment === name),
      });
      expect(await store().commandReads.projectEnvironment('alpha', 'prod')).toEqual(
        await linked('alpha', 'prod'),
      );
      expect(await store().commandReads.projectEnvironment('beta', 'dev')).toBeNull();
      expect(await store().commandReads.projectEnvironment('alpha', 'nowhere')).toBeNull();
      expect(await store().commandReads.projectEnvironment('nobody', 'prod')).toBeNull();
      expect(await store().commandReads.projectEnvironments('alpha')).toEqual([
        await linked('alpha', 'dev'),
        await linked('alpha', 'zeta'),
        await linked('alpha', 'prod'),
      ]);
      expect(await store().commandReads.projectEnvironments('beta')).toEqual([await linked('beta', 'prod')]);
      expect(await store().commandReads.projectEnvironments('nobody')).toEqual([]);
    });
  });
}
