import { describe, expect, it } from 'vitest';
import { ApiError } from '../api/errors';
import { fieldFor, placeProblems, plainMessage, problemsOf } from './form-errors';

const refusal = (status: number, body: unknown) =>
  new ApiError(status, (body as { message: string }).message, 'ValidationError', body);

describe('form errors', () => {
  it('reads each problem of an API error with the property it names', () => {
    const error = refusal(400, {
      message: '"name" must be a non-empty name (and 1 more problem).',
      details: [
        { message: '"name" must be a non-empty name', path: 'name' },
        { message: '"featureNaming.example" must match the pattern', path: 'featureNaming.example' },
      ],
    });
    expect(problemsOf(error)).toEqual([
      { message: '"name" must be a non-empty name', path: 'name' },
      { message: '"featureNaming.example" must match the pattern', path: 'featureNaming.example' },
    ]);
    // An older server without `path`: the quoted property at the start of the message.
    expect(problemsOf(refusal(400, { message: '"[0].weight" must be at most 1000.' }))).toEqual([
      { message: '"[0].weight" must be at most 1000.', path: '[0].weight' },
    ]);
    expect(problemsOf(new TypeError('Failed to fetch'))).toEqual([
      { message: 'Failed to fetch', path: null },
    ]);
  });

  it('places a problem on the most specific field it lies under, the rest at the foot', () => {
    const fields = ['featureNaming', 'featureNaming.example', '[1].payload', 'parameters.url'];
    expect(fieldFor('featureNaming.example', fields)).toBe('featureNaming.example');
    expect(fieldFor('featureNaming.pattern', fields)).toBe('featureNaming');
    expect(fieldFor('[1].payload.value', fields)).toBe('[1].payload');
    expect(fieldFor('[10].payload', fields)).toBeNull();
    expect(fieldFor('parameters.urlx', fields)).toBeNull();
    const placed = placeProblems(
      [
        { path: 'parameters.url', message: '"parameters.url" must be an http or https URL.' },
        { path: null, message: 'Addon 3 changed while it was being saved; try again.' },
      ],
      fields,
    );
    expect(placed).toEqual({
      byField: { 'parameters.url': 'Must be an http or https URL.' },
      rest: 'Addon 3 changed while it was being saved; try again.',
    });
    expect(placeProblems([{ path: null, message: 'Could not find tag type "x".' }], ['tag'], 'tag')).toEqual({
      byField: { tag: 'Could not find tag type "x".' },
      rest: null,
    });
  });

  it('says it in plain words: without the quoted property, as a sentence', () => {
    expect(plainMessage('"oldPassword" is not your current password.')).toBe('Is not your current password.');
    expect(plainMessage('must be valid JSON')).toBe('Must be valid JSON.');
    expect(plainMessage('A feature named "x" already exists.')).toBe('A feature named "x" already exists.');
  });
});
