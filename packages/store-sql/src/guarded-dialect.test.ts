import { FlagstaffError } from '@flagstaff/core';
import { describe, expect, test } from 'vitest';
import { mapDriverError, type StoreGuard } from './guarded-dialect.js';

const guard: StoreGuard = {
  name: 'test:store',
  classifyError: (error) => {
    const code = (error as { code?: string }).code;
    return code === 'DUP' ? 'unique' : code === 'DOWN' ? 'unavailable' : null;
  },
  isClosed: () => false,
};

describe('mapDriverError', () => {
  test('turns classified driver errors into core errors naming the store', () => {
    const conflict = mapDriverError(guard, Object.assign(new Error('x'), { code: 'DUP' }));
    expect(conflict).toMatchObject({ name: 'FlagstaffError', code: 'CONFLICT' });
    const down = mapDriverError(guard, Object.assign(new Error('connect ECONNREFUSED'), { code: 'DOWN' }));
    expect(down).toMatchObject({ name: 'FlagstaffError', code: 'STORE_UNAVAILABLE' });
    expect((down as Error).message).toContain('test:store');
  });

  test('leaves unclassified errors and core errors alone', () => {
    const plain = new Error('duplicate key value violates unique constraint');
    expect(mapDriverError(guard, plain)).toBe(plain);
    const core = new FlagstaffError('NOT_FOUND', 'gone');
    expect(mapDriverError(guard, core)).toBe(core);
  });
});
