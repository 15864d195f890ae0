// The feature types and lifecycle stages, apart from feature.ts's zod schemas (and free of zod): the
// admin UI's project page lists them in its filters without loading zod and the schemas.

export const FEATURE_TYPES = ['release', 'experiment', 'operational', 'kill-switch', 'permission'] as const;

export const LIFECYCLE_STAGES = ['initial', 'pre-live', 'live', 'completed', 'archived'] as const;
export type LifecycleStage = (typeof LIFECYCLE_STAGES)[number];
