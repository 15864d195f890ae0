import { z } from 'zod';
import type { Lifecycle } from './feature.js';
import type { Tag } from './tag.js';

/**
 * GET /api/admin/search/features, as the reference's admin UI calls it: filters are
 * `OPERATOR:value[,value…]` strings, `query` is a comma-separated list of words (any may match).
 */

export const FEATURE_SEARCH_DEFAULT_LIMIT = 50;
export const FEATURE_SEARCH_MAX_LIMIT = 100;

/** Keeps rows whose value is (`negate: false`) or is not (`negate: true`) one of `values`. */
export interface ValueFilter {
  negate: boolean;
  values: string[];
}

/**
 * Keeps rows by which of the listed items they carry: `any` (INCLUDE, INCLUDE_ANY_OF), `all`
 * (INCLUDE_ALL_OF), `none` (DO_NOT_INCLUDE, EXCLUDE_IF_ANY_OF), `notAll` (EXCLUDE_ALL).
 */
export interface SetFilter<T> {
  mode: 'any' | 'all' | 'none' | 'notAll';
  items: T[];
}

/** Keeps rows whose instant is before, or on or after, the start of a UTC day. */
export interface DateFilter {
  before: boolean;
  /** The day's start as a canonical RFC 3339 instant. */
  at: string;
}

export type FeatureSearchSort = 'name' | 'createdAt' | 'type' | 'lastSeenAt' | 'environment';

/** A parsed, normalised feature search; the store applies every part in one query. */
export interface FeatureSearchQuery {
  /** Words, ASCII lower-cased; a feature matches when its name, description or a `type:value` tag contains any. */
  terms: string[];
  project?: ValueFilter | undefined;
  type?: ValueFilter | undefined;
  /** Over `stale` / `active`. */
  state?: ValueFilter | undefined;
  lifecycle?: ValueFilter | undefined;
  /** Over `<environment>:enabled` / `<environment>:disabled` (no row counts as disabled). */
  status?: ValueFilter | undefined;
  tag?: SetFilter<Tag> | undefined;
  /** Segment names used by any of the feature's strategies. */
  segment?: SetFilter<string> | undefined;
  createdAt?: DateFilter | undefined;
  lastSeenAt?: DateFilter | undefined;
  /** Only archived features when true; only live ones otherwise. */
  archived: boolean;
  sortBy: FeatureSearchSort;
  /** With `sortBy: 'environment'`: enabled-ness in this environment. */
  sortEnvironment?: string | undefined;
  sortOrder: 'asc' | 'desc';
  offset: number;
  limit: number;
}

/** A feature's state in one environment, as the feature table shows it. */
export interface FeatureSearchEnvironment {
  name: string;
  enabled: boolean;
  type: string;
  sortOrder: number;
  hasStrategies: boolean;
  hasEnabledStrategies: boolean;
  lastSeenAt: string | null;
}

/** One row of the feature table. */
export interface FeatureSearchItem {
  name: string;
  project: string;
  type: string;
  description: string | null;
  stale: boolean;
  /** Whether the signed-in user marked the feature as a favorite. */
  favorite: boolean;
  impressionData: boolean;
  createdAt: string;
  archivedAt: string | null;
  lastSeenAt: string | null;
  environments: FeatureSearchEnvironment[];
  tags: Tag[];
  /** Names of the segments the feature's strategies use, ascending. */
  segments: string[];
  /** `child` when the feature depends on another, `parent` when others depend on it, else null. */
  dependencyType: 'parent' | 'child' | null;
  lifecycle: Lifecycle;
}

export interface FeatureSearchResult {
  features: FeatureSearchItem[];
  /** How many features match, over all pages. */
  total: number;
}

const VALUE_OPERATORS: Record<string, boolean> = {
  IS: false,
  IS_ANY_OF: false,
  IS_NOT: true,
  IS_NONE_OF: true,
};
const SET_OPERATORS: Record<string, SetFilter<unknown>['mode']> = {
  INCLUDE: 'any',
  INCLUDE_ANY_OF: 'any',
  INCLUDE_ALL_OF: 'all',
  DO_NOT_INCLUDE: 'none',
  EXCLUDE_IF_ANY_OF: 'none',
  EXCLUDE_ALL: 'notAll',
};

/**
 * Lower-cases ASCII letters only, as SQLite's lower() and PostgreSQL's under the "C" collation do,
 * so free-text search folds case identically on every store.
 */
export const asciiLower = (text: string): string => text.replace(/[A-Z]+/g, (m) => m.toLowerCase());

const splitList = (list: string): string[] =>
  list
    .split(',')
    .map((v) => v.trim())
    .filter((v) => v.length > 0);

/** Splits `OPERATOR:rest`; undefined when the operator is not one of `allowed`. */
function operatorOf(raw: string, allowed: Record<string, unknown>): [string, string] | undefined {
  const colon = raw.indexOf(':');
  if (colon < 0) return undefined;
  const op = raw.slice(0, colon);
  return Object.hasOwn(allowed, op) ? [op, raw.slice(colon + 1)] : undefined;
}

/** One query parameter; repeated parameters (arrays) are refused rather than guessed at. */
const param = z.string({ error: 'must be given once, as a string' });

const valueFilter = (allowedValues?: readonly string[]) =>
  param.transform((raw, ctx): ValueFilter => {
    const split = operatorOf(raw, VALUE_OPERATORS);
    const values = split ? splitList(split[1]) : [];
    if (!split || values.length === 0) {
      ctx.addIssue({
        code: 'custom',
        message: 'must look like IS:value or IS_ANY_OF:a,b (or IS_NOT, IS_NONE_OF)',
      });
      return z.NEVER;
    }
    const unknown = allowedValues ? values.find((v) => !allowedValues.includes(v)) : undefined;
    if (unknown !== undefined) {
      ctx.addIssue({
        code: 'custom',
        message: `may only name ${allowedValues!.join(', ')}; "${unknown}" is not one`,
      });
      return z.NEVER;
    }
    return { negate: VALUE_OPERATORS[split[0]]!, values };
  });

const setFilter = <T>(item: (value: string) => T | undefined, example: string) =>
  param.transform((raw, ctx): SetFilter<T> => {
    const split = operatorOf(raw, SET_OPERATORS);
    const parts = split ? splitList(split[1]) : [];
    const items = parts.map(item);
    if (!split || items.length === 0 || items.some((i) => i === undefined)) {
      ctx.addIssue({ code: 'custom', message: `must look like ${example}` });
      return z.NEVER;
    }
    return { mode: SET_OPERATORS[split[0]]!, items: items as T[] };
  });

const tagOf = (value: string): Tag | undefined => {
  const colon = value.indexOf(':');
  if (colon <= 0 || colon === value.length - 1) return undefined;
  return { type: value.slice(0, colon), value: value.slice(colon + 1) };
};

const dateFilter = param.transform((raw, ctx): DateFilter => {
  const match = /^(IS_BEFORE|IS_ON_OR_AFTER):(\d{4}-\d{2}-\d{2})$/.exec(raw);
  const time = match ? Date.parse(`${match[2]}T00:00:00.000Z`) : Number.NaN;
  if (!match || Number.isNaN(time)) {
    ctx.addIssue({
      code: 'custom',
      message: 'must look like IS_BEFORE:2024-01-31 or IS_ON_OR_AFTER:2024-01-31',
    });
    return z.NEVER;
  }
  return { before: match[1] === 'IS_BEFORE', at: new Date(time).toISOString() };
});

const integer = (min: number, max: number) =>
  z.union([param, z.number()]).transform((raw, ctx) => {
    const n = typeof raw === 'number' ? raw : raw.trim() === '' ? Number.NaN : Number(raw);
    if (!Number.isInteger(n) || n < min || n > max) {
      ctx.addIssue({ code: 'custom', message: `must be a whole number from ${min} to ${max}` });
      return z.NEVER;
    }
    return n;
  });

const SORTS = ['name', 'createdAt', 'type', 'lastSeenAt'] as const;

/** The query parameters of the feature search; unknown parameters are ignored, as by the reference. */
export const featureSearchParamsSchema = z
  .object({
    query: param.max(1000, 'must be at most 1000 characters').optional(),
    project: valueFilter().optional(),
    type: valueFilter().optional(),
    state: valueFilter(['active', 'stale']).optional(),
    lifecycle: valueFilter(['initial', 'pre-live', 'live', 'completed', 'archived']).optional(),
    status: valueFilter()
      .refine((f) => f.values.every((v) => /^.+:(enabled|disabled)$/.test(v)), {
        message:
          'must list <environment>:enabled or <environment>:disabled, e.g. IS_ANY_OF:production:enabled',
      })
      .optional(),
    tag: setFilter(tagOf, 'INCLUDE:type:value or INCLUDE_ANY_OF:simple:a,simple:b').optional(),
    segment: setFilter((v) => v, 'INCLUDE:segment-name').optional(),
    createdAt: dateFilter.optional(),
    lastSeenAt: dateFilter.optional(),
    archived: z.enum(['IS:true', 'IS:false'], { error: 'must be IS:true or IS:false' }).optional(),
    sortBy: param
      .refine((s) => (SORTS as readonly string[]).includes(s) || /^environment:.+$/.test(s), {
        message: `must be one of ${SORTS.join(', ')} or environment:<name>`,
      })
      .optional(),
    sortOrder: z.enum(['asc', 'desc'], { error: 'must be asc or desc' }).optional(),
    offset: integer(0, 1_000_000_000).optional(),
    limit: integer(1, FEATURE_SEARCH_MAX_LIMIT).optional(),
  })
  .transform((p): FeatureSearchQuery => {
    const environment = p.sortBy?.startsWith('environment:')
      ? p.sortBy.slice('environment:'.length)
      : undefined;
    return {
      terms: splitList(p.query ?? '').map(asciiLower),
      project: p.project,
      type: p.type,
      state: p.state,
      lifecycle: p.lifecycle,
      status: p.status,
      tag: p.tag,
      segment: p.segment,
      createdAt: p.createdAt,
      lastSeenAt: p.lastSeenAt,
      archived: p.archived === 'IS:true',
      sortBy:
        environment !== undefined
          ? 'environment'
          : ((p.sortBy as FeatureSearchSort | undefined) ?? 'createdAt'),
      sortEnvironment: environment,
      sortOrder: p.sortOrder ?? 'asc',
      offset: p.offset ?? 0,
      limit: p.limit ?? FEATURE_SEARCH_DEFAULT_LIMIT,
    };
  });
