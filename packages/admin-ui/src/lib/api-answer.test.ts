import { describe, expect, it } from 'vitest';
import { ApiError } from '../api/errors';
import { answerOf } from './api-answer';

const answer = (status: number, body: unknown) => {
  const response = new Response(null, { status });
  return Promise.resolve(response.ok ? { data: body, response } : { error: body, response });
};

const refusalOf = async (call: Promise<{ data?: unknown; error?: unknown; response: Response }>) => {
  try {
    await answerOf(call);
  } catch (error) {
    return error as ApiError;
  }
  throw new Error('answerOf resolved an unsuccessful answer');
};

describe('answerOf', () => {
  it('resolves a successful answer to its body', async () => {
    await expect(answerOf(answer(200, { features: [] }))).resolves.toEqual({ features: [] });
  });

  it("rejects with the server's message and name", async () => {
    const error = await refusalOf(
      answer(409, { name: 'NameExistsError', message: 'A feature named "x" already exists.' }),
    );
    expect(error).toBeInstanceOf(ApiError);
    expect(error.status).toBe(409);
    expect(error.message).toBe('A feature named "x" already exists.');
    expect(error.errorName).toBe('NameExistsError');
  });

  it('falls back to the first detail, a plain-text body, then the status', async () => {
    const detailed = await refusalOf(answer(400, { details: [{ message: '"name" is required' }] }));
    expect(detailed.message).toBe('"name" is required');
    expect((await refusalOf(answer(502, 'Bad gateway'))).message).toBe('Bad gateway');
    expect((await refusalOf(answer(500, undefined))).message).toBe('The server answered 500.');
  });
});
