import { createHmac, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';
import { type Caller, callerOf } from '../../auth/caller.js';
import type { Principal } from '../../auth/principal.js';
import { FlagstaffError } from '../../errors.js';
import type { CompiledFeatureSet } from '../../evaluation/compile-features.js';
import type { EvaluationContext } from '../../evaluation/evaluation-context.js';
import type { ServiceDeps } from '../deps.js';
import { etagMatches } from './client-etag.js';
import { frontendEtag } from './client-frontend.js';
import type { ClientScope } from './client-service.js';
import type { EnvironmentSnapshot } from './evaluator-cache.js';
import { evaluateOfrepFlag, type OfrepEvaluation, ofrepContext } from './ofrep-evaluation.js';

export type { OfrepEvaluation, OfrepReason } from './ofrep-evaluation.js';

/** HKDF `info` for the stream ticket key: a label no other key taken from the server key uses. */
const TICKET_KEY_LABEL = 'flagstaff ofrep event-stream ticket v1';

/** What the OFREP service needs of the client service: its scope rule and snapshots. */
export interface OfrepDeps extends ServiceDeps {
  secretKey?: string | undefined;
  /** The caller's token scope, judged by the policy for that audience. */
  scopeOf(caller: Caller, audience: 'client' | 'frontend'): Promise<ClientScope>;
  /** The caller's environment snapshot at the current revision. */
  snapshotOf(scope: ClientScope): Promise<EnvironmentSnapshot>;
}

/** A flag of a bulk answer that could not be evaluated. */
export interface OfrepFailure {
  key: string;
  errorCode: 'GENERAL';
  errorDetails: string;
}

/** Bulk evaluation: the flags, or null when `If-None-Match` matched (a 304). */
export interface OfrepBulk {
  etag: string | null;
  flags: (OfrepEvaluation | OfrepFailure)[] | null;
  revision: number;
}

/**
 * The API family an OFREP caller is judged as: a frontend token as the frontend API, everyone else
 * as the client API (so admin tokens and users are refused there, by the policy).
 */
export const ofrepAudience = (principal: Principal): 'client' | 'frontend' =>
  principal.kind === 'api-token' && principal.tokenType === 'frontend' ? 'frontend' : 'client';

const visible = (scope: ClientScope, compiled: CompiledFeatureSet) => {
  const all = scope.projects.includes('*');
  return compiled.features.filter((f) => all || scope.projects.includes(f.project));
};

/**
 * OFREP (OpenFeature Remote Evaluation Protocol) over the SDK evaluator: single and bulk
 * evaluation within a client or frontend token's scope, bulk ETags, and the tickets that let an
 * event stream URL (EventSource cannot send headers) stand for the token that asked for it.
 */
export function createOfrepService(deps: OfrepDeps) {
  // Without a server key tickets are valid on this process only, like password-reset links.
  const ticketKey = deps.secretKey
    ? Buffer.from(hkdfSync('sha256', deps.secretKey, '', TICKET_KEY_LABEL, 32))
    : randomBytes(32);
  const sign = (subject: string) =>
    createHmac('sha256', ticketKey).update(subject).digest('base64url').slice(0, 32);

  async function prepare(caller: Caller, body: unknown) {
    const scope = await deps.scopeOf(caller, ofrepAudience(caller.principal));
    const context = ofrepContext(body);
    return { scope, context, snapshot: await deps.snapshotOf(scope) };
  }

  return {
    /** POST /ofrep/v1/evaluate/flags/{key}: one flag; NOT_FOUND when absent or outside the scope. */
    async evaluate(caller: Caller, key: string, body: unknown, typed = false): Promise<OfrepEvaluation> {
      const { scope, context, snapshot } = await prepare(caller, body);
      const feature = snapshot.compiled.get(key);
      const inScope = feature && (scope.projects.includes('*') || scope.projects.includes(feature.project));
      if (!feature || !inScope)
        throw new FlagstaffError('NOT_FOUND', `Flag "${key}" was not found.`, {
          ofrepErrorCode: 'FLAG_NOT_FOUND',
        });
      return evaluateOfrepFlag(snapshot.compiled, feature, withEnvironment(context, snapshot), typed);
    },

    /**
     * POST /ofrep/v1/evaluate/flags: every flag of the scope. The ETag covers revision, scope,
     * context and `typed`; it is null when the answer may differ between identical requests (random
     * stickiness, the clock), as on the frontend API. A match evaluates nothing.
     */
    async bulk(caller: Caller, body: unknown, ifNoneMatch?: string, typed = false): Promise<OfrepBulk> {
      const { scope, context, snapshot } = await prepare(caller, body);
      const full = withEnvironment(context, snapshot);
      const scopeKey = JSON.stringify(['ofrep', typed, snapshot.environment, [...scope.projects].sort()]);
      const etag = frontendEtag(snapshot.payload, snapshot.revision, scopeKey, full);
      const { revision } = snapshot;
      if (etag !== null && etagMatches(ifNoneMatch, etag)) return { etag, flags: null, revision };
      const flags = visible(scope, snapshot.compiled).map((f): OfrepEvaluation | OfrepFailure => {
        // One flag that cannot be evaluated is a failure in the list, not a failed answer.
        try {
          return evaluateOfrepFlag(snapshot.compiled, f, full, typed);
        } catch (error) {
          deps.logger.error('could not evaluate a flag for OFREP', { flag: f.name, error: String(error) });
          return { key: f.name, errorCode: 'GENERAL', errorDetails: 'The flag could not be evaluated.' };
        }
      });
      return { etag, flags, revision };
    },

    /**
     * A ticket naming the caller's token for the event stream URL: an HMAC of the token's hash, so
     * it stops working with the token, and answers only "the configuration changed". Callers with
     * no token (authentication off) get one that stands for that open access.
     */
    async streamTicket(caller: Caller): Promise<string> {
      await deps.scopeOf(caller, ofrepAudience(caller.principal));
      const { principal } = caller;
      const subject = principal.kind === 'api-token' ? principal.secretHash : '*';
      return `${subject}.${sign(subject)}`;
    },

    /** The caller a ticket stands for now; null when it is forged or its token is gone or expired. */
    async callerOfTicket(ticket: string): Promise<Caller | null> {
      const dot = ticket.lastIndexOf('.');
      if (dot <= 0) return null;
      const subject = ticket.slice(0, dot);
      const given = Buffer.from(ticket.slice(dot + 1));
      const expected = Buffer.from(sign(subject));
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
      if (subject === '*') return callerOf({ kind: 'anonymous-admin', name: 'ofrep' });
      const token = await deps.store.apiTokens.getByHash(subject);
      if (!token) return null;
      if (token.expiresAt && Date.parse(token.expiresAt) <= deps.clock.now().getTime()) return null;
      return callerOf({
        kind: 'api-token',
        tokenType: token.type,
        name: token.tokenName,
        secretHash: token.secretHash,
        projects: token.projects,
        environment: token.environment,
      });
    },
  };
}

/** The environment evaluated in, unless the caller named one (as the frontend API does). */
const withEnvironment = (context: EvaluationContext, snapshot: EnvironmentSnapshot): EvaluationContext =>
  context.environment === undefined ? { ...context, environment: snapshot.environment } : context;

export type OfrepService = ReturnType<typeof createOfrepService>;
