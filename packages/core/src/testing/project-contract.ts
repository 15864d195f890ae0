import { describe, expect, test } from 'vitest';
import {
  at,
  contextField,
  environment,
  expectFailure,
  project,
  type StoreFactory,
  segment,
  user,
  useStore,
} from './fixtures.js';

/** Projects, environments and their links, segments and context fields. */
export function describeProjectContract(open: StoreFactory): void {
  describe('projects', () => {
    const store = useStore(open);

    test('what is inserted comes back, nulls and JSON included', async () => {
      const bare = project('alpha');
      const full = project('beta', {
        name: 'Beta',
        description: 'Über-project ✓',
        mode: 'protected',
        defaultStickiness: 'userId',
        featureLimit: 25,
        featureNaming: { pattern: '^beta-.*$', example: 'beta-one', description: 'beta prefix' },
        createdAt: at(5),
        updatedAt: at(6),
      });
      await store().projects.insert(bare);
      await store().projects.insert(full);
      expect(await store().projects.get('alpha')).toEqual(bare);
      expect(await store().projects.get('beta')).toEqual(full);
      expect(await store().projects.get('gamma')).toBeNull();
    });

    test('lists by name, then id', async () => {
      await store().projects.insert(project('c', { name: 'same' }));
      await store().projects.insert(project('a', { name: 'same' }));
      await store().projects.insert(project('b', { name: 'first' }));
      expect((await store().projects.list()).map((p) => p.id)).toEqual(['b', 'a', 'c']);
    });

    test('refuses a second project with the same id', async () => {
      await store().projects.insert(project('alpha', { name: 'original' }));
      await expectFailure(store().projects.insert(project('alpha', { name: 'copy' })), 'CONFLICT', 'alpha');
      expect((await store().projects.get('alpha'))?.name).toBe('original');
    });

    test('update replaces every field; an unknown id is false', async () => {
      await store().projects.insert(project('alpha', { description: 'old', featureLimit: 3 }));
      const changed = project('alpha', {
        name: 'Renamed',
        description: null,
        mode: 'private',
        featureLimit: null,
        updatedAt: at(9),
      });
      expect(await store().projects.update(changed)).toBe(true);
      expect(await store().projects.get('alpha')).toEqual(changed);
      expect(await store().projects.update(project('ghost'))).toBe(false);
      expect(await store().projects.get('ghost')).toBeNull();
    });

    test('delete removes the project with its environment links and role assignments', async () => {
      await store().projects.insert(project('alpha'));
      await store().projects.insert(project('beta'));
      await store().environments.insert(environment('development'));
      await store().environments.linkProject({
        projectId: 'alpha',
        environment: 'development',
        defaultStrategy: null,
      });
      await store().environments.linkProject({
        projectId: 'beta',
        environment: 'development',
        defaultStrategy: null,
      });
      const { id: userId } = await store().users.insert(user({ username: 'ann' }));
      await store().projectAccess.setRoles('alpha', { userId }, [4], at(1));
      await store().projectAccess.setRoles('beta', { userId }, [5], at(1));

      expect(await store().projects.delete('alpha')).toBe(true);
      expect(await store().projects.get('alpha')).toBeNull();
      expect(await store().environments.listForProject('alpha')).toEqual([]);
      expect(await store().environments.listProjectsFor('development')).toEqual(['beta']);
      expect(await store().projectAccess.list('alpha')).toEqual([]);
      expect((await store().projectAccess.list()).map((a) => a.projectId)).toEqual(['beta']);
      expect(await store().projects.delete('alpha')).toBe(false);
    });
  });

  describe('environments', () => {
    const store = useStore(open);

    test('what is inserted comes back', async () => {
      const env = environment('production', {
        type: 'production',
        enabled: false,
        protected: true,
        sortOrder: 7,
        createdAt: at(3),
      });
      await store().environments.insert(env);
      expect(await store().environments.get('production')).toEqual(env);
      expect(await store().environments.get('staging')).toBeNull();
    });

    test('lists by sortOrder, then name', async () => {
      await store().environments.insert(environment('zeta', { sortOrder: 1 }));
      await store().environments.insert(environment('beta', { sortOrder: 2 }));
      await store().environments.insert(environment('alpha', { sortOrder: 2 }));
      await store().environments.insert(environment('omega', { sortOrder: -1 }));
      expect((await store().environments.list()).map((e) => e.name)).toEqual([
        'omega',
        'zeta',
        'alpha',
        'beta',
      ]);
    });

    test('refuses a second environment with the same name', async () => {
      await store().environments.insert(environment('production'));
      await expectFailure(store().environments.insert(environment('production')), 'CONFLICT', 'production');
    });

    test('update replaces; delete removes; unknown names are false', async () => {
      await store().environments.insert(environment('production'));
      const changed = environment('production', { type: 'production', enabled: false, sortOrder: 9 });
      expect(await store().environments.update(changed)).toBe(true);
      expect(await store().environments.get('production')).toEqual(changed);
      expect(await store().environments.update(environment('ghost'))).toBe(false);
      expect(await store().environments.get('ghost')).toBeNull();
      expect(await store().environments.delete('production')).toBe(true);
      expect(await store().environments.get('production')).toBeNull();
      expect(await store().environments.delete('production')).toBe(false);
    });

    test('project links: ordered by environment sortOrder then name, replaced in place, unlinked', async () => {
      await store().projects.insert(project('alpha'));
      await store().projects.insert(project('beta'));
      await store().environments.insert(environment('zeta', { sortOrder: 1 }));
      await store().environments.insert(environment('prod', { sortOrder: 2 }));
      await store().environments.insert(environment('dev', { sortOrder: 2 }));
      const defaultStrategy = {
        name: 'flexibleRollout',
        title: null,
        disabled: false,
        sortOrder: 0,
        constraints: [
          {
            contextName: 'userId',
            operator: 'IN' as const,
            caseInsensitive: false,
            inverted: true,
            values: ['1'],
          },
        ],
        variants: [],
        parameters: { rollout: '50', stickiness: 'default', groupId: '' },
        segments: [],
      };
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

      expect(await store().environments.listForProject('alpha')).toEqual([
        { projectId: 'alpha', environment: 'zeta', defaultStrategy: null },
        { projectId: 'alpha', environment: 'dev', defaultStrategy: null },
        { projectId: 'alpha', environment: 'prod', defaultStrategy },
      ]);
      expect([...(await store().environments.listProjectsFor('prod'))].sort()).toEqual(['alpha', 'beta']);
      expect(await store().environments.listProjectsFor('zeta')).toEqual(['alpha']);

      await store().environments.linkProject({
        projectId: 'alpha',
        environment: 'prod',
        defaultStrategy: null,
      });
      const links = await store().environments.listForProject('alpha');
      expect(links).toHaveLength(3);
      expect(links.find((l) => l.environment === 'prod')?.defaultStrategy).toBeNull();

      expect(await store().environments.unlinkProject('alpha', 'prod')).toBe(true);
      expect(await store().environments.unlinkProject('alpha', 'prod')).toBe(false);
      expect(await store().environments.listProjectsFor('prod')).toEqual(['beta']);
      expect(await store().environments.listForProject('nobody')).toEqual([]);
    });
  });

  describe('segments', () => {
    const store = useStore(open);

    test('insert assigns increasing ids and keeps every field', async () => {
      const first = await store().segments.insert(segment('first'));
      await store().projects.insert(project('alpha'));
      const input = segment('second', {
        description: 'beta users',
        project: 'alpha',
        constraints: [
          {
            contextName: 'region',
            operator: 'IN',
            caseInsensitive: true,
            inverted: false,
            values: ['eu', 'us'],
          },
          {
            contextName: 'version',
            operator: 'SEMVER_GT',
            caseInsensitive: false,
            inverted: false,
            value: '1.2.3',
          },
        ],
        createdAt: at(4),
        createdBy: 'admin@example.com',
      });
      const second = await store().segments.insert(input);
      expect(second).toEqual({ ...input, id: second.id });
      expect(second.id).toBeGreaterThan(first.id);
      expect(await store().segments.get(second.id)).toEqual(second);
      expect(await store().segments.get(second.id + 1000)).toBeNull();
      expect((await store().segments.list()).map((s) => s.id)).toEqual([first.id, second.id]);
    });

    test('refuses a second segment with the same name', async () => {
      await store().segments.insert(segment('beta users'));
      await expectFailure(store().segments.insert(segment('beta users')), 'CONFLICT', 'beta users');
      expect(await store().segments.list()).toHaveLength(1);
    });

    test('update replaces; delete removes; unknown ids are false', async () => {
      const created = await store().segments.insert(segment('one'));
      const changed = { ...created, name: 'uno', description: 'renamed', constraints: [] };
      expect(await store().segments.update(changed)).toBe(true);
      expect(await store().segments.get(created.id)).toEqual(changed);
      expect(await store().segments.update({ ...changed, id: created.id + 1000 })).toBe(false);
      expect(await store().segments.delete(created.id)).toBe(true);
      expect(await store().segments.get(created.id)).toBeNull();
      expect(await store().segments.delete(created.id)).toBe(false);
    });
  });

  describe('context fields', () => {
    const store = useStore(open);

    test('what is inserted comes back', async () => {
      const field = contextField('region', {
        description: 'Where the user is',
        stickiness: true,
        sortOrder: 3,
        legalValues: [{ value: 'eu', description: 'Europe' }, { value: 'us' }],
      });
      await store().contextFields.insert(field);
      expect(await store().contextFields.get('region')).toEqual(field);
      expect(await store().contextFields.get('tenant')).toBeNull();
    });

    test('lists by sortOrder, then name', async () => {
      await store().contextFields.insert(contextField('zone', { sortOrder: 1 }));
      await store().contextFields.insert(contextField('region', { sortOrder: 5 }));
      await store().contextFields.insert(contextField('country', { sortOrder: 5 }));
      expect((await store().contextFields.list()).map((f) => f.name)).toEqual(['zone', 'country', 'region']);
    });

    test('refuses a duplicate; update replaces; delete removes', async () => {
      await store().contextFields.insert(contextField('region'));
      await expectFailure(store().contextFields.insert(contextField('region')), 'CONFLICT', 'region');
      const changed = contextField('region', { description: 'changed', legalValues: [{ value: 'apac' }] });
      expect(await store().contextFields.update(changed)).toBe(true);
      expect(await store().contextFields.get('region')).toEqual(changed);
      expect(await store().contextFields.update(contextField('ghost'))).toBe(false);
      expect(await store().contextFields.delete('region')).toBe(true);
      expect(await store().contextFields.delete('region')).toBe(false);
      expect(await store().contextFields.list()).toEqual([]);
    });
  });
}
