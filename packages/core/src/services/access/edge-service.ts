import { z } from 'zod';
import type { Caller } from '../../auth/caller.js';
import { parseWith } from '../../domain/parse.js';
import type { ServiceDeps } from '../deps.js';
import { hashSecret } from './access-service.js';

export const edgeValidateSchema = z.object({
  tokens: z.array(z.string()).max(1_000, 'must list at most 1000 tokens'),
});

/** A token Unleash Edge may serve, as `/edge/validate` answers it. */
export interface EdgeToken {
  token: string;
  type: 'client' | 'frontend';
  projects: string[];
}

/**
 * `POST /edge/validate`: Unleash Edge sends the tokens its clients presented and learns which are
 * valid SDK tokens (client and frontend; unknown, expired and admin tokens are left out) and which
 * projects each reaches. Like the reference, only a caller with a credential may ask: a client
 * token (Edge's own), or an admin (token or user); anyone else would learn which secrets are live.
 */
export function createEdgeService(deps: ServiceDeps) {
  return {
    async validate(caller: Caller, input: unknown): Promise<{ tokens: EdgeToken[] }> {
      const { principal } = caller;
      if (principal.kind === 'api-token' && principal.tokenType === 'client')
        await deps.policy.require(caller, 'NONE', {}, 'client');
      else await deps.policy.require(caller, 'ADMIN', {}, 'admin');
      const { tokens } = parseWith(edgeValidateSchema, input);
      const now = deps.clock.now().getTime();
      const valid: EdgeToken[] = [];
      for (const secret of new Set(tokens)) {
        const token = await deps.store.apiTokens.getByHash(hashSecret(secret.trim()));
        if (!token || (token.expiresAt && Date.parse(token.expiresAt) <= now)) continue;
        if (token.type !== 'client' && token.type !== 'frontend') continue;
        valid.push({ token: secret, type: token.type, projects: [...token.projects] });
      }
      return { tokens: valid };
    },
  };
}

export type EdgeService = ReturnType<typeof createEdgeService>;
