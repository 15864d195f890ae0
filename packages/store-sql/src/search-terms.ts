import { EVENT_TYPES } from '@flagstaff/core';

/**
 * Free-text search over events, worked out in JS so both dialects index and query exactly the same
 * terms: the database only stores lexemes and answers "has this term / a term with this prefix".
 *
 * Payload words are runs of letters and digits, lower-cased. Type and creator match by substring;
 * since the types are a fixed list and creators few, the substring is resolved in JS to the set of
 * matching types/creators, each indexed as one synthetic term (`ty_…`, `cr_…`). Payload words never
 * contain `_`, so synthetic terms cannot collide with them.
 */

/** A word is a run of letters and digits (any script). */
const WORD = /[\p{L}\p{N}]+/gu;
/** PostgreSQL caps a lexeme at 2 KB; queries are at most 200 characters, so longer words keep their prefix. */
const MAX_WORD_LENGTH = 200;
/** Shorter query words must match a whole word; longer ones match word prefixes. */
export const MIN_PREFIX_LENGTH = 3;

/** The lower-cased words of a text. */
export function wordsOf(text: string): string[] {
  return text.toLowerCase().match(WORD) ?? [];
}

/** Distinct words of an event payload (`data` and `preData`): keys and scalar values. */
export function payloadWords(...values: unknown[]): Set<string> {
  const words = new Set<string>();
  const visit = (value: unknown): void => {
    if (value === null || value === undefined) return;
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') {
      for (const word of wordsOf(String(value))) words.add(word.slice(0, MAX_WORD_LENGTH));
    } else if (Array.isArray(value)) {
      for (const item of value) visit(item);
    } else if (typeof value === 'object') {
      for (const [key, item] of Object.entries(value)) {
        visit(key);
        visit(item);
      }
    }
  };
  for (const value of values) visit(value);
  return words;
}

/** The synthetic term standing for an event type. */
export const typeTerm = (type: string): string => `ty_${type.replaceAll('-', '_')}`;
/** The synthetic term standing for a creator (by its row in `event_creators`). */
export const creatorTerm = (creatorId: number): string => `cr_${creatorId}`;

/** Every index term of one event: payload and tag words, its type and its creator. */
export function eventTerms(
  event: { type: string; data?: unknown; preData?: unknown; tags?: unknown },
  creatorId: number,
): string[] {
  return [
    ...payloadWords(event.data, event.preData, event.tags),
    typeTerm(event.type),
    creatorTerm(creatorId),
  ];
}

/** One whitespace-separated query term: all its `words` found, or any one of the `anyOf` exact terms. */
export interface TermQuery {
  words: { text: string; prefix: boolean }[];
  anyOf: string[];
}

/** A parsed free-text query: every term must match (the AND the memory store applies too). */
export type TextQuery = TermQuery[];

/**
 * Builds the text query for `query`, given the known creators (id and name). Returns null when
 * some term cannot match anything, so the search is empty.
 */
export function parseTextQuery(
  query: string,
  creators: readonly { id: number; name: string }[],
): TextQuery | null {
  const terms = query.toLowerCase().split(/\s+/).filter(Boolean);
  const parsed: TextQuery = [];
  for (const term of terms) {
    const texts = wordsOf(term);
    // In "flag-a" the last word may be cut short, so it is a prefix however short; a lone short word
    // must be whole, as the port promises.
    const words = texts.map((text, i) => ({
      text,
      prefix: text.length >= MIN_PREFIX_LENGTH || (texts.length > 1 && i === texts.length - 1),
    }));
    const anyOf = [
      ...EVENT_TYPES.filter((type) => type.includes(term)).map(typeTerm),
      ...creators.filter((c) => c.name.toLowerCase().includes(term)).map((c) => creatorTerm(c.id)),
    ];
    if (words.length === 0 && anyOf.length === 0) return null;
    parsed.push({ words, anyOf });
  }
  return parsed;
}
