/** What a flag is evaluated for: the Unleash context (top-level fields plus free-form `properties`). */
export interface EvaluationContext {
  userId?: string;
  sessionId?: string;
  remoteAddress?: string;
  environment?: string;
  appName?: string;
  /** Time `DATE_AFTER`/`DATE_BEFORE` compare against; defaults to now. */
  currentTime?: Date | string | number;
  properties?: Record<string, string | undefined>;
  [field: string]: unknown;
}

/**
 * The context value a constraint or stickiness reads: the top-level field first, then
 * `properties[field]`, always as a string, `undefined` when absent or null (unleash-client semantics).
 */
export function resolveContextValue(context: EvaluationContext, field: string): string | undefined {
  const value = context[field] ?? context.properties?.[field];
  if (value === undefined || value === null) return undefined;
  return typeof value === 'string' ? value : String(value);
}

/**
 * Epoch milliseconds of the context's `currentTime`, or now; NaN when it is not a date. `parse` must
 * behave like `Date.parse` (which is `new Date(string).getTime()`); callers pass a memoised one.
 */
export function currentTimeOf(
  context: EvaluationContext,
  parse: (time: string) => number = Date.parse,
): number {
  const time = context.currentTime;
  if (!time) return Date.now();
  if (time instanceof Date) return time.getTime();
  if (typeof time === 'string') return parse(time);
  return new Date(time).getTime();
}
