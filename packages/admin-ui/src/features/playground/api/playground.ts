import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api } from '../../../api/client';
import { answerOf } from '../../../lib/api-answer';

/** What the playground evaluates: a context in an environment, against some projects' features or all. */
export type PlaygroundBody = {
  environment: string;
  projects: string[] | '*';
  context: Record<string, unknown> & { appName: string };
};

/** environments.list, for the environment picker. */
export const listEnvironmentsQueryOptions = () =>
  queryOptions({
    queryKey: ['environments'],
    queryFn: () => answerOf(api.GET('/api/admin/environments')),
  });

/** projects.list, for the project picker. */
export const listProjectsQueryOptions = () =>
  queryOptions({
    queryKey: ['projects'],
    queryFn: () => answerOf(api.GET('/api/admin/projects')),
  });

/** contextFields.list, for the custom context fields. */
export const listContextFieldsQueryOptions = () =>
  queryOptions({
    queryKey: ['context-fields'],
    queryFn: () => answerOf(api.GET('/api/admin/context')),
  });

/** POST /playground: one page (`limit` from `offset`) of the features matching `query`, evaluated and explained. */
export const evaluateQueryOptions = (
  submitted: PlaygroundBody | null,
  query: string,
  offset: number,
  limit: number,
) =>
  queryOptions({
    queryKey: ['playground', submitted, query, offset],
    enabled: submitted !== null,
    placeholderData: keepPreviousData,
    retry: false,
    queryFn: ({ signal }) =>
      answerOf(
        api.POST('/api/admin/playground', {
          body: {
            ...submitted!,
            ...(query ? { query } : {}),
            offset,
            limit,
          },
          signal,
        }),
      ),
  });
