import type {
  FeatureSearchResult,
  FeatureStrategy,
  FeatureView,
  PlaygroundResponse,
  StrategyConfigInput,
} from '@flagstaff/core';

/** Where a strategy lives: project, feature, environment. */
export interface StrategyAt {
  project: string;
  feature: string;
  environment: string;
}

/**
 * What the MCP tools need of Flagstaff. Implemented twice — in-process over the facade with the
 * request's caller (`/mcp`), and over the admin HTTP API with a token (`flagstaff mcp`) — so each
 * tool's input schema, permissions story and result shaping is written once, in `tools/`.
 * Every method obeys its caller's permissions; refusals surface as errors naming the permission.
 */
export interface FlagBackend {
  /** The feature table search: `params` are the query parameters of GET /api/admin/search/features. */
  searchFeatures(params: Record<string, string>): Promise<FeatureSearchResult>;
  /** Live features of a project, or of every project the caller may see. */
  listFeatures(project?: string): Promise<FeatureView[]>;
  getFeature(project: string, name: string): Promise<FeatureView>;
  createFeature(project: string, input: unknown): Promise<FeatureView>;
  setEnabled(project: string, name: string, environment: string, enabled: boolean): Promise<void>;
  listStrategies(at: StrategyAt): Promise<FeatureStrategy[]>;
  addStrategy(at: StrategyAt, config: StrategyConfigInput): Promise<FeatureStrategy>;
  updateStrategy(at: StrategyAt, id: string, config: StrategyConfigInput): Promise<FeatureStrategy>;
  /** The playground: every feature of the projects evaluated for one context in one environment. */
  evaluate(input: unknown): Promise<PlaygroundResponse>;
  /** Expected lifetime in days per feature type (null: never potentially stale). */
  featureTypeLifetimes(): Promise<Record<string, number | null>>;
  archiveFeature(project: string, name: string): Promise<void>;
}
