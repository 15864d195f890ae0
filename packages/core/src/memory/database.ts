import type { Addon } from '../domain/addon.js';
import type { AddonDelivery, AddonDeliveryAttempt, AddonSigningSecrets } from '../domain/addon-delivery.js';
import type { ApiTokenRecord } from '../domain/api-token.js';
import type { ChangeRequestRecord, ChangeRequestSetting } from '../domain/change-request.js';
import type { ContextField } from '../domain/context-field.js';
import type { Environment } from '../domain/environment.js';
import type { FlagstaffEvent } from '../domain/event.js';
import type { FeatureEnvironmentRecord, FeatureRecord } from '../domain/feature.js';
import type { FeatureLink } from '../domain/feature-link.js';
import type { ClientApplication, MetricsBucket, UnknownFlag } from '../domain/metrics.js';
import type { PersonalAccessTokenRecord } from '../domain/personal-token.js';
import type { Project, ProjectEnvironmentRecord } from '../domain/project.js';
import type { Segment } from '../domain/segment.js';
import type { LoginThrottleRecord, SessionRecord } from '../domain/session.js';
import type { ActionSet, Signal, SignalEndpoint, SignalEndpointToken } from '../domain/signal.js';
import type { SignupTokenRecord } from '../domain/signup-token.js';
import type { FeatureStrategy } from '../domain/strategy.js';
import type { FeatureTag, Tag, TagType } from '../domain/tag.js';
import {
  BUILT_IN_ROLES,
  type GroupRecord,
  type ProjectRoleAssignment,
  type Role,
  type UserRecord,
} from '../domain/user.js';
import type { DependencyRecord } from '../ports/feature-ports.js';

export interface FavoriteRow {
  userId: number;
  kind: 'feature' | 'project';
  name: string;
}

export interface GroupUserRow {
  groupId: number;
  userId: number;
  createdAt: string;
}

/** The one row of `addonDelivery`: the position and the lease (see AddonRepository). */
export interface AddonDeliveryRow {
  eventId: number | null;
  holder: string | null;
  expiresAt: number | null;
}

/** The row type of every table. Rows are replaced, never mutated in place. */
export interface Rows {
  projects: Project;
  environments: Environment;
  projectEnvironments: ProjectEnvironmentRecord;
  segments: Segment;
  contextFields: ContextField;
  features: FeatureRecord;
  featureEnvironments: FeatureEnvironmentRecord;
  strategies: FeatureStrategy;
  tagTypes: TagType;
  tags: Tag;
  featureTags: FeatureTag;
  dependencies: DependencyRecord;
  favorites: FavoriteRow;
  addons: Addon;
  addonDelivery: AddonDeliveryRow;
  /** Keyed `addonId:eventId`. */
  addonQueue: AddonDelivery;
  addonAttempts: AddonDeliveryAttempt;
  /** Keyed by addon id. */
  addonSecrets: AddonSigningSecrets;
  apiTokens: ApiTokenRecord;
  users: UserRecord;
  roles: Role;
  groups: GroupRecord;
  groupUsers: GroupUserRow;
  projectAccess: ProjectRoleAssignment;
  signupTokens: SignupTokenRecord;
  signalEndpoints: SignalEndpoint;
  signalTokens: SignalEndpointToken;
  signals: Signal;
  actionSets: ActionSet;
  metricsBuckets: MetricsBucket;
  applications: ClientApplication;
  sessions: SessionRecord;
  loginThrottles: LoginThrottleRecord;
  /** Keyed by name: `{ value }`. */
  settings: { value: unknown };
  personalTokens: PersonalAccessTokenRecord;
  featureLinks: FeatureLink;
  unknownFlags: UnknownFlag;
  /** Keyed `project\0environment`. */
  changeRequestSettings: ChangeRequestSetting;
  changeRequests: ChangeRequestRecord;
}

export type TableName = keyof Rows;
export type Key = string | number;

/** Counters behind store-assigned ids. */
export type Sequence =
  | 'segments'
  | 'users'
  | 'groups'
  | 'addons'
  | 'addonAttempts'
  | 'personalTokens'
  | 'signalEndpoints'
  | 'signalTokens'
  | 'signals'
  | 'actionSets'
  | 'events'
  | 'changeRequests';

/** An event with what search needs precomputed. */
export interface StoredEvent {
  readonly event: FlagstaffEvent;
  /** Lower-cased text that free-text queries match against. */
  readonly text: string;
  /** createdAt as epoch milliseconds. */
  readonly time: number;
}

/** Committed state. */
export interface Database {
  readonly tables: { [N in TableName]: Map<Key, Rows[N]> };
  readonly sequences: Map<Sequence, number>;
  /** Ordered by id. */
  readonly events: StoredEvent[];
}

/** One table as a session sees it. */
export interface Table<V> {
  get(key: Key): V | undefined;
  has(key: Key): boolean;
  set(key: Key, row: V): void;
  delete(key: Key): boolean;
  /** Every row, in no particular order. */
  rows(): V[];
  /** Deletes every row the predicate accepts; returns how many. */
  deleteWhere(predicate: (row: V) => boolean): number;
}

/**
 * A unit of work over the database: reads see committed state plus the session's own writes, writes
 * stay private until `commit`. Abandoning a session is the rollback, so it costs nothing and nothing
 * is copied up front.
 */
export interface Session {
  table<N extends TableName>(name: N): Table<Rows[N]>;
  nextId(sequence: Sequence): number;
  appendEvent(event: StoredEvent): void;
  /** Committed events, then this session's, both ordered by id. */
  events(): { committed: readonly StoredEvent[]; pending: readonly StoredEvent[] };
  /** Whether the session has written anything. */
  readonly dirty: boolean;
}

export interface OpenSession extends Session {
  /** Applies every write to the database and returns the events it appended. */
  commit(): readonly StoredEvent[];
}

const TABLE_NAMES: readonly TableName[] = [
  'projects',
  'environments',
  'projectEnvironments',
  'segments',
  'contextFields',
  'features',
  'featureEnvironments',
  'strategies',
  'tagTypes',
  'tags',
  'featureTags',
  'dependencies',
  'favorites',
  'addons',
  'addonDelivery',
  'addonQueue',
  'addonAttempts',
  'addonSecrets',
  'apiTokens',
  'users',
  'roles',
  'groups',
  'groupUsers',
  'projectAccess',
  'signupTokens',
  'signalEndpoints',
  'signalTokens',
  'signals',
  'actionSets',
  'metricsBuckets',
  'applications',
  'sessions',
  'loginThrottles',
  'settings',
  'personalTokens',
  'featureLinks',
  'unknownFlags',
  'changeRequestSettings',
  'changeRequests',
];

/** Creates an empty database with the built-in roles. */
export function createDatabase(): Database {
  const tables = Object.fromEntries(TABLE_NAMES.map((name) => [name, new Map()])) as Database['tables'];
  for (const role of BUILT_IN_ROLES) tables.roles.set(role.id, { ...role });
  return { tables, sequences: new Map(), events: [] };
}

const DELETED: unique symbol = Symbol('deleted');

interface OverlayTable<V> extends Table<V> {
  flush(): void;
}

function createOverlayTable<V>(base: Map<Key, V>, markDirty: () => void): OverlayTable<V> {
  const changes = new Map<Key, V | typeof DELETED>();
  const get = (key: Key): V | undefined => {
    const changed = changes.get(key);
    if (changed === undefined) return base.get(key);
    return changed === DELETED ? undefined : changed;
  };
  return {
    get,
    has: (key) => get(key) !== undefined,
    set(key, row) {
      changes.set(key, row);
      markDirty();
    },
    delete(key) {
      if (get(key) === undefined) return false;
      changes.set(key, DELETED);
      markDirty();
      return true;
    },
    rows() {
      if (changes.size === 0) return [...base.values()];
      const out: V[] = [];
      for (const [key, row] of base) if (!changes.has(key)) out.push(row);
      for (const row of changes.values()) if (row !== DELETED) out.push(row);
      return out;
    },
    deleteWhere(predicate) {
      const doomed: Key[] = [];
      for (const [key, row] of base) if (!changes.has(key) && predicate(row)) doomed.push(key);
      for (const [key, row] of changes) if (row !== DELETED && predicate(row)) doomed.push(key);
      for (const key of doomed) changes.set(key, DELETED);
      if (doomed.length > 0) markDirty();
      return doomed.length;
    },
    flush() {
      for (const [key, row] of changes) {
        if (row === DELETED) base.delete(key);
        else base.set(key, row);
      }
    },
  };
}

/** Opens a session over the database's current committed state. */
export function openSession(db: Database): OpenSession {
  let dirty = false;
  const markDirty = (): void => {
    dirty = true;
  };
  const overlays = new Map<TableName, OverlayTable<unknown>>();
  const sequences = new Map<Sequence, number>();
  const pending: StoredEvent[] = [];
  return {
    get dirty() {
      return dirty;
    },
    table<N extends TableName>(name: N): Table<Rows[N]> {
      let overlay = overlays.get(name);
      if (!overlay) {
        overlay = createOverlayTable(db.tables[name] as Map<Key, unknown>, markDirty);
        overlays.set(name, overlay);
      }
      return overlay as OverlayTable<Rows[N]>;
    },
    nextId(sequence) {
      const id = (sequences.get(sequence) ?? db.sequences.get(sequence) ?? 0) + 1;
      sequences.set(sequence, id);
      dirty = true;
      return id;
    },
    appendEvent(event) {
      pending.push(event);
      dirty = true;
    },
    events: () => ({ committed: db.events, pending }),
    commit() {
      for (const overlay of overlays.values()) overlay.flush();
      for (const [sequence, value] of sequences) db.sequences.set(sequence, value);
      for (const event of pending) db.events.push(event);
      return pending;
    },
  };
}
