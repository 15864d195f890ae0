import type { Caller } from '../../auth/caller.js';
import type { ActionSet, SignalEndpoint } from '../../domain/signal.js';
import type { ServiceDeps } from '../deps.js';
import { createFeatureEnvironmentService } from '../features/feature-environment-service.js';
import { createStrategyService } from '../features/strategy-service.js';

/** The parameters each action needs in `executionParams`. */
export const ACTION_PARAMS: Record<string, readonly string[]> = {
  TOGGLE_FEATURE_ON: ['project', 'featureName', 'environment'],
  TOGGLE_FEATURE_OFF: ['project', 'featureName', 'environment'],
  ENABLE_FEATURE_STRATEGY: ['project', 'featureName', 'environment', 'strategyId'],
  DISABLE_FEATURE_STRATEGY: ['project', 'featureName', 'environment', 'strategyId'],
};

/** A payload value by key; a dotted key reaches into nested objects when no top-level key has that name. */
function payloadValue(payload: unknown, key: string): unknown {
  if (payload === null || typeof payload !== 'object') return undefined;
  const record = payload as Record<string, unknown>;
  if (key in record) return record[key];
  let current: unknown = payload;
  for (const part of key.split('.')) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string, unknown>)[part];
  }
  return current;
}

const sameValue = (a: unknown, b: unknown): boolean =>
  a === b || (typeof a === 'object' && a !== null && JSON.stringify(a) === JSON.stringify(b));

/** Whether an action set reacts to this signal: same endpoint, every match key equal in the payload. */
export function actionSetMatches(set: ActionSet, endpoint: SignalEndpoint, payload: unknown): boolean {
  if (!set.enabled || set.match.source !== 'signal-endpoint' || set.match.sourceId !== endpoint.id)
    return false;
  return Object.entries(set.match.payload).every(([k, v]) => sameValue(payloadValue(payload, k), v));
}

export interface ActionResult {
  actionSetId: number;
  action: string;
  ok: boolean;
  error?: string;
}

/**
 * Runs the actions of matching action sets in sortOrder, each in its own transaction through the
 * feature-environment and strategy services, so signals change flags by the same rules (default
 * strategy on first enable, lifecycle, events only on change) as people do. A failing action is
 * logged and reported, and does not stop the others: the signal was already accepted.
 */
export function createSignalActionRunner(deps: ServiceDeps) {
  const featureEnvironments = createFeatureEnvironmentService(deps);
  const strategies = createStrategyService(deps);

  async function runAction(caller: Caller, action: ActionSet['actions'][number]): Promise<void> {
    const p = action.executionParams;
    const project = p['project']!;
    const feature = p['featureName']!;
    const environment = p['environment']!;
    switch (action.action) {
      case 'TOGGLE_FEATURE_ON':
      case 'TOGGLE_FEATURE_OFF':
        return featureEnvironments.setEnabled(
          caller,
          project,
          feature,
          environment,
          action.action === 'TOGGLE_FEATURE_ON',
        );
      case 'ENABLE_FEATURE_STRATEGY':
      case 'DISABLE_FEATURE_STRATEGY': {
        const at = { project, feature, environment };
        const disabled = action.action === 'DISABLE_FEATURE_STRATEGY';
        const current = await strategies.get(caller, at, p['strategyId']!);
        if (current.disabled === disabled) return;
        await strategies.patch(caller, at, current.id, [
          { op: 'replace', path: '/disabled', value: disabled },
        ]);
        return;
      }
    }
  }

  return async function runActions(endpoint: SignalEndpoint, payload: unknown): Promise<ActionResult[]> {
    const results: ActionResult[] = [];
    const sets = (await deps.store.signals.listActionSets()).filter((s) =>
      actionSetMatches(s, endpoint, payload),
    );
    for (const set of sets) {
      // Actions are Flagstaff acting on a signal it accepted, recorded as the action set's actor.
      const caller: Caller = {
        principal: { kind: 'system', name: `signal:${endpoint.name}` },
        actor: { name: `signal:${endpoint.name}`, userId: set.actorId },
      };
      for (const action of [...set.actions].sort((a, b) => a.sortOrder - b.sortOrder)) {
        try {
          await runAction(caller, action);
          results.push({ actionSetId: set.id, action: action.action, ok: true });
        } catch (error) {
          const message = error instanceof Error ? error.message : String(error);
          deps.logger.warn('signal action failed', {
            endpoint: endpoint.name,
            actionSetId: set.id,
            action: action.action,
            error: message,
          });
          results.push({ actionSetId: set.id, action: action.action, ok: false, error: message });
        }
      }
    }
    return results;
  };
}
