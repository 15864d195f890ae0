import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';
import { errorMessage } from '../../api/errors';
import type { FeatureSearchItem } from '../../api/types';
import { useToast } from '../../components/ui/toast';
import { answerOf, projectKeys } from './api';

interface Toggle {
  feature: string;
  environment: string;
  enabled: boolean;
}

type Page = { features: FeatureSearchItem[]; total: number };

const applyToggle = (page: Page | undefined, t: Toggle): Page | undefined =>
  page && {
    ...page,
    features: page.features.map((f) =>
      f.name === t.feature
        ? {
            ...f,
            environments: f.environments.map((e) =>
              e.name === t.environment ? { ...e, enabled: t.enabled } : e,
            ),
          }
        : f,
    ),
  };

/** Flips a feature in an environment at once in the table, rolling back with the server's message on failure. */
export function useToggleEnvironment(projectId: string) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const key = projectKeys.features(projectId);
  return useMutation({
    mutationFn: ({ feature, environment, enabled }: Toggle) => {
      const path = { projectId, featureName: feature, environment };
      return answerOf(
        enabled
          ? api.POST('/api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/on', {
              params: { path },
            })
          : api.POST(
              '/api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/off',
              { params: { path } },
            ),
      );
    },
    onMutate: async (toggle) => {
      await queryClient.cancelQueries({ queryKey: key });
      const previous = queryClient.getQueriesData<Page>({ queryKey: key });
      queryClient.setQueriesData<Page>({ queryKey: key }, (page) => applyToggle(page, toggle));
      return { previous };
    },
    onError: (error, _toggle, context) => {
      for (const [queryKey, data] of context?.previous ?? []) queryClient.setQueryData(queryKey, data);
      toast.error(errorMessage(error));
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['features'] }),
  });
}
