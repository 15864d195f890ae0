import { queryOptions } from '@tanstack/react-query';
import { api } from '../../../api/client';
import { unwrap } from '../../../api/errors';
import type { Environment } from '../../../api/types';

/**
 * environments.list, for the addon form's environment filter. Its route declares no response schema on
 * this branch yet (the environments area converts it), so the answer is still asserted with `unwrap`.
 */
export const listEnvironmentsQueryOptions = () =>
  queryOptions({
    queryKey: ['environments'],
    queryFn: () => unwrap<{ environments: Environment[] }>(api.GET('/api/admin/environments')),
  });
