import { describe, expect, it } from 'vitest';
import { jsonDiff } from './json-diff';

describe('jsonDiff', () => {
  it('lists a created object field by field and a change as old and new lines', () => {
    expect(jsonDiff(null, { name: 'a', constraints: [] })).toEqual([
      { kind: 'add', path: 'name', value: '"a"' },
      { kind: 'add', path: 'constraints', value: '[]' },
    ]);
    expect(jsonDiff({ enabled: false, same: 1 }, { enabled: true, same: 1 })).toEqual([
      { kind: 'del', path: 'enabled', value: 'false' },
      { kind: 'add', path: 'enabled', value: 'true' },
    ]);
    expect(jsonDiff({ v: [{ w: 1 }] }, { v: [{ w: 2 }] })).toEqual([
      { kind: 'del', path: 'v.0.w', value: '1' },
      { kind: 'add', path: 'v.0.w', value: '2' },
    ]);
  });
});
