import { queryOptions } from '@tanstack/react-query';
import { api } from '../../../api/client';
import { answerOf } from '../../../lib/api-answer';

/** The values already used with a tag type (GET /tags/:type), offered while typing a new tag. */
export const tagValuesQueryOptions = (type: string) =>
  queryOptions({
    queryKey: ['tags', type],
    enabled: type !== '',
    queryFn: () => answerOf(api.GET('/api/admin/tags/{type}', { params: { path: { type } } })),
    select: (d) => [...new Set(d.tags.map((t) => t.value))].sort(),
  });
