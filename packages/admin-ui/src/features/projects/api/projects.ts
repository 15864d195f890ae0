import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../api/client';
import { answerOf } from '../../../lib/api-answer';

export const projectKeys = {
  all: ['projects'] as const,
  one: (id: string) => ['projects', id] as const,
  environments: (id: string) => ['projects', id, 'environments'] as const,
  features: (id: string) => ['projects', id, 'features'] as const,
};

/** projects.list: the projects the caller may see. */
export const listProjectsQueryOptions = () =>
  queryOptions({
    queryKey: projectKeys.all,
    queryFn: () => answerOf(api.GET('/api/admin/projects')),
    select: (data) => data.projects,
  });

/** projects.get */
export const getProjectQueryOptions = (projectId: string) =>
  queryOptions({
    queryKey: projectKeys.one(projectId),
    queryFn: () => answerOf(api.GET('/api/admin/projects/{projectId}', { params: { path: { projectId } } })),
  });

/** The project's enabled environments, in order (`insights.projectEnvironments`). */
export const projectEnvironmentsQueryOptions = (projectId: string) =>
  queryOptions({
    queryKey: projectKeys.environments(projectId),
    queryFn: () =>
      answerOf(api.GET('/api/admin/environments/project/{projectId}', { params: { path: { projectId } } })),
    select: (data) => data.environments.filter((e) => e.enabled).sort((a, b) => a.sortOrder - b.sortOrder),
  });

/** Tag types (another area's route). */
export const tagTypesQueryOptions = () =>
  queryOptions({
    queryKey: ['tag-types'],
    queryFn: () => answerOf(api.GET('/api/admin/tag-types')),
    select: (data) => data.tagTypes,
  });

// Hooks other folders use.
export const useProjects = () => useQuery(listProjectsQueryOptions());
export const useProject = (projectId: string) => useQuery(getProjectQueryOptions(projectId));
export const useProjectEnvironments = (projectId: string) =>
  useQuery(projectEnvironmentsQueryOptions(projectId));
export const useTagTypes = () => useQuery(tagTypesQueryOptions());
