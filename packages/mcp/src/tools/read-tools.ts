import {
  FEATURE_SEARCH_MAX_LIMIT,
  featureNameSchema,
  featureTypeSchema,
  isPotentiallyStale,
  playgroundRequestSchema,
} from '@flagstaff/core';
import { z } from 'zod';
import { defineTool, projectOf } from './define.js';
import { environmentsLine, featureShape } from './shape.js';

const projectArg = z
  .string()
  .min(1)
  .optional()
  .describe('The project id; found from the flag name when left out');

export const listFlags = defineTool({
  name: 'list_flags',
  title: 'List or search flags',
  description:
    'Lists live feature flags you may see, newest first, with their state per environment. Narrow with a ' +
    'free-text query (any of comma-separated words in the name, description or tags), a project, a type ' +
    'or a state. Pages with limit and offset; "total" counts every match.',
  input: z.object({
    query: z.string().max(1000).optional().describe('Words to look for, comma-separated (any may match)'),
    project: z.string().min(1).optional().describe('Only flags of this project'),
    type: featureTypeSchema.optional().describe('Only flags of this type'),
    state: z.enum(['active', 'stale']).optional().describe('Only flags marked stale, or only the others'),
    limit: z.number().int().min(1).max(FEATURE_SEARCH_MAX_LIMIT).default(50),
    offset: z.number().int().min(0).default(0),
  }),
  hints: { readOnlyHint: true },
  async run(backend, args) {
    const params: Record<string, string> = { limit: String(args.limit), offset: String(args.offset) };
    if (args.query) params.query = args.query;
    if (args.project) params.project = `IS:${args.project}`;
    if (args.type) params.type = `IS:${args.type}`;
    if (args.state) params.state = `IS:${args.state}`;
    const { features, total } = await backend.searchFeatures(params);
    return {
      summary: `${features.length} of ${total} matching flags`,
      data: {
        total,
        flags: features.map((f) => ({
          name: f.name,
          project: f.project,
          type: f.type,
          description: f.description,
          stale: f.stale,
          createdAt: f.createdAt,
          lastSeenAt: f.lastSeenAt,
          lifecycle: f.lifecycle.stage,
          environments: f.environments.map((e) => ({ name: e.name, enabled: e.enabled })),
        })),
      },
    };
  },
});

export const getFlag = defineTool({
  name: 'get_flag',
  title: 'Get a flag',
  description:
    'One flag with its configuration in every environment of its project: on or off, strategies (with ' +
    'their ids, parameters such as rollout percentage, constraints and segments) and variants.',
  input: z.object({ name: featureNameSchema.describe('The flag name'), project: projectArg }),
  hints: { readOnlyHint: true },
  async run(backend, { name, project }) {
    const feature = await backend.getFeature(await projectOf(backend, name, project), name);
    return {
      summary: `${feature.name} (${feature.project}): ${environmentsLine(feature)}`,
      data: featureShape(feature),
    };
  },
});

export const evaluateFlags = defineTool({
  name: 'evaluate_flags',
  title: 'Evaluate flags for a context (playground)',
  description:
    'Evaluates flags in one environment for a context (userId, sessionId, remoteAddress, properties…), ' +
    'as an SDK would, without changing anything. With "flags", only those are reported, with the result ' +
    'of each strategy; otherwise every flag of the projects, with its result and variant.',
  input: playgroundRequestSchema.extend({
    flags: z.array(featureNameSchema).max(100).optional().describe('Only report these flags, with details'),
  }),
  hints: { readOnlyHint: true },
  async run(backend, { flags, ...request }) {
    const { features } = await backend.evaluate(request);
    const wanted = flags ? new Set(flags) : null;
    const shown = wanted ? features.filter((f) => wanted.has(f.name)) : features;
    return {
      summary: `${shown.filter((f) => f.isEnabled).length} of ${shown.length} flags enabled in ${request.environment}`,
      data: {
        environment: request.environment,
        flags: shown.map((f) => ({
          name: f.name,
          project: f.projectId,
          enabled: f.isEnabled,
          enabledInEnvironment: f.isEnabledInCurrentEnvironment,
          variant: f.variant
            ? { name: f.variant.name, enabled: f.variant.enabled, payload: f.variant.payload }
            : null,
          hasUnsatisfiedDependency: f.hasUnsatisfiedDependency,
          ...(wanted
            ? {
                strategies: f.strategies.data.map((s) => ({
                  id: s.id,
                  name: s.name,
                  title: s.title,
                  result: s.result,
                  parameters: s.parameters,
                  constraints: s.constraints,
                  segments: s.segments,
                })),
              }
            : {}),
        })),
        ...(wanted ? { unknownFlags: [...wanted].filter((n) => !features.some((f) => f.name === n)) } : {}),
      },
    };
  },
});

const DAY_MS = 24 * 60 * 60 * 1000;

export const listStaleFlags = defineTool({
  name: 'list_stale_flags',
  title: 'List stale and potentially stale flags',
  description:
    'Flags to clean up: those marked stale, and those potentially stale (older than the expected ' +
    'lifetime of their type, e.g. 40 days for a release flag; kill switches and permissions never are). ' +
    'Use cleanup_flag on one to remove it from the code.',
  input: z.object({ project: z.string().min(1).optional().describe('Only this project') }),
  hints: { readOnlyHint: true },
  async run(backend, { project }) {
    const [features, lifetimes] = await Promise.all([
      backend.listFeatures(project),
      backend.featureTypeLifetimes(),
    ]);
    const now = Date.now();
    const row = (f: (typeof features)[number]) => ({
      name: f.name,
      project: f.project,
      type: f.type,
      createdAt: f.createdAt,
      lastSeenAt: f.lastSeenAt,
      ageDays: f.createdAt ? Math.floor((now - Date.parse(f.createdAt)) / DAY_MS) : null,
      expectedLifetimeDays: lifetimes[f.type] ?? null,
      environments: f.environments.map((e) => ({ name: e.name, enabled: e.enabled })),
    });
    const stale = features.filter((f) => f.stale);
    const potentially = features.filter(
      (f) => f.createdAt !== null && isPotentiallyStale({ ...f, createdAt: f.createdAt }, now, lifetimes),
    );
    return {
      summary: `${stale.length} stale and ${potentially.length} potentially stale flags`,
      data: { stale: stale.map(row), potentiallyStale: potentially.map(row) },
    };
  },
});
