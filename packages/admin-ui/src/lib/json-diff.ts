export interface DiffLine {
  kind: 'add' | 'del';
  path: string;
  value: string;
}

const show = (v: unknown) => JSON.stringify(v) ?? 'undefined';
const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

function walk(before: unknown, after: unknown, path: string, out: DiffLine[]): void {
  // A record against a record (or against nothing) is compared field by field, so a created or
  // deleted object reads as one line per field rather than one blob.
  if (
    (isRecord(before) || before === undefined) &&
    (isRecord(after) || after === undefined) &&
    before !== after
  ) {
    const b = before ?? {};
    const a = after ?? {};
    for (const key of new Set([...Object.keys(b), ...Object.keys(a)]))
      walk(b[key], a[key], path ? `${path}.${key}` : key, out);
    return;
  }
  if (Array.isArray(before) && Array.isArray(after) && before.length === after.length) {
    for (const [i, item] of before.entries()) walk(item, after[i], `${path}.${i}`, out);
    return;
  }
  if (JSON.stringify(before) === JSON.stringify(after)) return;
  if (before !== undefined) out.push({ kind: 'del', path, value: show(before) });
  if (after !== undefined) out.push({ kind: 'add', path, value: show(after) });
}

/** The changed leaves between an event's preData and data, as readable lines. */
export function jsonDiff(before: unknown, after: unknown): DiffLine[] {
  const out: DiffLine[] = [];
  walk(before ?? undefined, after ?? undefined, '', out);
  return out;
}
