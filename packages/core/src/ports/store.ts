import type { Repositories } from './repositories.js';

export type { Repositories };

/**
 * The methods of each repository that only read: all a store offers outside a transaction. A
 * write anywhere else is a type error, and stores refuse it at run time too.
 */
export const READ_METHODS = {
  projects: ['list', 'get'],
  environments: ['list', 'get', 'listForProject', 'listProjectsFor'],
  features: ['list', 'get', 'countLive'],
  featureEnvironments: ['get', 'listForFeature', 'listForFeatures', 'countEnabled'],
  strategies: ['list', 'get'],
  segments: ['list', 'get'],
  contextFields: ['list', 'get'],
  tags: ['listTypes', 'getType', 'listTags', 'listFeatureTags', 'featuresWithTag'],
  dependencies: ['list', 'listByParents'],
  favorites: ['list'],
  events: ['search', 'count', 'latestId', 'listCreators'],
  addons: [
    'getDeliveredThrough',
    'getDeliveryLease',
    'list',
    'get',
    'listDeliveries',
    'summarizeDeliveries',
    'listAttempts',
    'getSigningSecrets',
  ],
  apiTokens: ['list', 'getByHash', 'listByName', 'countAdmin'],
  users: ['list', 'get', 'getByEmail', 'getByUsername', 'countWithPassword'],
  roles: ['list', 'get'],
  groups: ['list', 'get', 'listUsers', 'groupsOf'],
  projectAccess: ['list', 'forUser'],
  signupTokens: ['list', 'get'],
  signals: [
    'listEndpoints',
    'getEndpoint',
    'getEndpointByName',
    'listTokens',
    'listSignals',
    'listActionSets',
  ],
  metrics: ['listBuckets', 'listApplications', 'listUnknownFlags'],
  featureSearch: ['search'],
  sessions: ['get', 'listForUser'],
  loginThrottles: ['get'],
  settings: ['get'],
  personalTokens: ['listForUser', 'getByHash'],
  featureLinks: ['listForFeature', 'get'],
  commandReads: ['feature', 'featureInEnvironment', 'projectEnvironment', 'projectEnvironments'],
  changeRequests: ['listSettings', 'get', 'list', 'listDue'],
} as const satisfies { readonly [A in keyof Repositories]: readonly (keyof Repositories[A])[] };

/** A notice that events were appended (after their transaction committed). */
export interface EventsAppended {
  /**
   * The types appended, when the store knows them (its own commits in this process); null for a
   * notice from elsewhere (another process), which may have appended anything.
   */
  readonly types: ReadonlySet<string> | null;
}

/** Whether a notice may concern an event type matching `test` (a notice from elsewhere always may). */
export const noticeMayInclude = (notice: EventsAppended, test: (type: string) => boolean): boolean =>
  notice.types === null || [...notice.types].some(test);

/** The read side of every repository. */
export type ReadRepositories = {
  readonly [A in keyof Repositories]: Pick<
    Repositories[A],
    Extract<(typeof READ_METHODS)[A][number], keyof Repositories[A]>
  >;
};

/**
 * A Flagstaff store: reads of every repository, and transactions over them for everything else.
 *
 * Reads outside `transaction` see committed state. Inside, `fn` gets repositories bound to one
 * transaction: everything it writes (state and events) commits together or not at all — a throw
 * from `fn` rolls everything back and rethrows. Transactions of one store are serializable with
 * respect to each other (the memory and SQLite stores run them one at a time).
 */
export interface Store extends ReadRepositories {
  /** A short name for error messages and logs (`memory`, `sqlite:./data/x.db`, `postgres`). */
  readonly name: string;
  transaction<T>(fn: (tx: Repositories) => Promise<T>): Promise<T>;
  /** Releases connections; later calls fail with STORE_UNAVAILABLE naming the store. */
  close(): Promise<void>;
  /**
   * Subscribes to "events were appended" notices, including from other processes where the store
   * can tell (PostgreSQL LISTEN/NOTIFY). Returns an unsubscribe function.
   */
  onEventsAppended?(listener: (notice: EventsAppended) => void): () => void;
  /**
   * Copies a consistent snapshot of the whole store into a new database file at `destination`
   * (overwritten if it exists) while the store keeps serving: one read transaction's view, every
   * committed write before it and none after. Offered by stores that are a file (SQLite, through
   * its online backup API); absent on the memory store and PostgreSQL (use pg_dump).
   */
  backup?(destination: string): Promise<void>;
  /**
   * Brings the query planner's statistics on the feature tables up to date after a bulk write (an
   * import of thousands of features), so searches use their indexes at once rather than once the
   * database's own maintenance gets to it (never, where autovacuum is off). Offered by PostgreSQL,
   * whose planner goes by them; SQLite's plans need none, the memory store has no planner.
   */
  refreshStatistics?(): Promise<void>;
}
