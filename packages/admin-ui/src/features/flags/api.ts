import { useQuery } from '@tanstack/react-query';
import { api } from '../../api/client';
import { unwrap } from '../../api/errors';
import type { ContextField, EventPage, FeatureView, Segment } from '../../api/types';

export const featureKey = (projectId: string, name: string) => ['features', projectId, name] as const;

export const useFeature = (projectId: string, featureName: string) =>
  useQuery({
    queryKey: featureKey(projectId, featureName),
    queryFn: () =>
      unwrap<FeatureView>(
        api.GET('/api/admin/projects/{projectId}/features/{featureName}', {
          params: { path: { projectId, featureName } },
        }),
      ),
  });

export const useSegments = () =>
  useQuery({
    queryKey: ['segments'],
    queryFn: () => unwrap<{ segments: Segment[] }>(api.GET('/api/admin/segments')),
    select: (d) => d.segments,
  });

export const useContextFields = () =>
  useQuery({
    queryKey: ['context-fields'],
    queryFn: () => unwrap<ContextField[]>(api.GET('/api/admin/context')),
  });

export const useFeatureEvents = (featureName: string) =>
  useQuery({
    queryKey: ['events', 'feature', featureName],
    queryFn: () =>
      unwrap<EventPage>(api.GET('/api/admin/events/{featureName}', { params: { path: { featureName } } })),
  });
