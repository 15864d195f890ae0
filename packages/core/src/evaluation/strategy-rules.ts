// The built-in activation strategies of unleash-client 6.x, compiled from their parameters once.
// Each returns the strategy's own rule; constraints and segments are AND-ed in by the caller.
import { ALWAYS, allOf, type ContextPredicate, NEVER } from './compile-constraint.js';
import { type EvaluationContext, resolveContextValue } from './evaluation-context.js';
import type { ParsedAddress } from './ip-address-match.js';
import { isInSubnet, parseAddress4 } from './ip-address-match.js';
import { hashWithPrefix, murmurHash3, prefixHashState, STRATEGY_SEED } from './murmur-hash.js';
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

function randomFlexibleId(): string {
  return String(Math.round(Math.random() * 10000) + 1);
}

// Where a rollout reads its sticky id: flexibleRollout's `default` is userId, then sessionId, then a
// random id; `userId`/`sessionId` here are the raw fields gradualRollout* read (no properties).
type StickyId = (context: EvaluationContext) => string | undefined;
const STICKY_IDS: Readonly<Record<string, StickyId>> = {
  default: (context) => {
    const id = context.userId || context.sessionId || randomFlexibleId();
    return typeof id === 'string' ? id : String(id);
  },
  random: randomFlexibleId,
  userId: ({ userId }) => (userId ? String(userId) : undefined),
  sessionId: ({ sessionId }) => (sessionId ? String(sessionId) : undefined),
};

/**
 * A rollout: the sticky id's bucket (1–100) in `groupId`, compared with the percentage exactly as the
 * SDK does. With a known group the `${groupId}:` prefix is hashed once; without one (flexibleRollout
 * with no groupId) the SDK's `context.featureToggle || ''` is read and hashed per call. The gate
 * (constraints and segments) is fused in: the most common strategy then costs one closure call.
 */
function rollout(
  groupId: string | null,
  percentage: number,
  stickyId: StickyId,
  gate: ContextPredicate,
): ContextPredicate {
  if (!(percentage > 0) || gate === NEVER) return NEVER;
  if (groupId === null) {
    return allOf([
      gate,
      (context) => {
        const id = stickyId(context);
        const group = context['featureToggle'];
        return (
          !!id && (murmurHash3(`${group ? String(group) : ''}:${id}`, STRATEGY_SEED) % 100) + 1 <= percentage
        );
      },
    ]);
  }
  const prefix = prefixHashState(`${groupId}:`, STRATEGY_SEED);
  if (gate === ALWAYS) {
    return (context) => {
      const id = stickyId(context);
      return !!id && (hashWithPrefix(prefix, id) % 100) + 1 <= percentage;
    };
  }
  return (context) => {
    if (!gate(context)) return false;
    const id = stickyId(context);
    return !!id && (hashWithPrefix(prefix, id) % 100) + 1 <= percentage;
  };
}

function flexibleRollout(
  parameters: Record<string, string>,
  _: RuleEnvironment,
  gate: ContextPredicate,
): ContextPredicate {
  const stickiness = parameters['stickiness'] || 'default';
  const stickyId: StickyId =
    stickiness === 'default' || stickiness === 'random'
      ? STICKY_IDS[stickiness]!
      : (context) => resolveContextValue(context, stickiness);
  return rollout(parameters['groupId'] || null, Number(parameters['rollout']), stickyId, gate);
}

function gradualRollout(
  parameters: Record<string, string>,
  field: 'userId' | 'sessionId',
  gate: ContextPredicate,
): ContextPredicate {
  return rollout(parameters['groupId'] || '', Number(parameters['percentage']), STICKY_IDS[field]!, gate);
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
  // As in the SDK: each entry matches verbatim, or as an IPv4 address/range (this strategy knows no IPv6).
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

type RuleCompiler = (
  parameters: Record<string, string>,
  env: RuleEnvironment,
  gate: ContextPredicate,
) => ContextPredicate;

// Rules without a fused form run after the gate.
const gated =
  (compile: (parameters: Record<string, string>, env: RuleEnvironment) => ContextPredicate): RuleCompiler =>
  (parameters, env, gate) =>
    allOf([gate, compile(parameters, env)]);

const RULES: Readonly<Record<string, RuleCompiler>> = {
  default: gated(() => ALWAYS),
  flexibleRollout,
  userWithId: gated(userWithId),
  gradualRolloutUserId: (parameters, _, gate) => gradualRollout(parameters, 'userId', gate),
  gradualRolloutSessionId: (parameters, _, gate) => gradualRollout(parameters, 'sessionId', gate),
  gradualRolloutRandom: gated(gradualRolloutRandom),
  remoteAddress: gated(remoteAddress),
  applicationHostname: gated(applicationHostname),
};

/**
 * Compiles a built-in strategy's rule AND-ed after `gate` (its constraints and segments; omit it for
 * the bare rule); `undefined` for a strategy this evaluator does not know.
 */
export function compileStrategyRule(
  name: string,
  parameters: Record<string, string>,
  env: RuleEnvironment,
  gate: ContextPredicate = ALWAYS,
): ContextPredicate | undefined {
  const compile = Object.hasOwn(RULES, name) ? RULES[name] : undefined;
  return compile?.(parameters, env, gate);
}
