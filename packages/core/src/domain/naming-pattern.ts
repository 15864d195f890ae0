import { RE2JS } from 're2js';

/**
 * Longest feature naming pattern a project may hold. RE2 matches in time linear in pattern × name,
 * so the pattern length is what bounds the cost of every feature creation in the project.
 */
export const MAX_NAMING_PATTERN_LENGTH = 500;

/** Why a pattern is refused, phrased to follow the property name in a validation message. */
export const NAMING_PATTERN_RULE =
  'must be a regular expression in RE2 syntax (no backreferences or lookaround) of at most 500 characters';

/**
 * Compiles a project's feature naming pattern, anchored at both ends like the reference anchors it,
 * with RE2: a native RegExp backtracks, and `(a+)+` against a 30-character name blocks the event loop
 * for seconds. Null when the pattern is too long or not RE2 syntax.
 */
export function compileNamingPattern(pattern: string): { test(name: string): boolean } | null {
  if (pattern.length > MAX_NAMING_PATTERN_LENGTH) return null;
  try {
    // Checked alone first: `a\` is invalid, yet `^a\$` parses (an escaped "$", no end anchor).
    RE2JS.compile(pattern);
    return RE2JS.compile(`^${pattern}$`);
  } catch {
    return null;
  }
}

/** True when the pattern is usable as a feature naming pattern (null and "" mean "no pattern"). */
export const isValidNamingPattern = (pattern: string | null | undefined): boolean =>
  pattern == null || pattern === '' || compileNamingPattern(pattern) !== null;
