import { z } from 'zod';
import { environmentSortOrderSchema } from '../../domain/environment-order.js';
import { notFound } from '../../errors.js';
import { defineOperation } from '../../operations/define-operation.js';
import { nowIso } from '../deps.js';
import { writeEvents } from '../events/event-writer.js';

/** Sets the sort order of any of the environments (environment-updated for each that changes). */
export const setEnvironmentOrder = defineOperation({
  id: 'environments.setSortOrder',
  summary: 'Set the sort order of environments ({ name: order })',
  kind: 'write',
  permission: 'ADMIN',
  input: environmentSortOrderSchema,
  output: z.void(),
  run: async (order, { deps, repos, actor }) => {
    const at = nowIso(deps);
    for (const [name, sortOrder] of Object.entries(order)) {
      const before = await repos.environments.get(name);
      if (!before) throw notFound('environment', name);
      if (before.sortOrder === sortOrder) continue;
      const after = { ...before, sortOrder };
      await repos.environments.update(after);
      await writeEvents(repos, actor, at, [
        { type: 'environment-updated', environment: name, data: after, preData: before },
      ]);
    }
  },
});
