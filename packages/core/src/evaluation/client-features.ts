// The Unleash client-API feature format (`GET /api/client/features`): what the evaluator compiles and
// what the SDK-facing API serves. Field optionality follows what real servers send; the compiler still
// tolerates anything stored badly (missing lists, unknown operators, unparsable values).
import type { Override, Payload } from '../domain/variant.js';

/** A constraint as served to SDKs; `operator` stays a plain string so unknown operators survive. */
export interface ClientConstraint {
  contextName: string;
  operator: string;
  values?: string[];
  value?: string;
  caseInsensitive?: boolean;
  inverted?: boolean;
}

/** A variant attached to a strategy. */
export interface ClientStrategyVariant {
  name: string;
  weight: number;
  weightType?: 'variable' | 'fix';
  stickiness?: string;
  payload?: Payload;
}

/** A feature-environment variant; only these carry overrides. */
export interface ClientVariant extends ClientStrategyVariant {
  overrides?: Override[];
}

export interface ClientStrategy {
  id?: string;
  name: string;
  title?: string | null;
  /** Never sent to SDKs (disabled strategies are left out); kept for the playground. */
  disabled?: boolean | null;
  sortOrder?: number;
  parameters: Record<string, string>;
  constraints: ClientConstraint[];
  /** Ids of segments whose constraints are AND-ed in. */
  segments?: number[];
  variants?: ClientStrategyVariant[];
}

export interface ClientFeatureDependency {
  feature: string;
  /** `false` requires the parent to be off; default `true`. */
  enabled?: boolean;
  /** With `enabled`, the parent's variant must be one of these. */
  variants?: string[];
}

export interface ClientFeature {
  name: string;
  /** Whether the feature is on in the environment the payload was built for. */
  enabled: boolean;
  project?: string;
  type?: string;
  description?: string | null;
  stale?: boolean;
  impressionData?: boolean;
  strategies: ClientStrategy[];
  variants?: ClientVariant[] | null;
  dependencies?: ClientFeatureDependency[];
}

export interface ClientSegment {
  id: number;
  name?: string;
  constraints: ClientConstraint[];
}

/** Body of `GET /api/client/features`. */
export interface ClientFeatures {
  version?: number;
  features: ClientFeature[];
  segments?: ClientSegment[];
  query?: Record<string, unknown>;
  meta?: { revisionId?: number; etag?: string; queryHash?: string };
}

/** One event of the delta API (client specification suites 19–20). */
export type ClientFeaturesDeltaEvent =
  | { eventId: number; type: 'feature-updated'; feature: ClientFeature }
  | { eventId: number; type: 'feature-removed'; featureName: string; project?: string }
  | { eventId: number; type: 'segment-updated'; segment: ClientSegment }
  | { eventId: number; type: 'segment-removed'; segmentId: number }
  | { eventId: number; type: 'hydration'; features: ClientFeature[]; segments?: ClientSegment[] };
