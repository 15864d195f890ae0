import { describe, expect, it } from 'vitest';
import { applyJsonPatch } from './json-patch.js';

const failure = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error('expected a failure');
};

describe('applyJsonPatch', () => {
  it('applies every RFC 6902 operation to a copy, leaving the input as it was', () => {
    const doc = { description: 'a', tags: ['x', 'y'], nested: { n: 1 } };
    const out = applyJsonPatch(doc, [
      { op: 'replace', path: '/description', value: 'b' },
      { op: 'add', path: '/tags/-', value: 'z' },
      { op: 'remove', path: '/tags/0' },
      { op: 'copy', from: '/nested', path: '/copied' },
      { op: 'move', from: '/nested/n', path: '/n' },
      { op: 'test', path: '/n', value: 1 },
    ]);
    expect(out).toEqual({ description: 'b', tags: ['y', 'z'], nested: {}, copied: { n: 1 }, n: 1 });
    expect(doc).toEqual({ description: 'a', tags: ['x', 'y'], nested: { n: 1 } });
  });

  it('words each failure as a validation error naming the operation and property', () => {
    const doc = { list: [1, 2], name: 'n' };
    expect(failure(() => applyJsonPatch(doc, [{ op: 'replace', path: '/missing', value: 1 }]))).toMatchObject(
      {
        code: 'VALIDATION',
        message: '"[0].path" does not exist.',
      },
    );
    expect(
      failure(() =>
        applyJsonPatch(doc, [
          { op: 'add', path: '/list/-', value: 3 },
          { op: 'add', path: '/list/9', value: 1 },
        ]),
      ),
    ).toMatchObject({ message: '"[1].path" is not a valid array index.' });
    expect(failure(() => applyJsonPatch(doc, [{ op: 'test', path: '/name', value: 'm' }]))).toMatchObject({
      message: '"[0]" test failed: the value at "/name" differs.',
    });
    expect(failure(() => applyJsonPatch(doc, [{ op: 'move', path: '/x' }]))).toMatchObject({
      message: '"[0].from" is required for "move".',
    });
    expect(failure(() => applyJsonPatch(doc, [{ op: 'copy', from: '/nope', path: '/x' }]))).toMatchObject({
      message: '"[0].from" does not exist.',
    });
    expect(failure(() => applyJsonPatch(doc, [{ op: 'remove', path: '/' }]))).toMatchObject({
      code: 'VALIDATION',
    });
  });

  it('changes only the allowed top-level properties, moves included', () => {
    const doc = { description: 'd', name: 'n' };
    const allowed = ['description'];
    expect(applyJsonPatch(doc, [{ op: 'copy', from: '/name', path: '/description' }], allowed)).toEqual({
      description: 'n',
      name: 'n',
    });
    expect(
      failure(() => applyJsonPatch(doc, [{ op: 'replace', path: '/name', value: 'x' }], allowed)),
    ).toMatchObject({ message: expect.stringContaining('cannot change "name"') });
    expect(
      failure(() => applyJsonPatch(doc, [{ op: 'move', from: '/name', path: '/description' }], allowed)),
    ).toMatchObject({ message: expect.stringContaining('cannot change "name"') });
  });

  it('refuses paths through __proto__, and no object gains a property', () => {
    expect(
      failure(() => applyJsonPatch({ a: {} }, [{ op: 'add', path: '/__proto__/polluted', value: true }])),
    ).toMatchObject({ code: 'VALIDATION' });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
