import type { ContextField } from '../domain/context-field.js';
import type { Environment } from '../domain/environment.js';
import type { Project, ProjectEnvironmentRecord } from '../domain/project.js';
import type { Segment } from '../domain/segment.js';

/** Projects. */
export interface ProjectRepository {
  /** Ordered by name, then id. */
  list(): Promise<Project[]>;
  get(id: string): Promise<Project | null>;
  /** CONFLICT when the id exists. */
  insert(project: Project): Promise<void>;
  update(project: Project): Promise<boolean>;
  /** Deletes the project and its environment links and role assignments (features must be gone). */
  delete(id: string): Promise<boolean>;
}

/** An environment as one project uses it. */
export interface LinkedEnvironment {
  environment: Environment;
  link: ProjectEnvironmentRecord;
}

/** Environments and which of them each project uses. */
export interface EnvironmentRepository {
  /** Ordered by sortOrder, then name. */
  list(): Promise<Environment[]>;
  get(name: string): Promise<Environment | null>;
  /** CONFLICT when the name exists. */
  insert(environment: Environment): Promise<void>;
  update(environment: Environment): Promise<boolean>;
  delete(name: string): Promise<boolean>;
  /** Environments linked to the project, ordered by environment sortOrder then name. */
  listForProject(projectId: string): Promise<ProjectEnvironmentRecord[]>;
  /** Projects linked to the environment. */
  listProjectsFor(environment: string): Promise<string[]>;
  /** Inserts or replaces the link (and its default strategy). */
  linkProject(link: ProjectEnvironmentRecord): Promise<void>;
  unlinkProject(projectId: string, environment: string): Promise<boolean>;
}

/** Segments. Ids are assigned by the store and increase. */
export interface SegmentRepository {
  /** Ordered by id. */
  list(): Promise<Segment[]>;
  get(id: number): Promise<Segment | null>;
  /** Inserts and returns the segment with its new id; CONFLICT when the name exists. */
  insert(segment: Omit<Segment, 'id'>): Promise<Segment>;
  update(segment: Segment): Promise<boolean>;
  delete(id: number): Promise<boolean>;
}

/** Custom context fields. */
export interface ContextFieldRepository {
  /** Ordered by sortOrder, then name. */
  list(): Promise<ContextField[]>;
  get(name: string): Promise<ContextField | null>;
  /** CONFLICT when the name exists. */
  insert(field: ContextField): Promise<void>;
  update(field: ContextField): Promise<boolean>;
  delete(name: string): Promise<boolean>;
}
