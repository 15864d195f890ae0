import type { z } from 'zod';
import type { Caller } from '../../auth/caller.js';
import { type EdgeToken, edgeTokensSchema, edgeValidateSchema } from '../../domain/edge.js';
import { defineOperation } from '../../operations/define-operation.js';
import type { OperationRunner } from '../../operations/run-operation.js';
import { hashSecret } from './access-service.js';

/**
 * `POST /edge/validate`: Unleash Edge sends the tokens its clients presented and learns which are
 * valid SDK tokens (client and frontend; unknown, expired and admin tokens are left out) and which
 * projects each reaches. Like the reference, only a caller with a credential may ask: a client
 * token (Edge's own), or an admin (token or user); anyone else would learn which secrets are live.
 */
export const validateEdgeTokens = defineOperation({
  id: 'edge.validate',
  summary: 'Which of these tokens are valid SDK tokens, and the projects each reaches (Unleash Edge)',
  kind: 'read',
  permission: { families: { client: 'NONE', admin: 'ADMIN' } },
  input: edgeValidateSchema,
  output: edgeTokensSchema,
  run: async ({ tokens }, { repos, deps }) => {
    const now = deps.clock.now().getTime();
    const valid: EdgeToken[] = [];
    for (const secret of new Set(tokens)) {
      const token = await repos.apiTokens.getByHash(hashSecret(secret.trim()));
      if (!token || (token.expiresAt && Date.parse(token.expiresAt) <= now)) continue;
      if (token.type !== 'client' && token.type !== 'frontend') continue;
      valid.push({ token: secret, type: token.type, projects: [...token.projects] });
    }
    return { tokens: valid };
  },
});

/** Unleash Edge's token check: a typed wrapper. */
export function createEdgeService(run: OperationRunner) {
  return {
    validate: (caller: Caller, input: z.input<typeof edgeValidateSchema>): Promise<{ tokens: EdgeToken[] }> =>
      run(validateEdgeTokens, caller, input),
  };
}

export type EdgeService = ReturnType<typeof createEdgeService>;
