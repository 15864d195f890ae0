import type { FeatureStrategy } from '@flagstaff/core';
import { constraintSchema, createFeatureSchema, featureNameSchema } from '@flagstaff/core';
import { z } from 'zod';
import { defineTool, projectOf, ToolError } from './define.js';
import { environmentsLine, featureShape, strategyShape } from './shape.js';

// Change requests do not exist in Flagstaff yet: every write tool says it acts at once.
const DIRECTLY = 'It acts directly (there are no change requests to approve), as the API would for you.';

const projectArg = z
  .string()
  .min(1)
  .optional()
  .describe('The project id; found from the flag name when left out');

export const createFlag = defineTool({
  name: 'create_flag',
  title: 'Create a flag',
  description:
    'Creates a feature flag in a project (default: "default"), off in every environment. Needs the ' +
    `CREATE_FEATURE permission in the project. ${DIRECTLY}`,
  input: createFeatureSchema.extend({
    project: z.string().min(1).default('default').describe('The project id'),
  }),
  hints: { readOnlyHint: false, destructiveHint: false, idempotentHint: false },
  async run(backend, { project, ...input }) {
    const feature = await backend.createFeature(project, input);
    return { summary: `Created ${feature.name} in project ${feature.project}`, data: featureShape(feature) };
  },
});

export const setFlagEnabled = defineTool({
  name: 'set_flag_enabled',
  title: 'Turn a flag on or off in an environment',
  description:
    'Turns a flag on ("enabled": true) or off in one environment. Turning on an environment without ' +
    'strategies adds the project default strategy (everyone). Needs UPDATE_FEATURE_ENVIRONMENT in that ' +
    `environment. ${DIRECTLY}`,
  input: z.object({
    name: featureNameSchema.describe('The flag name'),
    project: projectArg,
    environment: z.string().min(1).describe('The environment, e.g. development or production'),
    enabled: z.boolean().describe('true turns it on, false off'),
  }),
  hints: { readOnlyHint: false, destructiveHint: false, idempotentHint: true },
  async run(backend, { name, project, environment, enabled }) {
    const at = await projectOf(backend, name, project);
    await backend.setEnabled(at, name, environment, enabled);
    const feature = await backend.getFeature(at, name);
    return {
      summary: `${name} is now ${enabled ? 'on' : 'off'} in ${environment}; ${environmentsLine(feature)}`,
      data: featureShape(feature),
    };
  },
});

/** The one gradual rollout a call without `strategyId` updates: the only flexibleRollout there is. */
function rolloutToUpdate(strategies: FeatureStrategy[], id: string | undefined): FeatureStrategy | null {
  if (id !== undefined) {
    const found = strategies.find((s) => s.id === id);
    if (!found) throw new ToolError(`"strategyId": no strategy "${id}" in this flag environment.`);
    return found;
  }
  const rollouts = strategies.filter((s) => s.name === 'flexibleRollout');
  if (rollouts.length > 1)
    throw new ToolError(
      `"strategyId": this environment has ${rollouts.length} gradual rollouts (${rollouts
        .map((s) => s.id)
        .join(', ')}); name the one to change.`,
    );
  return rollouts[0] ?? null;
}

export const setRollout = defineTool({
  name: 'set_rollout',
  title: 'Add or update a gradual rollout',
  description:
    'Sets a gradual rollout (the flexibleRollout strategy) of a flag in one environment: the percentage ' +
    'of users, the stickiness (which context field keeps a user in or out, default "default") and the ' +
    'group id (users are bucketed per group; default the flag name). Updates the rollout there is (or ' +
    '"strategyId"), else adds one. Constraints, when given, replace the old ones. It does not turn the ' +
    `environment on: use set_flag_enabled. Needs UPDATE_FEATURE_STRATEGY (CREATE_FEATURE_STRATEGY to add). ${DIRECTLY}`,
  input: z.object({
    name: featureNameSchema.describe('The flag name'),
    project: projectArg,
    environment: z.string().min(1).describe('The environment, e.g. production'),
    rollout: z.number().int().min(0).max(100).describe('Percentage of users, 0 to 100'),
    stickiness: z
      .string()
      .min(1)
      .optional()
      .describe('default, userId, sessionId, random or a context field'),
    groupId: z.string().min(1).optional().describe('Bucketing group; default the flag name'),
    constraints: z.array(constraintSchema).optional().describe('Only contexts matching all of these'),
    title: z.string().max(200).optional(),
    strategyId: z
      .string()
      .min(1)
      .optional()
      .describe('The rollout strategy to update, when there are several'),
  }),
  hints: { readOnlyHint: false, destructiveHint: false, idempotentHint: true },
  async run(backend, args) {
    const at = {
      project: await projectOf(backend, args.name, args.project),
      feature: args.name,
      environment: args.environment,
    };
    const existing = rolloutToUpdate(await backend.listStrategies(at), args.strategyId);
    const parameters = {
      rollout: String(args.rollout),
      stickiness: args.stickiness ?? existing?.parameters.stickiness ?? 'default',
      groupId: args.groupId ?? existing?.parameters.groupId ?? args.name,
    };
    const config = {
      name: 'flexibleRollout',
      title: args.title ?? existing?.title ?? null,
      disabled: existing?.disabled ?? false,
      constraints: args.constraints ?? existing?.constraints ?? [],
      segments: existing?.segments ?? [],
      variants: existing?.variants ?? [],
      parameters,
    };
    const saved = existing
      ? await backend.updateStrategy(at, existing.id, config)
      : await backend.addStrategy(at, config);
    return {
      summary: `${existing ? 'Updated' : 'Added'} a ${args.rollout}% rollout of ${args.name} in ${args.environment}`,
      data: { action: existing ? 'updated' : 'added', strategy: strategyShape(saved) },
    };
  },
});
