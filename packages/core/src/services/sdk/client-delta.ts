import type {
  ClientConstraint,
  ClientFeature,
  ClientSegment,
  ClientStrategy,
} from '../../evaluation/client-features.js';
import { isDisabledStrategy, offByDisabledStrategies } from '../../evaluation/disabled-strategies.js';
import { JsonFragment } from './client-payloads.js';
import type { EnvironmentSnapshot } from './evaluator-cache.js';

/** How many revisions of changes each environment keeps for delta clients (older ones hydrate). */
export const DEFAULT_DELTA_WINDOW = 100;

/** One feature as SDKs get it, serialized once per revision it changed in. */
export class FeatureEntry extends JsonFragment {
  readonly name: string;
  readonly project: string;
  /** The payload object it was serialized from: the next revision reuses the entry while it is the same. */
  readonly source: ClientFeature;

  constructor(source: ClientFeature) {
    super(JSON.stringify(withoutDisabledStrategies(source)));
    this.name = source.name;
    this.project = source.project ?? 'default';
    this.source = source;
  }
}

/** What changed in one feature between two revisions; `json` null when it is gone. */
export interface FeatureChange {
  name: string;
  /** Its project before and after: moving out of a token's projects is a removal for that token. */
  before: string | null;
  after: string | null;
  json: string | null;
}

export interface SegmentChange {
  id: number;
  json: string | null;
}

/** The changes that lead to revision `eventId` from the revision before it in this process. */
export interface DeltaEntry {
  eventId: number;
  features: FeatureChange[];
  segments: SegmentChange[];
}

/** One environment as SDKs see it at one revision, with the changes that led there. */
export interface DeltaState {
  environment: string;
  revision: number;
  /** The oldest revision a client may hold and still get changes instead of a hydration. */
  baseline: number;
  /** In the order of the client API's feature list. */
  features: Map<string, FeatureEntry>;
  /** Segment id → its JSON. */
  segments: Map<number, string>;
  entries: DeltaEntry[];
}

/**
 * SDKs never see disabled strategies; a feature whose strategies are all disabled is sent as off
 * (`offByDisabledStrategies`), since SDKs would take an enabled feature with none as on.
 */
export const withoutDisabledStrategies = (f: ClientFeature): ClientFeature => ({
  ...f,
  enabled: f.enabled && !offByDisabledStrategies(f.strategies, isDisabledStrategy),
  strategies: f.strategies.filter((s) => !isDisabledStrategy(s)).map(sdkStrategy),
});

/**
 * A strategy as SDKs get it: what only says "default" is left out (a null title, no segments,
 * constraints that are neither inverted nor case-insensitive) and so is `sortOrder`, as the
 * reference does: strategies are listed in evaluation order. About a quarter fewer bytes on every
 * payload, delta and stream frame, with the same meaning to every SDK.
 */
function sdkStrategy({ disabled: _d, sortOrder: _o, title, segments, constraints, ...rest }: ClientStrategy) {
  return {
    ...rest,
    ...(title ? { title } : {}),
    constraints: constraints.map(sdkConstraint),
    ...(segments?.length ? { segments } : {}),
  };
}

const sdkConstraint = ({ caseInsensitive, inverted, ...rest }: ClientConstraint): ClientConstraint => ({
  ...rest,
  ...(caseInsensitive ? { caseInsensitive } : {}),
  ...(inverted ? { inverted } : {}),
});

const segmentJson = (s: ClientSegment): string =>
  JSON.stringify({ id: s.id, name: s.name, constraints: s.constraints.map(sdkConstraint) });

/**
 * The SDK form of every feature and segment. A feature whose payload object is the one `previous`
 * serialized (the evaluator cache re-reads only what events name, and keeps the other objects) keeps
 * its entry: a change to one of 50,000 features serializes one.
 */
function entriesOf(
  snapshot: EnvironmentSnapshot,
  previous: DeltaState | undefined,
): {
  features: Map<string, FeatureEntry>;
  segments: Map<number, string>;
  serialized: FeatureEntry[];
} {
  const features = new Map<string, FeatureEntry>();
  const serialized: FeatureEntry[] = [];
  for (const f of snapshot.payload.features) {
    const kept = previous?.features.get(f.name);
    if (kept !== undefined && kept.source === f) {
      features.set(f.name, kept);
      continue;
    }
    const entry = new FeatureEntry(f);
    features.set(f.name, entry);
    serialized.push(entry);
  }
  const segments = new Map<number, string>();
  for (const s of snapshot.payload.segments ?? []) segments.set(s.id, segmentJson(s));
  return { features, segments, serialized };
}

/**
 * The features a patch re-read, applied to `previous`'s map in place: work for the changed features
 * alone, so a stream hears of a change to one of 50,000 features without a pass over the others.
 * Null when it cannot be: the snapshot was not patched from `previous`'s revision, or a feature is
 * new to the map (only a rebuild puts it in its place in the order).
 */
function patchInPlace(
  previous: DeltaState,
  snapshot: EnvironmentSnapshot,
): { features: Map<string, FeatureEntry>; changes: FeatureChange[] } | null {
  const patch = snapshot.patch;
  if (!patch || patch.since !== previous.revision) return null;
  for (const [name, fresh] of patch.features) if (fresh && !previous.features.has(name)) return null;
  const { features } = previous;
  const changes: FeatureChange[] = [];
  for (const [name, fresh] of patch.features) {
    const old = features.get(name);
    if (!fresh) {
      if (!old) continue;
      features.delete(name);
      changes.push({ name, before: old.project, after: null, json: null });
      continue;
    }
    // Kept even when its JSON is the same: the next revision reuses entries by payload object.
    const entry = new FeatureEntry(fresh);
    features.set(name, entry);
    if (old?.json !== entry.json)
      changes.push({ name, before: old?.project ?? null, after: entry.project, json: entry.json });
  }
  return { features, changes };
}

/**
 * Keeps, per environment, the SDK form of every feature and a bounded window of changes between the
 * revisions this process saw. Changes are found by comparing serialized features, so whatever event
 * type caused them (a project move, an environment switched off) they reach delta clients.
 */
export function createDeltaLog(options: { window?: number } = {}) {
  const window = Math.max(1, options.window ?? DEFAULT_DELTA_WINDOW);
  const states = new Map<string, DeltaState>();

  function advance(snapshot: EnvironmentSnapshot): DeltaState {
    const previous = states.get(snapshot.environment);
    if (previous && previous.revision >= snapshot.revision) return previous;
    const patched = previous ? patchInPlace(previous, snapshot) : null;
    if (previous && patched) {
      const segments = new Map<number, string>();
      for (const s of snapshot.payload.segments ?? []) segments.set(s.id, segmentJson(s));
      return record(previous, snapshot, patched.features, segments, patched.changes);
    }
    const { features, segments, serialized } = entriesOf(snapshot, previous);
    if (!previous) {
      const state: DeltaState = {
        environment: snapshot.environment,
        revision: snapshot.revision,
        baseline: snapshot.revision,
        features,
        segments,
        entries: [],
      };
      states.set(snapshot.environment, state);
      return state;
    }
    const featureChanges: FeatureChange[] = [];
    // Only a feature serialized anew can differ; a kept entry is the previous one.
    for (const entry of serialized) {
      const old = previous.features.get(entry.name);
      if (old?.json === entry.json) continue;
      featureChanges.push({
        name: entry.name,
        before: old?.project ?? null,
        after: entry.project,
        json: entry.json,
      });
    }
    if (features.size !== previous.features.size + featureChanges.filter((c) => c.before === null).length)
      for (const [name, old] of previous.features) {
        if (!features.has(name)) featureChanges.push({ name, before: old.project, after: null, json: null });
      }
    return record(previous, snapshot, features, segments, featureChanges);
  }

  /** The state at the snapshot's revision, with its changes from `previous` in the window. */
  function record(
    previous: DeltaState,
    snapshot: EnvironmentSnapshot,
    features: Map<string, FeatureEntry>,
    segments: Map<number, string>,
    featureChanges: FeatureChange[],
  ): DeltaState {
    const segmentChanges: SegmentChange[] = [];
    for (const [id, json] of segments) {
      if (previous.segments.get(id) !== json) segmentChanges.push({ id, json });
    }
    for (const id of previous.segments.keys()) {
      if (!segments.has(id)) segmentChanges.push({ id, json: null });
    }
    const entries = [...previous.entries];
    if (featureChanges.length > 0 || segmentChanges.length > 0) {
      entries.push({ eventId: snapshot.revision, features: featureChanges, segments: segmentChanges });
    }
    let baseline = previous.baseline;
    // A client at or past a dropped entry's revision still gets everything after it.
    while (entries.length > window) baseline = entries.shift()?.eventId ?? baseline;
    const state: DeltaState = {
      environment: snapshot.environment,
      revision: snapshot.revision,
      baseline,
      features,
      segments,
      entries,
    };
    states.set(snapshot.environment, state);
    return state;
  }

  return {
    /** The state of the snapshot's environment at its revision (an older snapshot gets the newer state). */
    advance,
    /** The state last reached for an environment, if any. */
    peek: (environment: string): DeltaState | undefined => states.get(environment),
  };
}

export type DeltaLog = ReturnType<typeof createDeltaLog>;

/** Which features one request may see: a token's projects and the SDK's own filters. */
export interface FeatureFilter {
  /** `null`: every project. */
  projects: ReadonlySet<string> | null;
  queryProjects: ReadonlySet<string> | null;
  namePrefix: string | undefined;
}

export const passes = (filter: FeatureFilter, name: string, project: string | null): boolean =>
  project !== null &&
  (filter.projects === null || filter.projects.has(project)) &&
  (filter.queryProjects === null || filter.queryProjects.has(project)) &&
  (filter.namePrefix === undefined || name.startsWith(filter.namePrefix));

/**
 * The delta events a client at revision `since` needs, as JSON texts, or null when its revision is
 * older than the window (it needs a hydration). Segments go to every client, as the reference does.
 */
export function deltaEventsSince(state: DeltaState, since: number, filter: FeatureFilter): string[] | null {
  if (since < state.baseline) return null;
  const events: string[] = [];
  for (const entry of state.entries) {
    if (entry.eventId <= since) continue;
    for (const s of entry.segments) {
      events.push(
        s.json === null
          ? `{"type":"segment-removed","eventId":${entry.eventId},"segmentId":${s.id}}`
          : `{"type":"segment-updated","eventId":${entry.eventId},"segment":${s.json}}`,
      );
    }
    for (const f of entry.features) {
      if (f.json !== null && passes(filter, f.name, f.after)) {
        events.push(`{"type":"feature-updated","eventId":${entry.eventId},"feature":${f.json}}`);
      } else if (passes(filter, f.name, f.before)) {
        events.push(
          `{"type":"feature-removed","eventId":${entry.eventId},"featureName":${JSON.stringify(f.name)},"project":${JSON.stringify(f.before)}}`,
        );
      }
    }
  }
  return events;
}
