// The API's own validation rules, reused from @flagstaff/core's zod schemas (its domain modules use
// only zod; the bundler drops the rest of core). One place to change if core grows a browser entry.
export {
  CONSTRAINT_OPERATORS,
  compileNamingPattern,
  constraintSchema,
  contextFieldSchema,
  createApiTokenSchema,
  createEnvironmentSchema,
  createFeatureSchema,
  createProjectSchema,
  EDITOR_ROOT_PERMISSIONS,
  EVENT_TYPES,
  FEATURE_TYPES,
  isEnvironmentPermission,
  isProjectPermission,
  LIFECYCLE_STAGES,
  segmentInputSchema,
  strategyConfigSchema,
  tagSchema,
  tagTypeSchema,
  variantSchema,
} from '@flagstaff/core';
