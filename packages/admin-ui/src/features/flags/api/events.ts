import { useQuery } from '@tanstack/react-query';
import { api } from '../../../api/client';
import { unwrap } from '../../../api/errors';
import type { EventPage } from '../../../api/types';

// The event routes have no response schema yet (another area's conversion): the type is still asserted.
export const useFeatureEvents = (featureName: string) =>
  useQuery({
    queryKey: ['events', 'feature', featureName],
    queryFn: () =>
      unwrap<EventPage>(api.GET('/api/admin/events/{featureName}', { params: { path: { featureName } } })),
  });
