import type { Caller } from '../../auth/caller.js';
import { createSecretBox, type SecretBox } from '../../auth/secret-box.js';
import type { ApiTokenView, CreateApiTokenInput } from '../../domain/api-token.js';
import type { OperationRunner } from '../../operations/run-operation.js';
import { inTransaction, type ServiceDeps, SYSTEM_ACTOR } from '../deps.js';
import {
  createApiToken,
  createProjectApiToken,
  deleteApiToken,
  deleteProjectApiToken,
  listApiTokens,
  listApiTokensByName,
  listProjectApiTokens,
  updateApiTokenExpiry,
} from './api-token-operations.js';
import { ADMIN_SECRET_PATTERN, insertToken, newTokenRecord, SECRET_BYTES } from './api-token-records.js';

export { apiTokenView } from './api-token-records.js';

/** How token secrets are kept: sealed under a server key so the API can show them again, or not at all. */
export interface TokenSecretOptions {
  /** The server key secrets are sealed with (AES-256-GCM); without one, secrets are write-only. */
  secretKey?: string | undefined;
  /** Keep secrets write-only even with a key: listings show the masked prefix (default false). */
  writeOnly?: boolean | undefined;
}

/** The box token secrets are sealed in, or null when they are write-only. */
export const tokenSecretBox = (options: TokenSecretOptions): SecretBox | null =>
  options.secretKey && !options.writeOnly ? createSecretBox(options.secretKey) : null;

/**
 * API tokens for in-process callers: typed wrappers over the operations in
 * `api-token-operations.ts` (which HTTP serves too), and the first-start admin token.
 */
export function createApiTokenService(deps: ServiceDeps, run: OperationRunner, box: SecretBox | null) {
  return {
    /** Every token the caller may read. */
    list: async (caller: Caller): Promise<ApiTokenView[]> => (await run(listApiTokens, caller, {})).tokens,
    /** Tokens with exactly this name the caller may read; empty when none. */
    listByName: async (caller: Caller, name: string): Promise<ApiTokenView[]> =>
      (await run(listApiTokensByName, caller, { name })).tokens,
    /** Issues a token; the answer is the only place the whole secret appears. */
    create: (caller: Caller, input: CreateApiTokenInput): Promise<ApiTokenView> =>
      run(createApiToken, caller, input),
    /** Changes when a token expires; `secret` may be the whole or display secret. */
    updateExpiry: (caller: Caller, secret: string, input: { expiresAt: string }): Promise<ApiTokenView> =>
      run(updateApiTokenExpiry, caller, { ...input, token: secret }),
    /** Deletes a token; false when no token the caller may see has that secret. */
    delete: (caller: Caller, secret: string): Promise<boolean> =>
      run(deleteApiToken, caller, { token: secret }),

    /** Tokens of one project (`/api/admin/projects/:p/api-tokens`). */
    project: {
      list: (caller: Caller, project: string): Promise<{ tokens: ApiTokenView[] }> =>
        run(listProjectApiTokens, caller, { project }),
      create: (
        caller: Caller,
        project: string,
        input: Omit<CreateApiTokenInput, 'project' | 'projects'>,
      ): Promise<ApiTokenView> =>
        run(createProjectApiToken, caller, { ...input, project, projects: undefined }),
      delete: (caller: Caller, project: string, secret: string): Promise<void> =>
        run(deleteProjectApiToken, caller, { project, token: secret }),
    },

    /**
     * First start: when no admin token exists, creates one (from `secret` when it is a well-formed
     * `*:*.…` secret, otherwise generated) and returns its secret; null when one already existed.
     */
    async ensureAdminToken(secret?: string): Promise<string | null> {
      let chosen = secret?.trim();
      if (chosen !== undefined && !ADMIN_SECRET_PATTERN.test(chosen)) {
        deps.logger.warn(
          'ignoring the configured admin token: it must look like "*:*.<at least 32 letters, digits, - or _>"',
        );
        chosen = undefined;
      }
      return inTransaction(deps, async (tx) => {
        if ((await tx.apiTokens.countAdmin()) > 0) return null;
        const value = chosen ?? `*:*.${deps.ids.randomHex(SECRET_BYTES)}`;
        const record = newTokenRecord(deps, box, value, {
          tokenName: 'admin',
          type: 'admin',
          environment: '*',
          projects: ['*'],
          expiresAt: null,
        });
        await insertToken(tx, SYSTEM_ACTOR, record);
        return value;
      });
    },
  };
}

export type ApiTokenService = ReturnType<typeof createApiTokenService>;
