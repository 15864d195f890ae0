import type { PatchOperation } from '../../domain/strategy.js';
import { FlagstaffError } from '../../errors.js';

const bad = (index: number, message: string): FlagstaffError =>
  new FlagstaffError('VALIDATION', `"[${index}].path" ${message}.`, { path: `[${index}].path` });

const parsePointer = (pointer: string, index: number): string[] => {
  if (!pointer.startsWith('/')) throw bad(index, 'must be a JSON pointer starting with "/"');
  return pointer
    .slice(1)
    .split('/')
    .map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
};

type Container = Record<string, unknown> | unknown[];

function parentOf(doc: unknown, tokens: string[], index: number): { parent: Container; key: string } {
  let node = doc;
  for (const token of tokens.slice(0, -1)) {
    if (node === null || typeof node !== 'object') throw bad(index, `does not exist (at "${token}")`);
    node = (node as Record<string, unknown>)[token];
  }
  if (node === null || typeof node !== 'object') throw bad(index, 'does not exist');
  return { parent: node as Container, key: tokens[tokens.length - 1]! };
}

function read(doc: unknown, tokens: string[], index: number): unknown {
  const { parent, key } = parentOf(doc, tokens, index);
  const value = Array.isArray(parent) ? parent[Number(key)] : parent[key];
  if (value === undefined) throw bad(index, 'does not exist');
  return value;
}

function remove(doc: unknown, tokens: string[], index: number): unknown {
  const { parent, key } = parentOf(doc, tokens, index);
  const value = read(doc, tokens, index);
  if (Array.isArray(parent)) parent.splice(Number(key), 1);
  else delete parent[key];
  return value;
}

function add(doc: unknown, tokens: string[], value: unknown, index: number, replace: boolean): void {
  const { parent, key } = parentOf(doc, tokens, index);
  if (Array.isArray(parent)) {
    const i = key === '-' ? parent.length : Number(key);
    if (!Number.isInteger(i) || i < 0 || i > parent.length) throw bad(index, 'is not a valid array index');
    if (replace) {
      if (i >= parent.length) throw bad(index, 'does not exist');
      parent[i] = value;
    } else parent.splice(i, 0, value);
  } else {
    if (replace && !(key in parent)) throw bad(index, 'does not exist');
    parent[key] = value;
  }
}

/**
 * Applies RFC 6902 operations to a copy of `doc` and returns it. When `allowedRoots` is given, only
 * those top-level properties may be touched.
 */
export function applyJsonPatch<T>(
  doc: T,
  ops: readonly PatchOperation[],
  allowedRoots?: readonly string[],
): T {
  const out = structuredClone(doc) as unknown;
  ops.forEach((op, index) => {
    const tokens = parsePointer(op.path, index);
    if (allowedRoots && !allowedRoots.includes(tokens[0]!))
      throw bad(
        index,
        `cannot change "${tokens[0]}"; allowed: ${allowedRoots.map((r) => `"/${r}"`).join(', ')}`,
      );
    if (tokens.length === 1 && tokens[0] === '') throw bad(index, 'cannot be the whole document');
    const from = () => {
      if (op.from === undefined)
        throw new FlagstaffError('VALIDATION', `"[${index}].from" is required for "${op.op}".`, {
          path: `[${index}].from`,
        });
      return parsePointer(op.from, index);
    };
    switch (op.op) {
      case 'add':
      case 'replace':
        if (!('value' in op))
          throw new FlagstaffError('VALIDATION', `"[${index}].value" is required for "${op.op}".`, {
            path: `[${index}].value`,
          });
        add(out, tokens, structuredClone(op.value), index, op.op === 'replace');
        break;
      case 'remove':
        remove(out, tokens, index);
        break;
      case 'move':
        add(out, tokens, remove(out, from(), index), index, false);
        break;
      case 'copy':
        add(out, tokens, structuredClone(read(out, from(), index)), index, false);
        break;
      case 'test':
        if (JSON.stringify(read(out, tokens, index)) !== JSON.stringify(op.value))
          throw new FlagstaffError(
            'VALIDATION',
            `"[${index}]" test failed: the value at "${op.path}" differs.`,
            { path: `[${index}]` },
          );
        break;
    }
  });
  return out as T;
}
