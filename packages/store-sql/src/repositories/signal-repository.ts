import type {
  ActionSet,
  Signal,
  SignalEndpoint,
  SignalEndpointToken,
  SignalRepository,
} from '@flagstaff/core';
import type { Selectable } from 'kysely';
import { bool, jsonOf, parseOf, type RepoContext, touched, uniqueOr } from '../context.js';
import type {
  ActionSetTable,
  SignalEndpointTable,
  SignalEndpointTokenTable,
  SignalTable,
} from '../database.js';

const toEndpoint = (row: Selectable<SignalEndpointTable>): SignalEndpoint => ({
  id: row.id,
  name: row.name,
  description: row.description,
  enabled: bool(row.enabled),
  createdAt: row.created_at,
  createdByUserId: row.created_by_user_id,
});

const toToken = (row: Selectable<SignalEndpointTokenTable>): SignalEndpointToken => ({
  id: row.id,
  signalEndpointId: row.signal_endpoint_id,
  name: row.name,
  tokenHash: row.token_hash,
  createdAt: row.created_at,
  createdByUserId: row.created_by_user_id,
});

/** Signal endpoints, their tokens, received signals and the action sets reacting to them. */
export function createSignalRepository(ctx: RepoContext): SignalRepository {
  const { db } = ctx;
  const json = jsonOf(ctx);
  const parse = parseOf(ctx);
  const toSignal = (row: Selectable<SignalTable>): Signal => ({
    id: row.id,
    source: row.source as Signal['source'],
    sourceId: row.source_id,
    payload: row.payload === null ? null : parse(row.payload),
    createdAt: row.created_at,
    tokenName: row.token_name,
  });
  const toActionSet = (row: Selectable<ActionSetTable>): ActionSet => ({
    id: row.id,
    name: row.name,
    description: row.description,
    enabled: bool(row.enabled),
    project: row.project,
    actorId: row.actor_id,
    match: parse<ActionSet['match']>(row.match),
    actions: parse<ActionSet['actions']>(row.actions),
    createdAt: row.created_at,
  });
  const endpointColumns = (e: Omit<SignalEndpoint, 'id'>) => ({
    name: e.name,
    description: e.description,
    enabled: e.enabled,
    created_at: e.createdAt,
    created_by_user_id: e.createdByUserId,
  });
  const taken = (name: string) => `A signal endpoint named "${name}" already exists.`;
  return {
    async listEndpoints() {
      return (await db.selectFrom('signal_endpoints').selectAll().orderBy('id').execute()).map(toEndpoint);
    },
    async getEndpoint(id) {
      const row = await db.selectFrom('signal_endpoints').selectAll().where('id', '=', id).executeTakeFirst();
      return row ? toEndpoint(row) : null;
    },
    async getEndpointByName(name) {
      const row = await db
        .selectFrom('signal_endpoints')
        .selectAll()
        .where('name', '=', name)
        .executeTakeFirst();
      return row ? toEndpoint(row) : null;
    },
    async insertEndpoint(endpoint) {
      const row = await uniqueOr(ctx, taken(endpoint.name), (d) =>
        d
          .insertInto('signal_endpoints')
          .values(endpointColumns(endpoint))
          .returningAll()
          .executeTakeFirstOrThrow(),
      );
      return toEndpoint(row);
    },
    async updateEndpoint(endpoint) {
      const result = await uniqueOr(ctx, taken(endpoint.name), (d) =>
        d
          .updateTable('signal_endpoints')
          .set(endpointColumns(endpoint))
          .where('id', '=', endpoint.id)
          .executeTakeFirst(),
      );
      return touched(result);
    },
    async deleteEndpoint(id) {
      if (!touched(await db.deleteFrom('signal_endpoints').where('id', '=', id).executeTakeFirst()))
        return false;
      await db.deleteFrom('signal_endpoint_tokens').where('signal_endpoint_id', '=', id).execute();
      await db
        .deleteFrom('signals')
        .where('source', '=', 'signal-endpoint')
        .where('source_id', '=', id)
        .execute();
      return true;
    },
    async listTokens(endpointId) {
      const rows = await db
        .selectFrom('signal_endpoint_tokens')
        .selectAll()
        .where('signal_endpoint_id', '=', endpointId)
        .orderBy('id')
        .execute();
      return rows.map(toToken);
    },
    async insertToken(token) {
      const row = await db
        .insertInto('signal_endpoint_tokens')
        .values({
          signal_endpoint_id: token.signalEndpointId,
          name: token.name,
          token_hash: token.tokenHash,
          created_at: token.createdAt,
          created_by_user_id: token.createdByUserId,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      return toToken(row);
    },
    async deleteToken(endpointId, tokenId) {
      const result = await db
        .deleteFrom('signal_endpoint_tokens')
        .where('id', '=', tokenId)
        .where('signal_endpoint_id', '=', endpointId)
        .executeTakeFirst();
      return touched(result);
    },
    async insertSignal(signal) {
      const payload = signal.payload === undefined || signal.payload === null ? null : json(signal.payload);
      const row = await db
        .insertInto('signals')
        .values({
          source: signal.source,
          source_id: signal.sourceId,
          payload,
          created_at: signal.createdAt,
          token_name: signal.tokenName,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      return toSignal(row);
    },
    async listSignals(endpointId, limit) {
      if (limit <= 0) return [];
      const rows = await db
        .selectFrom('signals')
        .selectAll()
        .where('source', '=', 'signal-endpoint')
        .where('source_id', '=', endpointId)
        .orderBy('id', 'desc')
        .limit(limit)
        .execute();
      return rows.map(toSignal);
    },
    async listActionSets() {
      return (await db.selectFrom('action_sets').selectAll().orderBy('id').execute()).map(toActionSet);
    },
    async insertActionSet(set) {
      const row = await db
        .insertInto('action_sets')
        .values({
          name: set.name,
          description: set.description,
          enabled: set.enabled,
          project: set.project,
          actor_id: set.actorId,
          match: json(set.match),
          actions: json(set.actions),
          created_at: set.createdAt,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      return toActionSet(row);
    },
    async deleteActionSet(id) {
      return touched(await db.deleteFrom('action_sets').where('id', '=', id).executeTakeFirst());
    },
  };
}
