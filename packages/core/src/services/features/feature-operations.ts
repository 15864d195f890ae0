import { z } from 'zod';
import type { FeatureEnvironmentRecord, FeatureRecord, UpdateFeatureInput } from '../../domain/feature.js';
import { updateFeatureSchema } from '../../domain/feature.js';
import {
  createProjectFeatureSchema,
  favoriteFeatureSchema,
  featureViewSchema,
  patchFeatureSchema,
  staleFeaturesSchema,
  updateProjectFeatureSchema,
} from '../../domain/feature-view.js';
import { parseWith } from '../../domain/parse.js';
import { conflict, FlagstaffError } from '../../errors.js';
import { defineOperation, type OperationContext } from '../../operations/define-operation.js';
import type { Repositories } from '../../ports/repositories.js';
import { nowIso } from '../deps.js';
import { type EventDraft, writeFeatureEvents } from '../events/event-writer.js';
import { requireProject } from '../projects/project-service.js';
import { archiveRecord, requireNoLiveChildrenLeft } from './feature-archive.js';
import { requireNamingPattern } from './feature-naming.js';
import { featureProjectScope } from './feature-read-operations.js';
import { assembleFeatureViews, buildFeatureViews } from './feature-view.js';
import { applyJsonPatch } from './json-patch.js';
import { requireFeatureWithTags } from './require-feature.js';
import { ensureTags } from './tag-service.js';

type FeatureEvents = Omit<EventDraft, 'featureName' | 'project'>[];

/**
 * Inserts a feature whose name must be free. The insert itself finds a taken name (no read first);
 * only then is the holder read, to say whether it is archived.
 */
async function insertNew(tx: Repositories, feature: FeatureRecord, environments: readonly string[]) {
  try {
    await tx.features.insert(feature, environments);
  } catch (error) {
    if (!(error instanceof FlagstaffError) || error.code !== 'CONFLICT') throw error;
    const existing = await tx.features.get(feature.name);
    throw conflict(
      `A feature named "${feature.name}" already exists${existing?.archivedAt ? ' in the archive' : ''}.`,
      'name',
    );
  }
}

/**
 * The events a metadata change writes: feature-metadata-updated only when the description, type or
 * impression data changed, since stale and archive changes have events of their own (marking a
 * feature stale once wrote two events), and a change that changes nothing writes none.
 */
function metadataEvents(before: FeatureRecord, after: FeatureRecord): FeatureEvents {
  const edited =
    before.description !== after.description ||
    before.type !== after.type ||
    before.impressionData !== after.impressionData;
  const events: FeatureEvents = edited
    ? [{ type: 'feature-metadata-updated', data: after, preData: before }]
    : [];
  if (before.stale !== after.stale)
    events.push({ type: after.stale ? 'feature-stale-on' : 'feature-stale-off' });
  if (before.archivedAt === null && after.archivedAt !== null) events.push({ type: 'feature-archived' });
  return events;
}

/** A metadata change of the feature in the path; a body naming another feature or project is refused. */
function metadataChange(body: UpdateFeatureInput, project: string, name: string, at: string) {
  if (body.name !== undefined && body.name !== name)
    throw new FlagstaffError(
      'VALIDATION',
      `"name" must be "${name}" (the feature in the path); features cannot be renamed.`,
      { path: 'name' },
    );
  if (body.project !== undefined && body.project !== project)
    throw new FlagstaffError(
      'VALIDATION',
      `"project" must be "${project}"; move features with the change-project operation.`,
      { path: 'project' },
    );
  return (f: FeatureRecord): FeatureRecord => {
    const archivedAt = body.archived === true ? (f.archivedAt ?? at) : f.archivedAt;
    return {
      ...f,
      description: body.description === undefined ? f.description : body.description,
      type: body.type ?? f.type,
      stale: body.stale ?? f.stale,
      impressionData: body.impressionData ?? f.impressionData,
      archivedAt,
      lifecycle:
        archivedAt && !f.archivedAt ? { stage: 'archived', enteredStageAt: archivedAt } : f.lifecycle,
    };
  };
}

/** Applies a change to a feature's record with its events; archiving takes the archive's own rule and links. */
async function updateRecord(
  { deps, repos, actor }: OperationContext<'write'>,
  project: string,
  name: string,
  change: (f: FeatureRecord) => FeatureRecord,
) {
  const { feature: before, tags } = await requireFeatureWithTags(repos, project, name);
  const after = change(before);
  const archiving = before.archivedAt === null && after.archivedAt !== null;
  if (archiving) await requireNoLiveChildrenLeft(repos, [name]);
  const archived = archiving ? await archiveRecord(repos, after, after.archivedAt!) : null;
  if (!archiving) await repos.features.update(after);
  await writeFeatureEvents(repos, actor, nowIso(deps), { feature: after, tags }, [
    ...metadataEvents(before, after),
    ...(archived?.events.filter((e) => e.type !== 'feature-archived') ?? []),
  ]);
  return (await buildFeatureViews(repos, [after], { userId: actor.userId }))[0]!;
}

/** Creates a feature, enforcing the project's naming pattern and feature limit (feature-created). */
export const createFeature = defineOperation({
  id: 'features.create',
  summary: 'Create a feature',
  kind: 'write',
  permission: 'CREATE_FEATURE',
  scope: featureProjectScope,
  input: createProjectFeatureSchema,
  output: featureViewSchema,
  run: async ({ project, ...body }, { deps, repos: tx, actor }) => {
    const proj = await requireProject(tx, project);
    requireNamingPattern(proj, body.name);
    if (proj.featureLimit !== null && (await tx.features.countLive(project)) >= proj.featureLimit)
      throw new FlagstaffError(
        'LIMIT_EXCEEDED',
        `Project "${project}" has reached its feature limit of ${proj.featureLimit}.`,
      );
    const at = nowIso(deps);
    const feature: FeatureRecord = {
      name: body.name,
      project,
      type: body.type,
      description: body.description ?? null,
      stale: false,
      impressionData: body.impressionData,
      createdAt: at,
      archivedAt: null,
      createdByUserId: actor.userId,
      lifecycle: { stage: 'initial', enteredStageAt: at },
    };
    const linked = await tx.commandReads.projectEnvironments(project);
    const links = linked.map((l) => l.link);
    await insertNew(
      tx,
      feature,
      links.map((link) => link.environment),
    );
    const tagEvents: FeatureEvents = [];
    for (const tag of body.tags ?? []) {
      await ensureTags(tx, actor, at, [tag]);
      await tx.tags.addFeatureTag(feature.name, tag);
      tagEvents.push({ type: 'feature-tagged', data: tag });
    }
    if (tagEvents.length > 0) {
      const [result] = await buildFeatureViews(tx, [feature], { userId: actor.userId });
      const tags = await tx.tags.listFeatureTags([feature.name]);
      await writeFeatureEvents(tx, actor, at, { feature, tags }, [
        { type: 'feature-created', data: result },
        ...tagEvents,
      ]);
      return result!;
    }
    // The name was free, so nothing else refers to the feature yet (deletes cascade): its view
    // is what this command wrote, and only the environments' types and order need reading.
    const envRows = links.map(
      (link): FeatureEnvironmentRecord => ({
        featureName: feature.name,
        environment: link.environment,
        enabled: false,
        variants: [],
        lastSeenAt: null,
      }),
    );
    const [result] = assembleFeatureViews([feature], {
      envRows,
      strategies: [],
      tags: [],
      deps: [],
      children: [],
      environments: linked.map((l) => l.environment),
      favoriteFeatures: [],
      projectLinks: [[project, links]],
    });
    await writeFeatureEvents(tx, actor, at, { feature, tags: [] }, [
      { type: 'feature-created', data: result },
    ]);
    return result!;
  },
});

/** PUT: changes only the given properties (feature-metadata-updated, and stale/archive events). */
export const updateFeature = defineOperation({
  id: 'features.update',
  summary: 'Update a feature',
  kind: 'write',
  permission: 'UPDATE_FEATURE',
  scope: (input) => ({ project: input.projectId }),
  input: updateProjectFeatureSchema,
  output: featureViewSchema,
  run: ({ projectId, featureName, ...body }, ctx) =>
    updateRecord(ctx, projectId, featureName, metadataChange(body, projectId, featureName, nowIso(ctx.deps))),
});

const PATCHABLE = ['description', 'type', 'stale', 'archived', 'impressionData'];

/** PATCH: JSON-patch operations on description, type, stale, archived, impressionData. */
export const patchFeature = defineOperation({
  id: 'features.patch',
  summary: 'Patch a feature',
  kind: 'write',
  permission: 'UPDATE_FEATURE',
  scope: featureProjectScope,
  input: patchFeatureSchema,
  output: featureViewSchema,
  run: ({ project, feature, operations }, ctx) =>
    updateRecord(ctx, project, feature, (before) => {
      const doc = {
        description: before.description,
        type: before.type,
        stale: before.stale,
        archived: before.archivedAt !== null,
        impressionData: before.impressionData,
      };
      const patched = parseWith(updateFeatureSchema, applyJsonPatch(doc, operations, PATCHABLE));
      return metadataChange(patched, project, feature, nowIso(ctx.deps))(before);
    }),
});

/** Marks features stale or not (feature-stale-on / -off when it changes). */
export const setFeaturesStale = defineOperation({
  id: 'features.setStale',
  summary: 'Mark features stale or not',
  kind: 'write',
  permission: 'UPDATE_FEATURE',
  scope: featureProjectScope,
  input: staleFeaturesSchema,
  output: z.void(),
  run: async ({ project, features, stale }, { deps, repos, actor }) => {
    const at = nowIso(deps);
    for (const name of features) {
      const { feature: before, tags } = await requireFeatureWithTags(repos, project, name);
      if (before.stale === stale) continue;
      const after = { ...before, stale };
      await repos.features.update(after);
      await writeFeatureEvents(repos, actor, at, { feature: after, tags }, [
        { type: stale ? 'feature-stale-on' : 'feature-stale-off' },
      ]);
    }
  },
});

/** Marks the feature as a favorite of the calling user, or not (feature-favorited / -unfavorited). */
export const setFeatureFavorite = defineOperation({
  id: 'features.setFavorite',
  summary: 'Add a feature to favorites, or remove it',
  kind: 'write',
  permission: 'NONE',
  scope: featureProjectScope,
  input: favoriteFeatureSchema,
  output: z.void(),
  run: async ({ project, feature: name, favorite }, { deps, repos, actor }) => {
    const feature = await requireFeatureWithTags(repos, project, name);
    if (actor.userId === null)
      throw new FlagstaffError('VALIDATION', 'Favorites belong to users; API tokens cannot have favorites.');
    if (await repos.favorites.set(actor.userId, 'feature', name, favorite))
      await writeFeatureEvents(repos, actor, nowIso(deps), feature, [
        { type: favorite ? 'feature-favorited' : 'feature-unfavorited' },
      ]);
  },
});

/** Every change to features' metadata, for route tables and tools. */
export const featureOperations = [
  createFeature,
  updateFeature,
  patchFeature,
  setFeaturesStale,
  setFeatureFavorite,
] as const;
