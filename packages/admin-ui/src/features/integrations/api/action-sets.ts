import { queryOptions } from '@tanstack/react-query';
import { api } from '../../../api/client';
import type { paths } from '../../../api/schema';
import { answerOf } from '../../../lib/api-answer';

/** The body signals.actionSets.create takes. */
export type ActionSetBody =
  paths['/api/admin/projects/{projectId}/actions']['post']['requestBody']['content']['application/json'];

export const actionSetKeys = { project: (projectId: string) => ['actions', projectId] as const };

/** signals.actionSets.list: the project's action sets. */
export const listActionSetsQueryOptions = (projectId: string) =>
  queryOptions({
    queryKey: actionSetKeys.project(projectId),
    queryFn: () =>
      answerOf(api.GET('/api/admin/projects/{projectId}/actions', { params: { path: { projectId } } })),
  });

/** signals.actionSets.create */
export const createActionSet = (projectId: string, body: ActionSetBody) =>
  answerOf(api.POST('/api/admin/projects/{projectId}/actions', { params: { path: { projectId } }, body }));

/** signals.actionSets.delete */
export const deleteActionSet = (projectId: string, id: number) =>
  answerOf(
    api.DELETE('/api/admin/projects/{projectId}/actions/{actionSetId}', {
      params: { path: { projectId, actionSetId: String(id) } },
    }),
  );
