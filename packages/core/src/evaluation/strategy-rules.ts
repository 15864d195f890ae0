// The built-in activation strategies of unleash-client 6.x, compiled from their parameters once.
// Each returns the strategy's own rule; constraints and segments are AND-ed in by the caller.
import { ALWAYS, type ContextPredicate, NEVER } from './compile-constraint.js';
import { type EvaluationContext, resolveContextValue } from './evaluation-context.js';
import type { ParsedAddress } from './ip-address-match.js';
import { isInSubnet, parseAddress4 } from './ip-address-match.js';
import { createPrefixHash, STRATEGY_SEED } from './murmur-hash.js';
import type { ParseCache } from './parse-cache.js';

/** What the rules need beyond their parameters. */
export interface RuleEnvironment {
  /** Lower-cased host name `applicationHostname` matches; without it that strategy is off. */
  hostname: string | undefined;
  /** Memo of parsed IPv4 context addresses. */
  addresses4: ParseCache<ParsedAddress | null>;
}

// The SDK splits lists on commas with surrounding blanks, leaving blanks at the ends untouched.
const LIST_SEPARATOR = /\s*,\s*/;

/** Rollout test of `id`'s bucket (1–100) in `groupId` against a percentage, as the SDK computes it. */
function createRollout(groupId: string, percentage: number): (id: string) => boolean {
  if (!(percentage > 0)) return () => false;
  const hash = createPrefixHash(`${groupId}:`, STRATEGY_SEED);
  return (id) => (hash(id) % 100) + 1 <= percentage;
}

// Buckets for an explicit groupId are hashed from a precomputed prefix; the rare strategy without
// one falls back to the SDK's `context.featureToggle || ''` per call.
function createGroupRollout(
  groupId: string | undefined,
  percentage: number,
): (id: string, context: EvaluationContext) => boolean {
  if (groupId) {
    const rollout = createRollout(groupId, percentage);
    return (id) => rollout(id);
  }
  return (id, context) => {
    const dynamicGroup = context['featureToggle'];
    return createRollout(dynamicGroup ? String(dynamicGroup) : '', percentage)(id);
  };
}

function randomFlexibleId(): string {
  return String(Math.round(Math.random() * 10000) + 1);
}

function flexibleRollout(parameters: Record<string, string>): ContextPredicate {
  const rollout = createGroupRollout(parameters['groupId'], Number(parameters['rollout']));
  const stickiness = parameters['stickiness'] || 'default';
  if (stickiness === 'default') {
    return (context) => {
      const id = context.userId || context.sessionId || randomFlexibleId();
      return rollout(typeof id === 'string' ? id : String(id), context);
    };
  }
  if (stickiness === 'random') return (context) => rollout(randomFlexibleId(), context);
  return (context) => {
    const id = resolveContextValue(context, stickiness);
    return !!id && rollout(id, context);
  };
}

function gradualRollout(parameters: Record<string, string>, field: 'userId' | 'sessionId'): ContextPredicate {
  const rollout = createRollout(parameters['groupId'] || '', Number(parameters['percentage']));
  return (context) => {
    const id = context[field];
    return !!id && rollout(typeof id === 'string' ? id : String(id));
  };
}

function gradualRolloutRandom(parameters: Record<string, string>): ContextPredicate {
  const percentage = Number(parameters['percentage']);
  return () => percentage >= Math.floor(Math.random() * 100) + 1;
}

function userWithId(parameters: Record<string, string>): ContextPredicate {
  const userIds = new Set(parameters['userIds'] ? parameters['userIds'].split(LIST_SEPARATOR) : []);
  if (userIds.size === 0) return NEVER;
  return (context) => typeof context.userId === 'string' && userIds.has(context.userId);
}

function remoteAddress(parameters: Record<string, string>, env: RuleEnvironment): ContextPredicate {
  if (!parameters['IPs']) return NEVER;
  const entries = parameters['IPs'].split(LIST_SEPARATOR);
  // The SDK first compares each entry verbatim, then as an IPv4 range; only IPv4 is supported here.
  const verbatim = new Set(entries);
  const ranges = entries.map(parseAddress4).filter((range) => range !== null);
  return (context) => {
    const remote = context.remoteAddress;
    if (verbatim.has(remote as string)) return true;
    if (ranges.length === 0) return false;
    const address = env.addresses4.get(typeof remote === 'string' ? remote : '');
    if (address === null) return false;
    for (let i = 0; i < ranges.length; i++) if (isInSubnet(address, ranges[i]!)) return true;
    return false;
  };
}

function applicationHostname(parameters: Record<string, string>, env: RuleEnvironment): ContextPredicate {
  if (!parameters['hostNames'] || env.hostname === undefined) return NEVER;
  return parameters['hostNames'].toLowerCase().split(LIST_SEPARATOR).includes(env.hostname) ? ALWAYS : NEVER;
}

const RULES: Readonly<
  Record<string, (parameters: Record<string, string>, env: RuleEnvironment) => ContextPredicate>
> = {
  default: () => ALWAYS,
  flexibleRollout,
  userWithId,
  gradualRolloutUserId: (parameters) => gradualRollout(parameters, 'userId'),
  gradualRolloutSessionId: (parameters) => gradualRollout(parameters, 'sessionId'),
  gradualRolloutRandom,
  remoteAddress,
  applicationHostname,
};

/** Compiles a built-in strategy's rule; `undefined` for a strategy this evaluator does not know. */
export function compileStrategyRule(
  name: string,
  parameters: Record<string, string>,
  env: RuleEnvironment,
): ContextPredicate | undefined {
  const compile = Object.hasOwn(RULES, name) ? RULES[name] : undefined;
  return compile?.(parameters, env);
}
