import { describe, expect, it } from 'vitest';
import { ApiError } from '../../api/errors';
import { fieldFor, problemsOf } from '../../lib/form-errors';
import { asDirectError } from './draft-errors';

describe('asDirectError', () => {
  it("names a refused draft's problems as the direct route does, so they land on the dialog's fields", () => {
    const refused = new ApiError(400, '"payload.variants[0].name" is required.', 'ValidationError', {
      message: '"payload.variants[0].name" is required.',
      details: [
        { path: 'payload.variants[0].name', message: '"payload.variants[0].name" is required' },
        { path: 'payload', message: '"payload" is invalid' },
      ],
    });
    const renamed = asDirectError(refused);
    expect(renamed).toBeInstanceOf(ApiError);
    expect((renamed as ApiError).message).toBe('"variants[0].name" is required.');
    expect((renamed as ApiError).status).toBe(400);
    const problems = problemsOf(renamed);
    expect(problems).toEqual([
      { path: 'variants[0].name', message: '"variants[0].name" is required' },
      { path: '', message: '"payload" is invalid' },
    ]);
    expect(fieldFor(problems[0]?.path ?? null, ['variants', 'variants[0].name'])).toBe('variants[0].name');
  });

  it('leaves other errors as they are', () => {
    const plain = new Error('offline');
    expect(asDirectError(plain)).toBe(plain);
    const forbidden = new ApiError(403, 'You may not.', 'NoAccessError', { message: 'You may not.' });
    expect((asDirectError(forbidden) as ApiError).body).toEqual({ message: 'You may not.' });
  });
});
