export interface DiffLine {
  kind: 'add' | 'del' | 'same';
  path: string;
  value: string;
}

const show = (v: unknown) => (typeof v === 'string' ? JSON.stringify(v) : (JSON.stringify(v) ?? 'undefined'));

function walk(before: unknown, after: unknown, path: string, out: DiffLine[]): void {
  const bothObjects =
    typeof before === 'object' && before !== null && typeof after === 'object' && after !== null;
  if (bothObjects && Array.isArray(before) === Array.isArray(after)) {
    const b = before as Record<string, unknown>;
    const a = after as Record<string, unknown>;
    for (const key of new Set([...Object.keys(b), ...Object.keys(a)]))
      walk(b[key], a[key], path ? `${path}.${key}` : key, out);
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
