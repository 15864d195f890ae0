import { useQuery } from '@tanstack/react-query';
import { api } from '../../../api/client';
import { unwrap } from '../../../api/errors';
import type { Segment } from '../../../api/types';

// The segment routes have no response schema yet (another area's conversion): the type is still asserted.
export const useSegments = () =>
  useQuery({
    queryKey: ['segments'],
    queryFn: () => unwrap<{ segments: Segment[] }>(api.GET('/api/admin/segments')),
    select: (d) => d.segments,
  });
