import { type Caller, userIdOf } from '../../auth/caller.js';
import { type Principal, seesProject } from '../../auth/principal.js';
import { canSeeProject, projectVisibility } from '../../auth/project-visibility.js';
import {
  createFeatureSchema,
  type FeatureEnvironmentRecord,
  type FeatureRecord,
  type FeatureView,
  updateFeatureSchema,
} from '../../domain/feature.js';
import { validateFeatureNameSchema } from '../../domain/name-validation.js';
import { parseWith } from '../../domain/parse.js';
import { patchDocumentSchema } from '../../domain/strategy.js';
import { conflict, FlagstaffError, notFound } from '../../errors.js';
import type { Repositories } from '../../ports/repositories.js';
import type { ReadRepositories } from '../../ports/store.js';
import { type Actor, inTransaction, nowIso, type ServiceDeps } from '../deps.js';
import { type EventDraft, writeFeatureEvents } from '../events/event-writer.js';
import { requireProject } from '../projects/project-service.js';
import { archiveRecord, createArchiveCommands, requireNoLiveChildrenLeft } from './feature-archive.js';
import { requireNamingPattern } from './feature-naming.js';
import { assembleFeatureViews, buildFeatureViews } from './feature-view.js';
import { featureViewPages } from './feature-view-pages.js';
import { applyJsonPatch } from './json-patch.js';
import { requireFeature, requireFeatureWithTags } from './require-feature.js';
import { ensureTags } from './tag-service.js';

/**
 * Inserts a feature whose name must be free. The insert itself finds a taken name (no read first);
 * only then is the holder read, to say whether it is archived.
 */
async function insertNew(
  tx: Repositories,
  feature: FeatureRecord,
  environments: readonly string[],
): Promise<void> {
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
function metadataEvents(
  before: FeatureRecord,
  after: FeatureRecord,
): Omit<EventDraft, 'featureName' | 'project'>[] {
  const edited =
    before.description !== after.description ||
    before.type !== after.type ||
    before.impressionData !== after.impressionData;
  const events: Omit<EventDraft, 'featureName' | 'project'>[] = edited
    ? [{ type: 'feature-metadata-updated', data: after, preData: before }]
    : [];
  if (before.stale !== after.stale)
    events.push({ type: after.stale ? 'feature-stale-on' : 'feature-stale-off' });
  if (before.archivedAt === null && after.archivedAt !== null) events.push({ type: 'feature-archived' });
  return events;
}

/** Features: create, read, update metadata, archive, revive, delete, stale, favorites. */
export function createFeatureService(deps: ServiceDeps) {
  const { store } = deps;

  /** The features whose project the viewer may see. */
  async function visibleTo(viewer: Principal, features: FeatureRecord[]): Promise<FeatureRecord[]> {
    const visibility = await projectVisibility(store, viewer);
    return visibility.all ? features : features.filter((f) => seesProject(visibility, f.project));
  }

  const view = async (
    repos: ReadRepositories,
    feature: FeatureRecord,
    userId?: number | null,
  ): Promise<FeatureView> => (await buildFeatureViews(repos, [feature], { userId }))[0]!;

  async function updateRecord(
    actor: Actor,
    project: string,
    name: string,
    change: (f: FeatureRecord) => FeatureRecord,
  ) {
    return inTransaction(deps, async (tx) => {
      const { feature: before, tags } = await requireFeatureWithTags(tx, project, name);
      const after = change(before);
      const archiving = before.archivedAt === null && after.archivedAt !== null;
      // Archiving through PUT/PATCH takes the archive's own path: its rule and its dropped links.
      if (archiving) await requireNoLiveChildrenLeft(tx, [name]);
      const archived = archiving ? await archiveRecord(tx, after, after.archivedAt!) : null;
      if (!archiving) await tx.features.update(after);
      await writeFeatureEvents(tx, actor, nowIso(deps), { feature: after, tags }, [
        ...metadataEvents(before, after),
        ...(archived?.events.filter((e) => e.type !== 'feature-archived') ?? []),
      ]);
      return view(tx, after, actor.userId);
    });
  }

  const metadataChange = (input: unknown, project: string, name: string) => {
    const body = parseWith(updateFeatureSchema, input);
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
      const archivedAt = body.archived === true ? (f.archivedAt ?? nowIso(deps)) : f.archivedAt;
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
  };

  return {
    /** One feature of a project, as the API shows it, with its links. */
    async get(caller: Caller, project: string, name: string): Promise<FeatureView> {
      await deps.policy.require(caller, 'NONE', { project });
      const shown = await view(store, await requireFeature(store, project, name), userIdOf(caller));
      return {
        ...shown,
        links: (await store.featureLinks.listForFeature(name)).map(({ id, url, title }) => ({
          id,
          url,
          title,
        })),
      };
    },

    /**
     * Live features of a project (or every project). Features of private projects the caller may not
     * see are left out; `favorite` is the calling user's.
     */
    async list(caller: Caller, project?: string): Promise<FeatureView[]> {
      await deps.policy.require(caller, 'NONE', { project });
      if (project !== undefined) await requireProject(store, project);
      const features = await visibleTo(
        caller.principal,
        await store.features.list({ project, archived: false }),
      );
      return buildFeatureViews(store, features, { userId: userIdOf(caller) });
    },

    /**
     * `list` of one project, a page of views at a time (see `featureViewPages`): what
     * `GET /projects/:id/features` streams. Refusals (policy, unknown project) come when this resolves.
     */
    async listPages(caller: Caller, project: string): Promise<AsyncIterable<FeatureView[]>> {
      await deps.policy.require(caller, 'NONE', { project });
      await requireProject(store, project);
      const visibility = await projectVisibility(store, caller.principal);
      return featureViewPages(store, project, visibility, userIdOf(caller));
    },

    /** Archived features of a project (or every project) the caller may see. */
    async listArchived(caller: Caller, project?: string): Promise<FeatureView[]> {
      await deps.policy.require(caller, 'NONE', { project });
      if (project !== undefined) await requireProject(store, project);
      return buildFeatureViews(
        store,
        await visibleTo(caller.principal, await store.features.list({ project, archived: true })),
      );
    },

    /**
     * POST /features/validate: VALIDATION for a name `create` would refuse (also by the naming
     * pattern of `projectId` when given), CONFLICT when a feature, live or archived, has it. A
     * project the viewer may not see is NOT_FOUND, as if it did not exist.
     */
    async validateName(caller: Caller, input: unknown): Promise<void> {
      await deps.policy.require(caller, 'NONE', {});
      const body = parseWith(validateFeatureNameSchema, input);
      const existing = await store.features.get(body.name);
      if (existing)
        throw conflict(
          `A feature named "${body.name}" already exists${existing.archivedAt ? ' in the archive' : ''}.`,
          'name',
        );
      if (body.projectId == null) return;
      const project = await store.projects.get(body.projectId);
      if (!project || !(await canSeeProject(store, caller.principal, project)))
        throw notFound('project', body.projectId);
      requireNamingPattern(project, body.name);
    },

    /** Creates a feature, enforcing the project's naming pattern and feature limit (feature-created). */
    async create(caller: Caller, project: string, input: unknown): Promise<FeatureView> {
      const actor = await deps.policy.permit(caller, 'CREATE_FEATURE', { project });
      const body = parseWith(createFeatureSchema, input);
      return inTransaction(deps, async (tx) => {
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
        const tagEvents: Omit<EventDraft, 'featureName' | 'project'>[] = [];
        for (const tag of body.tags ?? []) {
          await ensureTags(tx, actor, at, [tag]);
          await tx.tags.addFeatureTag(feature.name, tag);
          tagEvents.push({ type: 'feature-tagged', data: tag });
        }
        if (tagEvents.length > 0) {
          const result = await view(tx, feature, actor.userId);
          const tags = await tx.tags.listFeatureTags([feature.name]);
          await writeFeatureEvents(tx, actor, at, { feature, tags }, [
            { type: 'feature-created', data: result },
            ...tagEvents,
          ]);
          return result;
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
      });
    },

    /** PUT: changes only the given properties (feature-metadata-updated, and stale/archive events). */
    async update(caller: Caller, project: string, name: string, input: unknown): Promise<FeatureView> {
      const actor = await deps.policy.permit(caller, 'UPDATE_FEATURE', { project });
      return updateRecord(actor, project, name, metadataChange(input, project, name));
    },

    /** PATCH: JSON-patch operations on description, type, stale, archived, impressionData. */
    async patch(caller: Caller, project: string, name: string, input: unknown): Promise<FeatureView> {
      const actor = await deps.policy.permit(caller, 'UPDATE_FEATURE', { project });
      const ops = parseWith(patchDocumentSchema, input);
      return updateRecord(actor, project, name, (before) => {
        const doc = {
          description: before.description,
          type: before.type,
          stale: before.stale,
          archived: before.archivedAt !== null,
          impressionData: before.impressionData,
        };
        const patched = applyJsonPatch(doc, ops, [
          'description',
          'type',
          'stale',
          'archived',
          'impressionData',
        ]);
        return metadataChange(patched, project, name)(before);
      });
    },

    ...createArchiveCommands(deps, view),

    /** Marks features stale or not (feature-stale-on / -off when it changes). */
    async setStale(caller: Caller, project: string, names: readonly string[], stale: boolean): Promise<void> {
      const actor = await deps.policy.permit(caller, 'UPDATE_FEATURE', { project });
      return inTransaction(deps, async (tx) => {
        const at = nowIso(deps);
        for (const name of names) {
          const { feature: before, tags } = await requireFeatureWithTags(tx, project, name);
          if (before.stale === stale) continue;
          const after = { ...before, stale };
          await tx.features.update(after);
          await writeFeatureEvents(tx, actor, at, { feature: after, tags }, [
            { type: stale ? 'feature-stale-on' : 'feature-stale-off' },
          ]);
        }
      });
    },

    /** Marks the feature as a favorite of the user, or not (feature-favorited / -unfavorited). */
    async setFavorite(caller: Caller, project: string, name: string, favorite: boolean): Promise<void> {
      const actor = await deps.policy.permit(caller, 'NONE', { project });
      return inTransaction(deps, async (tx) => {
        const feature = await requireFeatureWithTags(tx, project, name);
        if (actor.userId === null)
          throw new FlagstaffError(
            'VALIDATION',
            'Favorites belong to users; API tokens cannot have favorites.',
          );
        if (await tx.favorites.set(actor.userId, 'feature', name, favorite))
          await writeFeatureEvents(tx, actor, nowIso(deps), feature, [
            { type: favorite ? 'feature-favorited' : 'feature-unfavorited' },
          ]);
      });
    },
  };
}

export type FeatureService = ReturnType<typeof createFeatureService>;
