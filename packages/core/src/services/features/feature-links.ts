import type { Caller } from '../../auth/caller.js';
import { type FeatureLink, featureLinkInputSchema } from '../../domain/feature-link.js';
import { parseWith } from '../../domain/parse.js';
import { notFound } from '../../errors.js';
import type { Repositories } from '../../ports/store.js';
import { inTransaction, nowIso, type ServiceDeps } from '../deps.js';
import { writeFeatureEvents } from '../events/event-writer.js';
import { requireFeatureWithTags } from './require-feature.js';

/** A link as the API shows it. */
const view = ({ id, url, title }: FeatureLink) => ({ id, url, title });
export type FeatureLinkView = ReturnType<typeof view>;

/** Links on features (`…/features/:feature/link`): tickets, dashboards, pull requests. */
export function createFeatureLinkService(deps: ServiceDeps) {
  async function requireLink(tx: Repositories, feature: string, id: string): Promise<FeatureLink> {
    const link = await tx.featureLinks.get(id);
    if (!link || link.featureName !== feature) throw notFound('link', id);
    return link;
  }

  return {
    /** Adds a link (feature-link-added). */
    async add(caller: Caller, project: string, name: string, input: unknown): Promise<FeatureLinkView> {
      const actor = await deps.policy.permit(caller, 'UPDATE_FEATURE', { project });
      const body = parseWith(featureLinkInputSchema, input);
      return inTransaction(deps, async (tx) => {
        const { feature, tags } = await requireFeatureWithTags(tx, project, name);
        const link: FeatureLink = {
          id: deps.ids.uuid(),
          featureName: name,
          url: body.url,
          title: body.title ?? null,
          createdAt: nowIso(deps),
        };
        await tx.featureLinks.insert(link);
        await writeFeatureEvents(tx, actor, link.createdAt, { feature, tags }, [
          { type: 'feature-link-added', data: view(link) },
        ]);
        return view(link);
      });
    },

    /** Changes a link's URL and title (feature-link-updated). */
    async update(
      caller: Caller,
      project: string,
      name: string,
      id: string,
      input: unknown,
    ): Promise<FeatureLinkView> {
      const actor = await deps.policy.permit(caller, 'UPDATE_FEATURE', { project });
      const body = parseWith(featureLinkInputSchema, input);
      return inTransaction(deps, async (tx) => {
        const { feature, tags } = await requireFeatureWithTags(tx, project, name);
        const before = await requireLink(tx, name, id);
        const after = { ...before, url: body.url, title: body.title ?? null };
        await tx.featureLinks.update(after);
        await writeFeatureEvents(tx, actor, nowIso(deps), { feature, tags }, [
          { type: 'feature-link-updated', data: view(after), preData: view(before) },
        ]);
        return view(after);
      });
    },

    /** Removes a link (feature-link-removed). */
    async delete(caller: Caller, project: string, name: string, id: string): Promise<void> {
      const actor = await deps.policy.permit(caller, 'UPDATE_FEATURE', { project });
      await inTransaction(deps, async (tx) => {
        const { feature, tags } = await requireFeatureWithTags(tx, project, name);
        const before = await requireLink(tx, name, id);
        await tx.featureLinks.delete(id);
        await writeFeatureEvents(tx, actor, nowIso(deps), { feature, tags }, [
          { type: 'feature-link-removed', preData: view(before) },
        ]);
      });
    },
  };
}

export type FeatureLinkService = ReturnType<typeof createFeatureLinkService>;
