import type { Actor } from '../services/deps.js';
import type { Principal } from './principal.js';

/**
 * Who is calling a service: the principal the policy judges, and the actor written into events.
 * Every query that depends on who asks takes one; there is no "no caller" that sees everything.
 */
export interface Caller {
  readonly principal: Principal;
  readonly actor: Actor;
}

/** Flagstaff acting on its own (seeding, scheduled jobs, in-process tools): full access, recorded as `system`. */
export const SYSTEM: Caller = Object.freeze({
  principal: Object.freeze({ kind: 'system', name: 'system' }),
  actor: Object.freeze({ name: 'system', userId: null }),
});

/** The caller for a principal, with the actor events record for it. */
export function callerOf(principal: Principal): Caller {
  return {
    principal,
    actor:
      principal.kind === 'user'
        ? { name: principal.name, userId: principal.userId }
        : { name: principal.name, userId: null },
  };
}

/** The user id of a signed-in user (favorites), null for every other caller. */
export const userIdOf = (caller: Caller): number | null =>
  caller.principal.kind === 'user' ? caller.principal.userId : null;
