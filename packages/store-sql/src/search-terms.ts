import { createHash } from 'node:crypto';
import { EVENT_TYPES } from '@flagstaff/core';

/**
 * Free-text search over events, worked out in JS so both dialects index and query exactly the same
 * terms: the database only stores lexemes and answers "has this term / a term with this prefix".
 *
 * Payload words are runs of letters and digits, lower-cased. Type and creator match by substring;
 * since the types are a fixed list and creators few, the substring is resolved in JS to the set of
 * matching types/creators, each indexed as one synthetic term (`ty_…`, `cr_…`). Project and feature
 * are indexed too (`pr_…`, `fe_…`), so a search combining filters with text is one index query.
 * Payload words never contain `_`, so synthetic terms cannot collide with them.
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

/** PostgreSQL caps a tsvector at 1 MB; words past this many characters are not indexed. */
const MAX_INDEXED_CHARACTERS = 256 * 1024;

/** Distinct words of an event payload (`data` and `preData`): keys and scalar values. */
export function payloadWords(...values: unknown[]): Set<string> {
  // The texts in visiting order, matched in one pass: a space between them keeps words apart.
  const texts: string[] = [];
  const visit = (value: unknown): void => {
    if (value === null || value === undefined) return;
    if (typeof value === 'string') texts.push(value);
    else if (typeof value === 'number' || typeof value === 'boolean') texts.push(String(value));
    else if (Array.isArray(value)) {
      for (const item of value) visit(item);
    } else if (typeof value === 'object') {
      for (const key in value) {
        if (!Object.hasOwn(value, key)) continue;
        texts.push(key);
        visit((value as Record<string, unknown>)[key]);
      }
    }
  };
  for (const value of values) visit(value);
  const words = new Set<string>();
  let characters = 0;
  for (const word of wordsOf(texts.join(' '))) {
    const kept = word.length > MAX_WORD_LENGTH ? word.slice(0, MAX_WORD_LENGTH) : word;
    if (words.has(kept) || characters + kept.length > MAX_INDEXED_CHARACTERS) continue;
    words.add(kept);
    characters += kept.length + 1;
  }
  return words;
}

/** The synthetic term standing for an event type. */
export const typeTerm = (type: string): string => `ty_${type.replaceAll('-', '_')}`;
/** The synthetic term standing for a creator (by its row in `event_creators`). */
export const creatorTerm = (creatorId: number): string => `cr_${creatorId}`;
/**
 * An exact value (any characters, any case) as a term: hex keeps it to letters and digits. Long
 * values are hashed to stay under PostgreSQL's 2 KB lexeme limit; `h` is no hex digit, so a hash
 * never equals the hex of a short value.
 */
function exactTerm(prefix: string, value: string): string {
  const bytes = Buffer.from(value);
  if (bytes.length <= 256) return `${prefix}${bytes.toString('hex')}`;
  return `${prefix}h${createHash('sha256').update(bytes).digest('hex')}`;
}
export const projectTerm = (project: string): string => exactTerm('pr_', project);
export const featureTerm = (feature: string): string => exactTerm('fe_', feature);

/** The event fields that exact filters test, as indexed alongside the words. */
export interface FilterFields {
  type?: string | undefined;
  project?: string | null | undefined;
  featureName?: string | null | undefined;
}

/** Terms for the exact filters that are set, so a text search can intersect them inside the index. */
export function filterTerms(fields: FilterFields): string[] {
  const terms: string[] = [];
  if (fields.type != null) terms.push(typeTerm(fields.type));
  if (fields.project != null) terms.push(projectTerm(fields.project));
  if (fields.featureName != null) terms.push(featureTerm(fields.featureName));
  return terms;
}

/** Every index term of one event: payload and tag words, its creator, and its filter fields. */
export function eventTerms(
  event: FilterFields & { type: string; data?: unknown; preData?: unknown; tags?: unknown },
  creatorId: number,
): string[] {
  return [
    ...payloadWords(event.data, event.preData, event.tags),
    creatorTerm(creatorId),
    ...filterTerms(event),
  ];
}

/** One whitespace-separated query term: all its `words` found, or any one of the `anyOf` exact terms. */
export interface TermQuery {
  words: { text: string; prefix: boolean }[];
  anyOf: string[];
}

/**
 * A text search for the index: every filter term and every query term must match (the query terms
 * are ANDed like the memory store does). Filter terms repeat the exact filters of the search, so
 * the index alone can answer "the newest n matches" without intersecting with B-tree indexes.
 */
export interface TextQuery {
  filters: string[];
  terms: TermQuery[];
  /**
   * Terms a match must not have: the projects left out of the search (`excludeProjects`). The
   * repository filters those rows outside the index too, so a dialect whose match is a plain
   * condition may ignore them; one that stops at `limit` inside the index must apply them there.
   */
  exclude?: readonly string[];
}

/**
 * Parses the query terms of `query`, given the known creators (id and name). Returns null when
 * some term cannot match anything, so the search is empty.
 */
export function parseTextQuery(
  query: string,
  creators: readonly { id: number; name: string }[],
): TermQuery[] | null {
  const terms = query.toLowerCase().split(/\s+/).filter(Boolean);
  const parsed: TermQuery[] = [];
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
