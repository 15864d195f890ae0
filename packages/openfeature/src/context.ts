import type { EvaluationContext as UnleashContext } from '@flagstaff/core';
import type { EvaluationContext } from '@openfeature/server-sdk';

// Fields the Unleash context holds at the top level; the rest of an OpenFeature context goes to
// `properties`, where constraints on custom context fields read it.
const TOP_LEVEL = new Set(['userId', 'sessionId', 'remoteAddress', 'environment', 'appName']);

/** A context value as the Unleash context keeps it: always a string. */
function asString(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string') return value;
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/**
 * Maps an OpenFeature evaluation context to the Unleash context: `targetingKey` becomes `userId`
 * (an explicit `userId` wins), the known fields stay at the top level, `currentTime` keeps its
 * date, and every other attribute becomes a string property.
 */
export function toUnleashContext(context: EvaluationContext): UnleashContext {
  const result: UnleashContext = {};
  const properties: Record<string, string> = {};
  for (const [key, value] of Object.entries(context)) {
    if (key === 'targetingKey') continue;
    if (key === 'currentTime') {
      if (value instanceof Date || typeof value === 'string' || typeof value === 'number')
        result.currentTime = value;
      continue;
    }
    if (key === 'properties' && value !== null && typeof value === 'object' && !Array.isArray(value)) {
      for (const [name, inner] of Object.entries(value)) {
        const text = asString(inner);
        if (text !== undefined) properties[name] = text;
      }
      continue;
    }
    const text = asString(value);
    if (text === undefined) continue;
    if (TOP_LEVEL.has(key)) result[key] = text;
    else properties[key] = text;
  }
  const targetingKey = asString(context.targetingKey);
  if (result.userId === undefined && targetingKey !== undefined && targetingKey !== '')
    result.userId = targetingKey;
  result.properties = properties;
  return result;
}
