import { randomBytes, randomUUID } from 'node:crypto';
import type { Policy } from '../auth/policy.js';
import type { Repositories } from '../ports/repositories.js';
import type { Clock, IdGenerator, Logger } from '../ports/runtime-ports.js';
import type { Store } from '../ports/store.js';

/** Who performed a command; it is written into every event the command produces. */
export interface Actor {
  /** User name or e-mail, or the token name for API tokens. */
  name: string;
  userId: number | null;
}

/** The actor for changes Flagstaff makes on its own (seeding, signals' actions use their own). */
export const SYSTEM_ACTOR: Actor = Object.freeze({ name: 'system', userId: null });

/** What every service factory receives. */
export interface ServiceDeps {
  store: Store;
  clock: Clock;
  ids: IdGenerator;
  logger: Logger;
  /** Who may do and see what; every operation asks it first. */
  policy: Policy;
}

export const cryptoIds: IdGenerator = {
  uuid: () => randomUUID(),
  randomHex: (bytes) => randomBytes(bytes).toString('hex'),
};

/** Runs a command in one transaction: its state change and its events commit together. */
export const inTransaction = <T>(deps: ServiceDeps, fn: (tx: Repositories) => Promise<T>): Promise<T> =>
  deps.store.transaction(fn);

/** The clock's now as the RFC 3339 string stores keep. */
export const nowIso = (deps: Pick<ServiceDeps, 'clock'>): string => deps.clock.now().toISOString();
