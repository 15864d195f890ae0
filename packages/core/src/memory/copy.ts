/**
 * Copies plain data the way a JSON column would store it: arrays and objects are copied deeply,
 * `undefined` properties disappear, and values with `toJSON` (dates) become what they serialise to.
 * Stored rows are never handed out or kept by reference, so callers cannot change the store by
 * mutating what they passed in or got back.
 */
export function copy<T>(value: T): T {
  return copyValue(value) as T;
}

function copyValue(value: unknown): unknown {
  if (typeof value === 'function' || typeof value === 'symbol') return undefined;
  if (value === null || typeof value !== 'object') {
    return typeof value === 'number' && !Number.isFinite(value) ? null : value;
  }
  if (Array.isArray(value)) {
    return value.map((item) => {
      const copied = copyValue(item);
      return copied === undefined ? null : copied;
    });
  }
  const withJson = value as { toJSON?: () => unknown };
  if (typeof withJson.toJSON === 'function') return copyValue(withJson.toJSON());
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    const copied = copyValue(item);
    if (copied !== undefined) out[key] = copied;
  }
  return out;
}
