import { queryOptions } from '@tanstack/react-query';
import { api } from '../../../api/client';
import { answerOf } from '../../../lib/api-answer';

export const archiveKey = ['archive'] as const;

/** `features.listArchived`: the archived features the caller may see. */
export const archivedFeaturesQueryOptions = () =>
  queryOptions({
    queryKey: archiveKey,
    queryFn: () => answerOf(api.GET('/api/admin/archive/features')),
  });

/** `features.revive` of one archived feature, wherever it is. */
export const reviveFeature = (featureName: string) =>
  answerOf(api.POST('/api/admin/archive/revive/{featureName}', { params: { path: { featureName } } }));

/** `features.deleteArchived` of one archived feature, for good. */
export const deleteArchivedFeature = (featureName: string) =>
  answerOf(api.DELETE('/api/admin/archive/{featureName}', { params: { path: { featureName } } }));
