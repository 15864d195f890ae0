import { describe, expect, test } from 'vitest';
import { eventTerms, parseTextQuery, payloadWords } from './search-terms.js';

describe('search terms', () => {
  test('payload words are lower-cased letter/digit runs of keys and scalars, any script', () => {
    const words = payloadWords({ Name: 'Grüße-aus Köln', n: 1.5, ok: true, list: ['x_y'] }, null, [
      { type: 'simple' },
    ]);
    expect([...words].sort()).toEqual([
      '1',
      '5',
      'aus',
      'grüße',
      'köln',
      'list',
      'n',
      'name',
      'ok',
      'simple',
      'true',
      'type',
      'x',
      'y',
    ]);
  });

  test('an event is indexed by its payload words plus synthetic creator and filter terms', () => {
    const event = { type: 'feature-created', project: 'Alpha', featureName: null, data: { a: 'b' } };
    expect(eventTerms(event, 7)).toEqual(['a', 'b', 'cr_7', 'ty_feature_created', 'pr_416c706861']);
  });

  test('short lone words must be whole; longer words and the tail of a compound are prefixes', () => {
    const creators = [{ id: 3, name: 'Bob@example.com' }];
    expect(parseTextQuery('qz', creators)).toEqual([{ words: [{ text: 'qz', prefix: false }], anyOf: [] }]);
    expect(parseTextQuery('Mobile', creators)).toEqual([
      { words: [{ text: 'mobile', prefix: true }], anyOf: [] },
    ]);
    expect(parseTextQuery('flag-a', creators)?.[0]?.words).toEqual([
      { text: 'flag', prefix: true },
      { text: 'a', prefix: true },
    ]);
  });

  test('type and creator substrings resolve to synthetic terms; terms are ANDed', () => {
    const creators = [
      { id: 1, name: 'ann@example.com' },
      { id: 2, name: 'bob@example.com' },
    ];
    const [first, second] = parseTextQuery('metadata-upd BOB@', creators) ?? [];
    expect(first?.anyOf).toEqual(['ty_feature_metadata_updated']);
    expect(second?.anyOf).toEqual(['cr_2']);
  });

  test('a term that can match nothing makes the whole query empty', () => {
    // "-" occurs in event types, "@@@" nowhere.
    expect(parseTextQuery('- mobile', [])).not.toBeNull();
    expect(parseTextQuery('@@@ mobile', [])).toBeNull();
  });

  test('long exact values are hashed and huge payloads capped, within PostgreSQL limits', () => {
    const long = 'x'.repeat(300);
    const event = { type: 'feature-created', project: long, featureName: long };
    const terms = eventTerms(event, 1);
    expect(terms.find((t) => t.startsWith('pr_'))).toMatch(/^pr_h[0-9a-f]{64}$/);
    const many = Array.from({ length: 100_000 }, (_, i) => `word${i}`).join(' ');
    const words = payloadWords({ many });
    expect([...words].join(' ').length).toBeLessThanOrEqual(256 * 1024);
    expect(words.has('word0')).toBe(true);
  });
});
