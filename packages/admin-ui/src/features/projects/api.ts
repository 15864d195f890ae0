import { useQuery } from '@tanstack/react-query';
import { api } from '../../api/client';
import { unwrap } from '../../api/errors';
import type { Project, ProjectEnvironmentView, ProjectList, TagType } from '../../api/types';

export const projectKeys = {
  all: ['projects'] as const,
  one: (id: string) => ['projects', id] as const,
  environments: (id: string) => ['projects', id, 'environments'] as const,
  features: (id: string) => ['projects', id, 'features'] as const,
};

export const useProjects = () =>
  useQuery({
    queryKey: projectKeys.all,
    queryFn: () => unwrap<ProjectList>(api.GET('/api/admin/projects')),
    select: (data) => data.projects,
  });

export const useProject = (projectId: string) =>
  useQuery({
    queryKey: projectKeys.one(projectId),
    queryFn: () =>
      unwrap<Project>(api.GET('/api/admin/projects/{projectId}', { params: { path: { projectId } } })),
  });

export const useProjectEnvironments = (projectId: string) =>
  useQuery({
    queryKey: projectKeys.environments(projectId),
    queryFn: () =>
      unwrap<{ environments: ProjectEnvironmentView[] }>(
        api.GET('/api/admin/environments/project/{projectId}', { params: { path: { projectId } } }),
      ),
    select: (data) => data.environments.filter((e) => e.enabled).sort((a, b) => a.sortOrder - b.sortOrder),
  });

export const useTagTypes = () =>
  useQuery({
    queryKey: ['tag-types'],
    queryFn: () => unwrap<{ tagTypes: TagType[] }>(api.GET('/api/admin/tag-types')),
    select: (data) => data.tagTypes,
  });
