import type { z } from 'zod';
import type { Caller } from '../auth/caller.js';
import type { PermissionScope } from '../auth/policy.js';
import type { TokenScope, TokenVerdict } from '../auth/token-access.js';
import { validationError } from '../domain/parse.js';
import type { Repositories } from '../ports/repositories.js';
import type {
  AnyOperation,
  CommandContext,
  OperationContext,
  OperationDeps,
  OperationInput,
  OperationOutput,
  PermissionInput,
} from './define-operation.js';

const allowEveryToken = (): TokenVerdict => 'allowed';

/**
 * The properties of an invalid input that parse on their own, for the permission to judge: an
 * object schema is read property by property; anything else yields nothing.
 */
function parsedProperties(schema: z.ZodType, input: unknown): PermissionInput<Record<string, unknown>> {
  const shape = (schema as { shape?: Record<string, z.ZodType> }).shape;
  if (!shape || typeof input !== 'object' || input === null || Array.isArray(input)) return {};
  const seen: Record<string, unknown> = {};
  for (const [key, property] of Object.entries(shape)) {
    const result = property.safeParse((input as Record<string, unknown>)[key]);
    if (result.success) seen[key] = result.data;
  }
  return seen;
}

/** Runs operations for callers: the one place input is parsed, the policy asked and a transaction opened. */
export interface OperationRunner {
  <Op extends AnyOperation>(
    operation: Op,
    caller: Caller,
    input: OperationInput<Op>,
  ): Promise<OperationOutput<Op>>;
  /** The same, for input that has not been typed yet (an HTTP body): the operation parses it. */
  unknown<Op extends AnyOperation>(
    operation: Op,
    caller: Caller,
    input: unknown,
  ): Promise<OperationOutput<Op>>;
}

/**
 * One runner for every operation: parses the input once; asks the policy (before reporting an
 * invalid input, so a caller without the permission learns nothing about the body's rules); runs
 * a read outside any transaction, a write inside `store.transaction`, its events included, and a
 * command with the means to open its own transactions; and returns what `run` produced, typed by
 * the operation's output schema.
 */
export function createOperationRunner(deps: OperationDeps): OperationRunner {
  const transaction = <T>(fn: (tx: Repositories) => Promise<T>): Promise<T> => deps.store.transaction(fn);

  async function runOperation(operation: AnyOperation, caller: Caller, input: unknown): Promise<unknown> {
    const parsed = operation.input.safeParse(input);
    const seen = parsed.success ? parsed.data : parsedProperties(operation.input, input);
    const scope: PermissionScope = operation.scope ? await operation.scope(seen, { repos: deps.store }) : {};
    const rule = operation.permission;
    // A command is judged as a write: the actor its events record, maintenance mode refusing it.
    const write = operation.kind !== 'read';
    const permit = write && !operation.duringMaintenance;
    let judge: (token: TokenScope) => TokenVerdict = allowEveryToken;
    let actor = caller.actor;
    if (typeof rule === 'object' && 'families' in rule) {
      const { principal } = caller;
      const family =
        principal.kind === 'api-token' &&
        principal.tokenType !== 'admin' &&
        rule.families[principal.tokenType]
          ? principal.tokenType
          : 'admin';
      const permission = rule.families[family] ?? rule.families.admin;
      if (permit) actor = await deps.policy.permit(caller, permission, scope, family);
      else await deps.policy.require(caller, permission, scope, family);
    } else if (typeof rule === 'object') {
      judge = await deps.policy.tokenAccess(caller, rule.tokens, scope.project);
      // Maintenance mode refuses writes here as it does for every other write.
      if (permit) actor = await deps.policy.permit(caller, 'NONE', scope);
    } else if (rule !== 'PUBLIC') {
      const permission = rule === 'USER' ? 'NONE' : typeof rule === 'function' ? await rule(seen) : rule;
      if (permit) actor = await deps.policy.permit(caller, permission, scope);
      else await deps.policy.require(caller, permission, scope);
      if (rule === 'USER') deps.policy.requireUser(caller);
    }
    if (!parsed.success) throw validationError(parsed.error);
    const value = parsed.data;
    if (operation.guard) await operation.guard(value, { deps, caller });
    // Typed by each operation's own `prepare`; erased here like the input.
    const prepared = (
      operation.prepare ? await operation.prepare(value, { deps, caller, repos: deps.store }) : undefined
    ) as undefined;
    if (!write) {
      const ctx: OperationContext<'read'> = { deps, caller, actor, repos: deps.store, judge, prepared };
      return operation.run(value, ctx);
    }
    let output: unknown;
    try {
      if (operation.kind === 'command') {
        const ctx: CommandContext = {
          deps,
          caller,
          actor,
          repos: deps.store,
          judge,
          prepared,
          transaction,
          runner,
        };
        output = await operation.run(value, ctx);
      } else
        output = await deps.store.transaction((tx) => {
          const ctx: OperationContext<'write'> = { deps, caller, actor, repos: tx, judge, prepared };
          return operation.run(value, ctx);
        });
    } finally {
      operation.settled?.(deps);
    }
    await operation.committed?.(output, deps);
    return output;
  }
  const runner = ((operation: AnyOperation, caller: Caller, input: unknown) =>
    runOperation(operation, caller, input)) as OperationRunner;
  runner.unknown = runOperation as OperationRunner['unknown'];
  return runner;
}
