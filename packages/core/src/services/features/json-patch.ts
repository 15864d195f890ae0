import jsonPatch, { type Operation, type Validator } from 'fast-json-patch';
import type { PatchOperation } from '../../domain/strategy.js';
import { FlagstaffError } from '../../errors.js';

const invalid = (property: string, message: string): FlagstaffError =>
  new FlagstaffError('VALIDATION', `"${property}" ${message}.`, { path: property });

const bad = (index: number, message: string): FlagstaffError => invalid(`[${index}].path`, message);

/** The first reference token of a JSON pointer (RFC 6901), unescaped: the top-level property it names. */
function rootOf(pointer: string, property: string): string {
  if (!pointer.startsWith('/')) throw invalid(property, 'must be a JSON pointer starting with "/"');
  const end = pointer.indexOf('/', 1);
  const raw = end === -1 ? pointer.slice(1) : pointer.slice(1, end);
  return raw.includes('~') ? raw.replace(/~1/g, '/').replace(/~0/g, '~') : raw;
}

function refuseRoot(index: number, root: string, allowedRoots: readonly string[] | undefined): void {
  if (allowedRoots && !allowedRoots.includes(root))
    throw bad(index, `cannot change "${root}"; allowed: ${allowedRoots.map((r) => `"/${r}"`).join(', ')}`);
}

/** One of our operations as fast-json-patch's, after the checks that word our errors. */
function toOperation(op: PatchOperation, index: number, allowedRoots?: readonly string[]): Operation {
  refuseRoot(index, rootOf(op.path, `[${index}].path`), allowedRoots);
  if (op.path === '/') throw bad(index, 'cannot be the whole document');
  switch (op.op) {
    case 'add':
    case 'replace':
    case 'test':
      if (!('value' in op)) throw invalid(`[${index}].value`, `is required for "${op.op}"`);
      return { op: op.op, path: op.path, value: op.value };
    case 'remove':
      return { op: 'remove', path: op.path };
    case 'move':
    case 'copy': {
      if (op.from === undefined) throw invalid(`[${index}].from`, `is required for "${op.op}"`);
      const root = rootOf(op.from, `[${index}].from`);
      // A move takes the value away from where it was, so that place must be one we may change too.
      if (op.op === 'move') refuseRoot(index, root, allowedRoots);
      return { op: op.op, from: op.from, path: op.path };
    }
  }
}

/** Our wording of fast-json-patch's error for operation `index`. */
function explain(
  error: InstanceType<typeof jsonPatch.JsonPatchError>,
  index: number,
  ops: readonly PatchOperation[],
): FlagstaffError {
  switch (error.name) {
    case 'OPERATION_FROM_UNRESOLVABLE':
      return invalid(`[${index}].from`, 'does not exist');
    case 'OPERATION_PATH_ILLEGAL_ARRAY_INDEX':
    case 'OPERATION_VALUE_OUT_OF_BOUNDS':
      return bad(index, 'is not a valid array index');
    case 'TEST_OPERATION_FAILED':
      return invalid(`[${index}]`, `test failed: the value at "${ops[index]?.path}" differs`);
    case 'OPERATION_VALUE_REQUIRED':
    case 'OPERATION_VALUE_CANNOT_CONTAIN_UNDEFINED':
      return invalid(`[${index}].value`, 'must be a JSON value');
    default:
      return bad(index, 'does not exist');
  }
}

const { JsonPatchError } = jsonPatch;

/** The value at `pointer`, or undefined when nothing is there (or the pointer may not be followed). */
function valueAt(document: unknown, pointer: string): unknown {
  try {
    return jsonPatch.getValueByPointer(document, pointer);
  } catch {
    return undefined;
  }
}

/**
 * fast-json-patch's validation, except that a move or copy checks its source with one lookup
 * (the library's own check copies the whole document to try it) and its target like an add.
 */
const validate: Validator<unknown> = (operation, index, document, existingPath) => {
  if (operation.op !== 'move' && operation.op !== 'copy')
    return jsonPatch.validator(operation, index, document, existingPath);
  if (valueAt(document, operation.from) === undefined)
    throw new JsonPatchError('No value at `from`', 'OPERATION_FROM_UNRESOLVABLE', index, operation, document);
  jsonPatch.validator({ op: 'add', path: operation.path, value: null }, index, document, existingPath);
};

/**
 * Applies RFC 6902 operations (with fast-json-patch, which also refuses `__proto__` and
 * `constructor/prototype` paths) to a copy of `doc` and returns it; `doc` is left as it was. When
 * `allowedRoots` is given, only those top-level properties may be changed.
 */
export function applyJsonPatch<T>(
  doc: T,
  ops: readonly PatchOperation[],
  allowedRoots?: readonly string[],
): T {
  const operations: Operation[] = [];
  for (let index = 0; index < ops.length; index++)
    operations.push(toOperation(ops[index]!, index, allowedRoots));
  let out: T = jsonPatch.deepClone(doc);
  // One operation at a time, so a failure names its operation (the library reports index 0).
  for (let index = 0; index < operations.length; index++) {
    try {
      out = jsonPatch.applyOperation(out, operations[index]!, validate, true, true, index).newDocument;
    } catch (error) {
      if (error instanceof JsonPatchError) throw explain(error, index, ops);
      if (error instanceof TypeError && error.message.startsWith('JSON-Patch:'))
        throw bad(index, 'may not name "__proto__" or "constructor/prototype"');
      throw error;
    }
  }
  return out;
}
