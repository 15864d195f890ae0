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
 * Appends events about a feature, each carrying the feature's tags as the command leaves them (the
 * command read them with the feature: see `CommandReadRepository`).
 */
export async function writeFeatureEvents(
  tx: Repositories,
  actor: Actor,
  at: string,
  { feature, tags: featureTags }: { feature: { name: string; project: string }; tags: readonly Tag[] },
  drafts: readonly Omit<EventDraft, 'featureName' | 'project'>[],
): Promise<void> {
  if (drafts.length === 0) return;
  const tags = featureTags.map(({ type, value }) => ({ type, value }));
  await writeEvents(
    tx,
    actor,
    at,
    drafts.map((d) => ({ ...d, featureName: feature.name, project: feature.project, tags })),
  );
}
