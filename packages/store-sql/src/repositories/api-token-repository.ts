import type { ApiTokenRecord, ApiTokenRepository, ApiTokenType } from '@flagstaff/core';
import type { Selectable } from 'kysely';
import { inList, int, jsonOf, parseOf, type RepoContext, touched, uniqueOr } from '../context.js';
import type { ApiTokenTable } from '../database.js';
import { type Binder, prepared } from '../prepared.js';

const getByHash = prepared((db, p: Binder<{ hash: string }>) =>
  db.selectFrom('api_tokens').selectAll().where('secret_hash', '=', p.value('hash')),
);

/** API tokens: only the hash of a secret is ever stored. */
export function createApiTokenRepository(ctx: RepoContext): ApiTokenRepository {
  const { db } = ctx;
  const json = jsonOf(ctx);
  const parse = parseOf(ctx);
  const toToken = (row: Selectable<ApiTokenTable>): ApiTokenRecord => ({
    secretHash: row.secret_hash,
    displaySecret: row.display_secret,
    tokenName: row.token_name,
    type: row.type as ApiTokenType,
    environment: row.environment,
    projects: parse<string[]>(row.projects),
    expiresAt: row.expires_at,
    createdAt: row.created_at,
    seenAt: row.seen_at,
    alias: row.alias,
    secretCiphertext: row.secret_ciphertext,
  });
  const columns = (t: ApiTokenRecord) => ({
    display_secret: t.displaySecret,
    token_name: t.tokenName,
    type: t.type,
    environment: t.environment,
    projects: json(t.projects),
    expires_at: t.expiresAt,
    created_at: t.createdAt,
    seen_at: t.seenAt,
    alias: t.alias,
    secret_ciphertext: t.secretCiphertext ?? null,
  });
  const ordered = () =>
    db
      .selectFrom('api_tokens')
      .selectAll()
      .orderBy('created_at')
      .orderBy('token_name')
      .orderBy('secret_hash');
  return {
    async list() {
      return (await ordered().execute()).map(toToken);
    },
    async getByHash(secretHash) {
      const row = (await getByHash.run(ctx, { hash: secretHash })).rows[0];
      return row ? toToken(row) : null;
    },
    async listByName(tokenName) {
      return (await ordered().where('token_name', '=', tokenName).execute()).map(toToken);
    },
    async insert(token) {
      // The message names the token, never its secret or hash.
      await uniqueOr(ctx, `An API token with the same secret as "${token.tokenName}" already exists.`, (d) =>
        d
          .insertInto('api_tokens')
          .values({ secret_hash: token.secretHash, ...columns(token) })
          .execute(),
      );
    },
    async update(token) {
      const result = await db
        .updateTable('api_tokens')
        .set(columns(token))
        .where('secret_hash', '=', token.secretHash)
        .executeTakeFirst();
      return touched(result);
    },
    async delete(secretHash) {
      return touched(
        await db.deleteFrom('api_tokens').where('secret_hash', '=', secretHash).executeTakeFirst(),
      );
    },
    async markSeen(secretHashes, at) {
      if (secretHashes.length === 0) return;
      await db
        .updateTable('api_tokens')
        .set({ seen_at: at })
        .where(inList(ctx, 'secret_hash', [...new Set(secretHashes)]))
        .execute();
    },
    async countAdmin() {
      const row = await db
        .selectFrom('api_tokens')
        .select((eb) => eb.fn.countAll().as('count'))
        .where('type', '=', 'admin')
        .executeTakeFirstOrThrow();
      return int(row.count);
    },
  };
}
