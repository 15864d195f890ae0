import { BUILT_IN_CONTEXT_FIELDS } from '../../domain/context-field.js';
import type { Environment } from '../../domain/environment.js';
import { nowIso, type ServiceDeps } from '../deps.js';

const BUILT_IN_DESCRIPTIONS: Record<string, string> = {
  appName: 'Allows you to constrain on application name',
  environment: 'Allows you to constrain on application environment',
  userId: 'Allows you to constrain on userId',
  sessionId: 'Allows you to constrain on sessionId',
  remoteAddress: 'Allows you to constrain on remote address',
  currentTime: 'Allows you to constrain on date values',
};

const DEFAULT_ENVIRONMENTS: Omit<Environment, 'createdAt'>[] = [
  { name: 'development', type: 'development', enabled: true, protected: false, sortOrder: 1 },
  { name: 'production', type: 'production', enabled: true, protected: false, sortOrder: 2 },
];

/**
 * Gives a new instance what the reference starts with: the development and production
 * environments, the `default` project using both, the built-in context fields and the `simple` tag type. It writes no events
 * (the reference's migrations don't either) and does nothing once any project exists.
 */
export async function seedInstance(deps: ServiceDeps): Promise<void> {
  await deps.store.transaction(async (tx) => {
    if ((await tx.projects.list()).length > 0 || (await tx.environments.list()).length > 0) return;
    const at = nowIso(deps);
    for (const env of DEFAULT_ENVIRONMENTS) await tx.environments.insert({ ...env, createdAt: at });
    await tx.projects.insert({
      id: 'default',
      name: 'Default',
      description: 'Default project',
      mode: 'open',
      defaultStickiness: 'default',
      featureLimit: null,
      featureNaming: { pattern: null, example: null, description: null },
      createdAt: at,
      updatedAt: at,
    });
    for (const env of DEFAULT_ENVIRONMENTS)
      await tx.environments.linkProject({
        projectId: 'default',
        environment: env.name,
        defaultStrategy: null,
      });
    for (const [i, name] of BUILT_IN_CONTEXT_FIELDS.entries())
      await tx.contextFields.insert({
        name,
        description: BUILT_IN_DESCRIPTIONS[name] ?? null,
        stickiness: false,
        sortOrder: i,
        legalValues: [],
        createdAt: at,
      });
    if (!(await tx.tags.getType('simple')))
      await tx.tags.insertType({
        name: 'simple',
        description: 'Used to simplify filtering of features',
        icon: '#',
      });
  });
}
