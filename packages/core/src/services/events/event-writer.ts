import type { NewEvent } from '../../domain/event.js';
import type { Tag } from '../../domain/tag.js';
import type { Repositories } from '../../ports/repositories.js';
import type { Actor } from '../deps.js';

export type EventDraft = Omit<NewEvent, 'createdBy' | 'createdByUserId' | 'createdAt'>;

/** Appends events written by `actor` at `at` inside the caller's transaction. */
export async function writeEvents(
  tx: Repositories,
  actor: Actor,
  at: string,
  drafts: readonly EventDraft[],
): Promise<void> {
  if (drafts.length === 0) return;
  await tx.events.append(
    drafts.map((d) => ({
      ...d,
      createdBy: actor.name,
      createdByUserId: actor.userId,
      createdAt: at,
      tags: d.tags ?? [],
    })),
  );
}

/**
 * Appends feature events, each carrying the feature's current tags; `knownTags` (the feature's
 * tags as the store lists them) saves reading them when the caller already has them.
 */
export async function writeFeatureEvents(
  tx: Repositories,
  actor: Actor,
  at: string,
  feature: { name: string; project: string },
  drafts: readonly Omit<EventDraft, 'featureName' | 'project'>[],
  knownTags?: readonly Tag[],
): Promise<void> {
  if (drafts.length === 0) return;
  const tags =
    knownTags?.map(({ type, value }) => ({ type, value })) ??
    (await tx.tags.listFeatureTags([feature.name])).map(({ type, value }) => ({ type, value }));
  await writeEvents(
    tx,
    actor,
    at,
    drafts.map((d) => ({ ...d, featureName: feature.name, project: feature.project, tags })),
  );
}
