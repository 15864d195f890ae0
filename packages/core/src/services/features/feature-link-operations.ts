import { z } from 'zod';
import {
  addFeatureLinkSchema,
  deleteFeatureLinkSchema,
  type FeatureLink,
  type FeatureLinkView,
  featureLinkViewSchema,
  updateFeatureLinkSchema,
} from '../../domain/feature-link.js';
import { notFound } from '../../errors.js';
import { defineOperation } from '../../operations/define-operation.js';
import type { Repositories } from '../../ports/store.js';
import { nowIso } from '../deps.js';
import { writeFeatureEvents } from '../events/event-writer.js';
import { requireFeatureWithTags } from './require-feature.js';

const projectScope = (input: { project?: string | undefined }) => ({ project: input.project });

/** A link as the API shows it. */
export const featureLinkView = ({ id, url, title }: FeatureLink): FeatureLinkView => ({ id, url, title });

async function requireLink(tx: Repositories, feature: string, id: string): Promise<FeatureLink> {
  const link = await tx.featureLinks.get(id);
  if (!link || link.featureName !== feature) throw notFound('link', id);
  return link;
}

/** Adds a link to a feature: a ticket, a dashboard, a pull request (feature-link-added). */
export const addFeatureLink = defineOperation({
  id: 'featureLinks.add',
  summary: 'Add a link to a feature (a ticket, a dashboard)',
  kind: 'write',
  permission: 'UPDATE_FEATURE',
  scope: projectScope,
  input: addFeatureLinkSchema,
  output: featureLinkViewSchema,
  run: async ({ project, feature: name, url, title }, { deps, repos, actor }) => {
    const { feature, tags } = await requireFeatureWithTags(repos, project, name);
    const link: FeatureLink = {
      id: deps.ids.uuid(),
      featureName: name,
      url,
      title: title ?? null,
      createdAt: nowIso(deps),
    };
    await repos.featureLinks.insert(link);
    await writeFeatureEvents(repos, actor, link.createdAt, { feature, tags }, [
      { type: 'feature-link-added', data: featureLinkView(link) },
    ]);
    return featureLinkView(link);
  },
});

/** Changes a link's URL and title (feature-link-updated). */
export const updateFeatureLink = defineOperation({
  id: 'featureLinks.update',
  summary: 'Change a link of a feature',
  kind: 'write',
  permission: 'UPDATE_FEATURE',
  scope: projectScope,
  input: updateFeatureLinkSchema,
  output: featureLinkViewSchema,
  run: async ({ project, feature: name, id, url, title }, { deps, repos, actor }) => {
    const { feature, tags } = await requireFeatureWithTags(repos, project, name);
    const before = await requireLink(repos, name, id);
    const after = { ...before, url, title: title ?? null };
    await repos.featureLinks.update(after);
    await writeFeatureEvents(repos, actor, nowIso(deps), { feature, tags }, [
      { type: 'feature-link-updated', data: featureLinkView(after), preData: featureLinkView(before) },
    ]);
    return featureLinkView(after);
  },
});

/** Removes a link (feature-link-removed). */
export const deleteFeatureLink = defineOperation({
  id: 'featureLinks.delete',
  summary: 'Remove a link from a feature',
  kind: 'write',
  permission: 'UPDATE_FEATURE',
  scope: projectScope,
  input: deleteFeatureLinkSchema,
  output: z.void(),
  run: async ({ project, feature: name, id }, { deps, repos, actor }) => {
    const { feature, tags } = await requireFeatureWithTags(repos, project, name);
    const before = await requireLink(repos, name, id);
    await repos.featureLinks.delete(id);
    await writeFeatureEvents(repos, actor, nowIso(deps), { feature, tags }, [
      { type: 'feature-link-removed', preData: featureLinkView(before) },
    ]);
  },
});

/** Every feature link operation, for route tables and tools. */
export const featureLinkOperations = [addFeatureLink, updateFeatureLink, deleteFeatureLink] as const;
