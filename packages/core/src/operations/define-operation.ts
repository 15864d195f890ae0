import type { z } from 'zod';
import type { Caller } from '../auth/caller.js';
import type { Permission } from '../auth/permissions.js';
import type { PermissionScope } from '../auth/policy.js';
import type { ApiFamily } from '../auth/principal.js';
import type { SecretBox } from '../auth/secret-box.js';
import type { TokenAction, TokenScope, TokenVerdict } from '../auth/token-access.js';
import type { Repositories } from '../ports/repositories.js';
import type { ReadRepositories } from '../ports/store.js';
import type { ResetLinks } from '../services/access/reset-links.js';
import type { SessionRuntime } from '../services/access/session-runtime.js';
import type { Actor, ServiceDeps } from '../services/deps.js';
import type { AddonRuntime } from '../services/integrations/addon-runtime.js';
import type { InstanceState } from '../services/operations/instance-state.js';
import type { PlaygroundLimits } from '../services/sdk/advanced-playground.js';
import type { EvaluatorCache } from '../services/sdk/evaluator-cache.js';
import type { OperationRunner } from './run-operation.js';

/**
 * What the permission of an operation sees of its input: every property that parsed. On a valid
 * input that is all of it; on an invalid one the policy still judges first (a Viewer gets 403 on a
 * write with a bad body, never 400), from the properties that did parse.
 */
export type PermissionInput<I> = { [K in keyof I]?: I[K] | undefined };

/**
 * Who may run an operation, as data the runner hands to the policy:
 * - `'PUBLIC'`: anyone, signed in or not;
 * - a permission (`'NONE'` for "any signed-in caller"; a private project in the scope still hides);
 * - `'USER'`: a signed-in user (a session or personal token), never an API token: what a user owns;
 * - a function of the input naming the permission (async where it needs a read);
 * - `{ tokens }`: acting on stored API tokens, where the permission depends on each token's type:
 *   the policy returns a judge the operation applies to every token it reads;
 * - `{ families }`: open to SDK tokens of the families named (judged for their own API, needing the
 *   permission given for it) and to admin callers (needing `admin`): Unleash Edge's token check.
 */
export type PermissionRule<I> =
  | 'PUBLIC'
  | 'USER'
  | Permission
  | ((input: PermissionInput<I>) => Permission | Promise<Permission>)
  | { tokens: Exclude<TokenAction, 'CREATE'> }
  | { families: { admin: Permission } & Partial<Record<Exclude<ApiFamily, 'admin'>, Permission>> };

/** What the runner needs beyond the services' deps. */
export interface OperationDeps extends ServiceDeps {
  /** Seals token secrets so the API can show them again; null keeps them write-only. */
  tokenSecrets: SecretBox | null;
  /** How many signal endpoints, and tokens per endpoint, may exist (defaults: 5 and 5). */
  signalLimits?:
    | {
        endpoints?: number | undefined;
        tokensPerEndpoint?: number | undefined;
        requestsPerSecond?: number | undefined;
      }
    | undefined;
  /** Maintenance mode, the frontend API's origins and the public URL (the instance operations). */
  instance: InstanceState;
  /** Sealing, destination checks and the delivery the addon operations wake. */
  addons: AddonRuntime;
  /** Furthest ahead a new personal access token's expiresAt may lie, in days (default 365). */
  personalTokenMaxLifetimeDays?: number | undefined;
  /** The public address links (invite links) are made under; '' or none: relative links. */
  baseUrl?: string | undefined;
  /** Signs and checks password reset links (the key lives only in memory). */
  resetLinks: ResetLinks;
  /** Session lifetime, the failed-login counter and the gate on password hashes in flight. */
  sessions: SessionRuntime;
  /** The one-time set-password link answered as `inviteLink` for a user an Admin created (none: no link). */
  newUserLink?: ((user: { id: number; passwordHash: string | null }) => string) | undefined;
  /** The compiled configuration of each environment per revision (the playground evaluates it). */
  evaluators: EvaluatorCache;
  /** Bounds of one advanced playground request. */
  playgroundLimits?: PlaygroundLimits | undefined;
}

/** What `run` receives besides its parsed input. */
export interface OperationContext<K extends OperationKind, P = undefined> {
  deps: OperationDeps;
  caller: Caller;
  /** Who the events of a write record. */
  actor: Actor;
  /** The transaction of a write; the store itself for a read or a command (which reads there). */
  repos: K extends 'write' ? Repositories : ReadRepositories;
  /** The policy's verdict on each stored token (operations with a `{ tokens }` permission). */
  judge: (token: TokenScope) => TokenVerdict;
  /** What `prepare` produced (undefined without one). */
  prepared: P;
}

/** What `prepare` receives: the store to read, never a transaction. */
export interface PrepareContext {
  deps: OperationDeps;
  caller: Caller;
  repos: ReadRepositories;
}

/** What the `run` of a command receives: its reads on the store, and a way to open its transactions. */
export interface CommandContext<P = undefined> extends OperationContext<'command', P> {
  /** Opens one transaction: what `fn` writes, its events included, commits together or not at all. */
  transaction: <T>(fn: (tx: Repositories) => Promise<T>) => Promise<T>;
  /** Runs another operation as a caller, judged and transacted by the runner like any call. */
  runner: OperationRunner;
}

/** The context `run` gets for an operation of kind `K`. */
export type ContextOf<K extends OperationKind, P = undefined> = K extends 'command'
  ? CommandContext<P>
  : OperationContext<K, P>;

/**
 * How an operation touches the store:
 * - `'read'`: outside any transaction;
 * - `'write'`: inside one transaction the runner opens, with its events;
 * - `'command'`: a write that opens its own transactions (`ctx.transaction`), for work one
 *   transaction cannot hold: applying a change request and then recording why it was refused,
 *   storing a signal before its actions run, other operations run in turn (`ctx.runner`). The
 *   policy judges it as a write (its permission, maintenance mode, the actor).
 */
export type OperationKind = 'read' | 'write' | 'command';

export interface OperationSpec<
  I extends z.ZodType,
  O extends z.ZodType,
  K extends OperationKind,
  P = undefined,
> {
  /** Stable id, `<area>.<verb>` (also the OpenAPI operationId of its routes). */
  id: string;
  summary: string;
  kind: K;
  /** Required: an open operation says so with `'PUBLIC'`, a signed-in one with `'NONE'`. */
  permission: PermissionRule<z.output<I>>;
  /** Where the permission applies (project / environment / feature), from the input; async if it needs a read. */
  scope?: (
    input: PermissionInput<z.output<I>>,
    ctx: { repos: ReadRepositories },
  ) => PermissionScope | Promise<PermissionScope>;
  /**
   * Runs while maintenance mode refuses changes (turning it off must work while it is on): the
   * policy still judges the permission, only the maintenance refusal is skipped.
   */
  duringMaintenance?: true;
  /**
   * Further questions to the policy that need the whole, valid input (which projects a new token
   * would reach), asked before the transaction opens.
   */
  guard?: (input: z.output<I>, ctx: { deps: OperationDeps; caller: Caller }) => Promise<void>;
  /**
   * Slow work done before the transaction opens, with the valid input, once the policy and the
   * guard have allowed the call (hashing a password takes tens of milliseconds: never while holding
   * the store's write lock). `run` receives what it returns as `prepared`.
   */
  prepare?: (input: z.output<I>, ctx: PrepareContext) => Promise<P>;
  input: I;
  output: O;
  run: (input: z.output<I>, ctx: ContextOf<K, P>) => Promise<z.input<O>>;
  /** Runs once a write or a command has ended, committed or not (caches that must not keep a replaced row). */
  settled?: (deps: OperationDeps) => void;
  /**
   * Runs after a write committed, with its output: upkeep that must see the committed rows and must
   * not fail the command (it catches its own errors).
   */
  committed?: (output: z.output<O>, deps: OperationDeps) => Promise<void>;
}

/** An operation of any shape, as route tables and the runner hold them. */
export type AnyOperation =
  | Operation<z.ZodType, z.ZodType, OperationKind>
  // biome-ignore lint/suspicious/noExplicitAny: the run function's input is contravariant; any erases it for collections
  | Operation<any, any, any, any>;

export interface Operation<I extends z.ZodType, O extends z.ZodType, K extends OperationKind, P = undefined>
  extends OperationSpec<I, O, K, P> {
  readonly kind: K;
}

/** The input an operation accepts before parsing (what callers pass). */
export type OperationInput<Op> =
  Op extends Operation<infer I, z.ZodType, OperationKind, infer _P> ? z.input<I> : never;
/** The value an operation returns. */
export type OperationOutput<Op> =
  Op extends Operation<z.ZodType, infer O, OperationKind, infer _P> ? z.output<O> : never;

/**
 * Declares one thing the service does. `input` and `output` are zod schemas; `permission` is
 * required (leaving it out does not compile), and it is data the runner gives the policy: `run`
 * never asks for permission itself.
 */
export const defineOperation = <
  I extends z.ZodType,
  O extends z.ZodType,
  K extends OperationKind,
  P = undefined,
>(
  spec: OperationSpec<I, O, K, P>,
): Operation<I, O, K, P> => Object.freeze({ ...spec });
