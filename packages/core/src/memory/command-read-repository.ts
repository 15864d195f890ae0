import type { CommandReadRepository, FeatureWithTags } from '../ports/command-read-ports.js';
import type { LinkedEnvironment } from '../ports/project-ports.js';
import { copy } from './copy.js';
import type { Session } from './database.js';
import { by, compare, keyOf, type Sync, sorted } from './support.js';
import { tagOrder } from './tag-repository.js';

const environmentOrder = by<LinkedEnvironment>(
  (a, b) => compare(a.environment.sortOrder, b.environment.sortOrder),
  (a, b) => compare(a.environment.name, b.environment.name),
);

/** The write side's read models over a session. */
export function createCommandReadRepository(s: Session): Sync<CommandReadRepository> {
  const environments = s.table('environments');
  const links = s.table('projectEnvironments');

  const linked = (projectId: string, environment: string): LinkedEnvironment | null => {
    const link = links.get(keyOf(projectId, environment));
    const env = environments.get(environment);
    return link && env ? { environment: copy(env), link: copy(link) } : null;
  };

  const feature = (name: string): FeatureWithTags | null => {
    const found = s.table('features').get(name);
    if (!found) return null;
    const tags = s
      .table('featureTags')
      .rows()
      .filter((tag) => tag.featureName === name)
      .map(({ type, value }) => ({ type, value }))
      .sort(tagOrder);
    return { feature: copy(found), tags };
  };

  return {
    feature,
    featureInEnvironment(name, environment) {
      const found = feature(name);
      return found && { ...found, linked: linked(found.feature.project, environment) };
    },
    projectEnvironment: linked,
    projectEnvironments: (projectId) =>
      sorted(
        links
          .rows()
          .filter((link) => link.projectId === projectId)
          .flatMap((link) => linked(projectId, link.environment) ?? []),
        environmentOrder,
      ),
  };
}
