import type { FeatureStrategy } from '../domain/strategy.js';
import { conflict } from '../errors.js';
import type {
  DependencyRecord,
  DependencyRepository,
  FavoriteRepository,
  FeatureEnvironmentRepository,
  FeatureRepository,
  StrategyRepository,
} from '../ports/feature-ports.js';
import { copy } from './copy.js';
import type { Session } from './database.js';
import { by, compare, compareTime, keyOf, type Sync, sorted } from './support.js';

/** Features over a session. */
export function createFeatureRepository(s: Session): Sync<FeatureRepository> {
  const features = s.table('features');
  return {
    list(filter = {}) {
      const names = filter.names ? new Set(filter.names) : null;
      const matches = features
        .rows()
        .filter(
          (feature) =>
            (filter.project === undefined || feature.project === filter.project) &&
            (filter.archived === undefined || (feature.archivedAt !== null) === filter.archived) &&
            (names === null || names.has(feature.name)) &&
            (filter.after === undefined || compare(feature.name, filter.after) > 0),
        );
      const ordered = sorted(matches, (a, b) => compare(a.name, b.name));
      return (filter.limit === undefined ? ordered : ordered.slice(0, filter.limit)).map(copy);
    },
    get: (name) => copy(features.get(name) ?? null),
    insert(feature, environments = []) {
      if (features.has(feature.name)) throw conflict(`A feature named "${feature.name}" already exists.`);
      features.set(feature.name, copy(feature));
      const rows = s.table('featureEnvironments');
      for (const environment of environments)
        rows.set(keyOf(feature.name, environment), {
          featureName: feature.name,
          environment,
          enabled: false,
          variants: [],
          lastSeenAt: null,
        });
    },
    update(feature) {
      if (!features.has(feature.name)) return false;
      features.set(feature.name, copy(feature));
      return true;
    },
    delete(name) {
      if (!features.delete(name)) return false;
      s.table('featureEnvironments').deleteWhere((row) => row.featureName === name);
      s.table('strategies').deleteWhere((strategy) => strategy.featureName === name);
      s.table('featureTags').deleteWhere((tag) => tag.featureName === name);
      s.table('dependencies').deleteWhere(
        (dependency) => dependency.child === name || dependency.feature === name,
      );
      s.table('favorites').deleteWhere((favorite) => favorite.kind === 'feature' && favorite.name === name);
      s.table('featureLinks').deleteWhere((link) => link.featureName === name);
      return true;
    },
    countLive: (project) =>
      features.rows().filter((feature) => feature.project === project && feature.archivedAt === null).length,
  };
}

/** Per-environment feature state over a session. */
export function createFeatureEnvironmentRepository(s: Session): Sync<FeatureEnvironmentRepository> {
  const rows = s.table('featureEnvironments');
  return {
    get: (featureName, environment) => copy(rows.get(keyOf(featureName, environment)) ?? null),
    listForFeature: (featureName) =>
      sorted(
        rows.rows().filter((row) => row.featureName === featureName),
        (a, b) => compare(a.environment, b.environment),
      ).map(copy),
    listForFeatures(featureNames) {
      const names = new Set(featureNames);
      return rows
        .rows()
        .filter((row) => names.has(row.featureName))
        .map(copy);
    },
    upsert(row) {
      rows.set(keyOf(row.featureName, row.environment), copy(row));
    },
    delete: (featureName, environment) => rows.delete(keyOf(featureName, environment)),
    countEnabled(project) {
      const live = new Set(
        s
          .table('features')
          .rows()
          .filter((f) => f.project === project && f.archivedAt === null)
          .map((f) => f.name),
      );
      const counts: Record<string, number> = {};
      for (const row of rows.rows())
        if (row.enabled && live.has(row.featureName))
          counts[row.environment] = (counts[row.environment] ?? 0) + 1;
      return counts;
    },
    markSeen(pairs, at) {
      for (const { featureName, environment } of pairs) {
        const key = keyOf(featureName, environment);
        const row = rows.get(key);
        if (row) rows.set(key, { ...row, lastSeenAt: at });
      }
    },
  };
}

/** Segment links form a set; every store hands them back ascending and without repeats. */
const normaliseStrategy = (strategy: FeatureStrategy): FeatureStrategy => {
  const stored = copy(strategy);
  stored.segments = [...new Set(stored.segments)].sort(compare);
  return stored;
};

const strategyOrder = by<FeatureStrategy>(
  (a, b) => compare(a.featureName, b.featureName),
  (a, b) => compare(a.environment, b.environment),
  (a, b) => compare(a.sortOrder, b.sortOrder),
  (a, b) => compareTime(a.createdAt, b.createdAt),
  (a, b) => compare(a.id, b.id),
);

/** Strategies over a session. */
export function createStrategyRepository(s: Session): Sync<StrategyRepository> {
  const strategies = s.table('strategies');
  return {
    list(filter) {
      const names = filter.featureNames ? new Set(filter.featureNames) : null;
      const matches = strategies
        .rows()
        .filter(
          (strategy) =>
            (filter.featureName === undefined || strategy.featureName === filter.featureName) &&
            (names === null || names.has(strategy.featureName)) &&
            (filter.environment === undefined || strategy.environment === filter.environment) &&
            (filter.projectId === undefined || strategy.projectId === filter.projectId) &&
            (filter.segmentId === undefined || strategy.segments.includes(filter.segmentId)),
        );
      return sorted(matches, strategyOrder).map(copy);
    },
    get: (id) => copy(strategies.get(id) ?? null),
    insert(strategy) {
      if (strategies.has(strategy.id)) throw conflict(`A strategy with id "${strategy.id}" already exists.`);
      const sortOrder =
        strategy.sortOrder ??
        Math.max(
          -1,
          ...strategies
            .rows()
            .filter((s) => s.featureName === strategy.featureName && s.environment === strategy.environment)
            .map((s) => s.sortOrder),
        ) + 1;
      strategies.set(strategy.id, normaliseStrategy({ ...strategy, sortOrder }));
      return sortOrder;
    },
    update(strategy) {
      if (!strategies.has(strategy.id)) return false;
      strategies.set(strategy.id, normaliseStrategy(strategy));
      return true;
    },
    delete: (id) => strategies.delete(id),
    deleteForFeatureEnvironment: (featureName, environment) =>
      strategies.deleteWhere(
        (strategy) => strategy.featureName === featureName && strategy.environment === environment,
      ),
  };
}

const dependencyOrder = by<DependencyRecord>(
  (a, b) => compare(a.child, b.child),
  (a, b) => compare(a.feature, b.feature),
);

/** Feature dependencies over a session. */
export function createDependencyRepository(s: Session): Sync<DependencyRepository> {
  const dependencies = s.table('dependencies');
  return {
    list(children) {
      const wanted = children ? new Set(children) : null;
      const matches = dependencies
        .rows()
        .filter((dependency) => wanted === null || wanted.has(dependency.child));
      return sorted(matches, dependencyOrder).map(copy);
    },
    listByParents(parents) {
      const wanted = new Set(parents);
      return sorted(
        dependencies.rows().filter((dependency) => wanted.has(dependency.feature)),
        dependencyOrder,
      ).map(copy);
    },
    upsert(dependency) {
      dependencies.set(keyOf(dependency.child, dependency.feature), copy(dependency));
    },
    delete: (child, parent) => dependencies.delete(keyOf(child, parent)),
    deleteAll: (child) => dependencies.deleteWhere((dependency) => dependency.child === child),
  };
}

/** Favorites over a session. */
export function createFavoriteRepository(s: Session): Sync<FavoriteRepository> {
  const favorites = s.table('favorites');
  return {
    list(userId) {
      const mine = favorites.rows().filter((favorite) => favorite.userId === userId);
      const namesOf = (kind: 'feature' | 'project') =>
        mine
          .filter((favorite) => favorite.kind === kind)
          .map((favorite) => favorite.name)
          .sort(compare);
      return { features: namesOf('feature'), projects: namesOf('project') };
    },
    set(userId, kind, name, favorite) {
      const key = keyOf(userId, kind, name);
      if (!favorite) return favorites.delete(key);
      if (favorites.has(key)) return false;
      favorites.set(key, { userId, kind, name });
      return true;
    },
  };
}
