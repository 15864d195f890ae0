import type { EventQuery, FlagstaffEvent, NewEvent } from '../domain/event.js';

/** The event log: append-only, the outbox every reader works from. */
export interface EventRepository {
  /**
   * Appends events inside the current transaction and returns them with ids. Ids strictly increase
   * in commit order: an event committed later always has a larger id than every earlier one.
   * A later `search` with a text query sees them as soon as they commit.
   */
  append(events: readonly NewEvent[]): Promise<FlagstaffEvent[]>;
  /**
   * Events matching every given filter, newest first (oldest first with `ascending`), at most
   * `limit` (no limit when omitted). `query` matches case-insensitively against the type, creator and
   * the data/preData payloads; it finds whole words and word prefixes of at least 3 characters and
   * substrings of type and creator. `excludeProjects` leaves out the events of those projects but
   * never an event without a project, and applies before `limit`: pages are full whenever enough
   * other events match.
   */
  search(query: EventQuery): Promise<FlagstaffEvent[]>;
  /** How many events match the filters of the query (limit is ignored). */
  count(query: Omit<EventQuery, 'limit'>): Promise<number>;
  /** The id of the newest event, of one of `types` when given (0 when none). */
  latestId(filter?: { types?: readonly string[] }): Promise<number>;
  /** Everyone who has written an event (user names, e-mails, token names), ordered by name. */
  listCreators(): Promise<{ id: number; name: string }[]>;
}
