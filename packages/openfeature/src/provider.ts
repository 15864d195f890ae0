import type { CompiledFeatureSet, Flagstaff } from '@flagstaff/core';
import {
  type EvaluationContext,
  type JsonValue,
  OpenFeatureEventEmitter,
  type Provider,
  ProviderEvents,
  type ResolutionDetails,
} from '@openfeature/server-sdk';
import { toUnleashContext } from './context.js';
import { booleanDetails, evaluate, type PayloadKind, payloadDetails } from './resolve.js';

export interface FlagstaffProviderOptions {
  /** The environment whose configuration is evaluated (e.g. `production`). */
  environment: string;
}

/** A provider that also says which environment it evaluates. */
export type FlagstaffProvider = Provider & { readonly environment: string };

/** Names of the features whose configuration differs between two compiled sets. */
function changedFlags(before: CompiledFeatureSet, after: CompiledFeatureSet): string[] {
  const changed = new Set<string>();
  for (const feature of after.features) {
    const old = before.get(feature.name);
    if (!old || JSON.stringify(old.source) !== JSON.stringify(feature.source)) changed.add(feature.name);
  }
  for (const feature of before.features) if (!after.get(feature.name)) changed.add(feature.name);
  return [...changed].sort();
}

/**
 * An OpenFeature server provider over Flagstaff's in-process evaluator: no HTTP, the compiled
 * configuration of one environment. Where the store announces appended events, the compiled set is
 * held and replaced when the configuration changes (with PROVIDER_CONFIGURATION_CHANGED); otherwise
 * each evaluation asks for the current one (one cheap revision check).
 */
export function createFlagstaffProvider(
  flagstaff: Flagstaff,
  options: FlagstaffProviderOptions,
): FlagstaffProvider {
  const { environment } = options;
  const events = new OpenFeatureEventEmitter();
  let current: CompiledFeatureSet | undefined;
  let unsubscribe: (() => void) | undefined;
  let refreshing: Promise<void> | undefined;
  let again = false;

  /** Loads the current set; announces a change when it is not the one held. */
  async function refresh(): Promise<CompiledFeatureSet> {
    const next = await flagstaff.client.evaluator(environment);
    const before = current;
    current = next;
    if (before && before !== next) {
      const flagsChanged = changedFlags(before, next);
      if (flagsChanged.length > 0) events.emit(ProviderEvents.ConfigurationChanged, { flagsChanged });
    }
    return next;
  }

  // Notices can come in bursts: one refresh at a time, and one more if any arrived meanwhile.
  function onAppended(): void {
    if (refreshing) {
      again = true;
      return;
    }
    refreshing = refresh()
      .then(
        () => undefined,
        (error: unknown) => {
          events.emit(ProviderEvents.Error, {
            message: `Could not reload the configuration: ${String(error)}`,
          });
        },
      )
      .finally(() => {
        refreshing = undefined;
        if (again) {
          again = false;
          onAppended();
        }
      });
  }

  const compiled = async (): Promise<CompiledFeatureSet> => (unsubscribe && current ? current : refresh());

  async function resolvePayload<T extends JsonValue>(
    kind: PayloadKind,
    flagKey: string,
    defaultValue: T,
    context: EvaluationContext,
  ): Promise<ResolutionDetails<T>> {
    const set = await compiled();
    const unleashContext = toUnleashContext(context);
    return payloadDetails(kind, evaluate(set.get(flagKey), flagKey, unleashContext), flagKey, defaultValue);
  }

  return {
    metadata: { name: 'flagstaff' },
    runsOn: 'server',
    environment,
    events,
    async initialize() {
      await refresh();
      unsubscribe = flagstaff.store.onEventsAppended?.(onAppended);
    },
    async onClose() {
      unsubscribe?.();
      unsubscribe = undefined;
      await refreshing;
    },
    async resolveBooleanEvaluation(flagKey, _defaultValue, context) {
      const set = await compiled();
      return booleanDetails(evaluate(set.get(flagKey), flagKey, toUnleashContext(context)));
    },
    resolveStringEvaluation: (flagKey, defaultValue, context) =>
      resolvePayload('string', flagKey, defaultValue, context),
    resolveNumberEvaluation: (flagKey, defaultValue, context) =>
      resolvePayload('number', flagKey, defaultValue, context),
    resolveObjectEvaluation: (flagKey, defaultValue, context) =>
      resolvePayload('object', flagKey, defaultValue, context),
  };
}
