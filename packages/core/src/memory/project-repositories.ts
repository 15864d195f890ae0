import { conflict } from '../errors.js';
import type {
  ContextFieldRepository,
  EnvironmentRepository,
  ProjectRepository,
  SegmentRepository,
} from '../ports/project-ports.js';
import { copy } from './copy.js';
import type { Session } from './database.js';
import { by, compare, keyOf, type Sync, sorted } from './support.js';

/** Projects over a session. */
export function createProjectRepository(s: Session): Sync<ProjectRepository> {
  const projects = s.table('projects');
  return {
    list: () =>
      sorted(
        projects.rows(),
        by(
          (a, b) => compare(a.name, b.name),
          (a, b) => compare(a.id, b.id),
        ),
      ).map(copy),
    get: (id) => copy(projects.get(id) ?? null),
    insert(project) {
      if (projects.has(project.id)) throw conflict(`A project with id "${project.id}" already exists.`);
      projects.set(project.id, copy(project));
    },
    update(project) {
      if (!projects.has(project.id)) return false;
      projects.set(project.id, copy(project));
      return true;
    },
    delete(id) {
      if (!projects.delete(id)) return false;
      s.table('projectEnvironments').deleteWhere((link) => link.projectId === id);
      s.table('projectAccess').deleteWhere((row) => row.projectId === id);
      return true;
    },
  };
}

/** Environments and project links over a session. */
export function createEnvironmentRepository(s: Session): Sync<EnvironmentRepository> {
  const environments = s.table('environments');
  const links = s.table('projectEnvironments');
  const bySortOrder = by<{ sortOrder: number; name: string }>(
    (a, b) => compare(a.sortOrder, b.sortOrder),
    (a, b) => compare(a.name, b.name),
  );
  return {
    list: () => sorted(environments.rows(), bySortOrder).map(copy),
    get: (name) => copy(environments.get(name) ?? null),
    insert(environment) {
      if (environments.has(environment.name)) {
        throw conflict(`An environment named "${environment.name}" already exists.`);
      }
      environments.set(environment.name, copy(environment));
    },
    update(environment) {
      if (!environments.has(environment.name)) return false;
      environments.set(environment.name, copy(environment));
      return true;
    },
    delete(name) {
      if (!environments.delete(name)) return false;
      // Like the reference's foreign keys: nothing may keep pointing at an environment that is gone.
      links.deleteWhere((link) => link.environment === name);
      s.table('featureEnvironments').deleteWhere((row) => row.environment === name);
      s.table('strategies').deleteWhere((strategy) => strategy.environment === name);
      return true;
    },
    listForProject(projectId) {
      // A link whose environment row is missing sorts last rather than disappearing.
      const sortKey = (environment: string) => ({
        name: environment,
        sortOrder: environments.get(environment)?.sortOrder ?? Number.MAX_SAFE_INTEGER,
      });
      return sorted(
        links.rows().filter((link) => link.projectId === projectId),
        (a, b) => bySortOrder(sortKey(a.environment), sortKey(b.environment)),
      ).map(copy);
    },
    listProjectsFor: (environment) =>
      links
        .rows()
        .filter((link) => link.environment === environment)
        .map((link) => link.projectId)
        .sort(compare),
    linkProject(link) {
      links.set(keyOf(link.projectId, link.environment), copy(link));
    },
    unlinkProject: (projectId, environment) => links.delete(keyOf(projectId, environment)),
  };
}

/** Segments over a session. */
export function createSegmentRepository(s: Session): Sync<SegmentRepository> {
  const segments = s.table('segments');
  const nameTaken = (name: string, exceptId?: number) =>
    segments.rows().some((segment) => segment.name === name && segment.id !== exceptId);
  return {
    list: () => sorted(segments.rows(), (a, b) => compare(a.id, b.id)).map(copy),
    get: (id) => copy(segments.get(id) ?? null),
    insert(segment) {
      if (nameTaken(segment.name)) throw conflict(`A segment named "${segment.name}" already exists.`);
      const stored = { ...copy(segment), id: s.nextId('segments') };
      segments.set(stored.id, stored);
      return copy(stored);
    },
    update(segment) {
      if (!segments.has(segment.id)) return false;
      if (nameTaken(segment.name, segment.id))
        throw conflict(`A segment named "${segment.name}" already exists.`);
      segments.set(segment.id, copy(segment));
      return true;
    },
    delete(id) {
      if (!segments.delete(id)) return false;
      const strategies = s.table('strategies');
      for (const strategy of strategies.rows()) {
        if (strategy.segments.includes(id)) {
          strategies.set(strategy.id, {
            ...strategy,
            segments: strategy.segments.filter((segment) => segment !== id),
          });
        }
      }
      return true;
    },
  };
}

/** Context fields over a session. */
export function createContextFieldRepository(s: Session): Sync<ContextFieldRepository> {
  const fields = s.table('contextFields');
  return {
    list: () =>
      sorted(
        fields.rows(),
        by(
          (a, b) => compare(a.sortOrder, b.sortOrder),
          (a, b) => compare(a.name, b.name),
        ),
      ).map(copy),
    get: (name) => copy(fields.get(name) ?? null),
    insert(field) {
      if (fields.has(field.name)) throw conflict(`A context field named "${field.name}" already exists.`);
      fields.set(field.name, copy(field));
    },
    update(field) {
      if (!fields.has(field.name)) return false;
      fields.set(field.name, copy(field));
      return true;
    },
    delete: (name) => fields.delete(name),
  };
}
