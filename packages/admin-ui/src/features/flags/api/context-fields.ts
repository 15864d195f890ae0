import { useQuery } from '@tanstack/react-query';
import { api } from '../../../api/client';
import { unwrap } from '../../../api/errors';
import type { ContextField } from '../../../api/types';

// The context routes have no response schema yet (another area's conversion): the type is still asserted.
export const useContextFields = () =>
  useQuery({
    queryKey: ['context-fields'],
    queryFn: () => unwrap<ContextField[]>(api.GET('/api/admin/context')),
  });
