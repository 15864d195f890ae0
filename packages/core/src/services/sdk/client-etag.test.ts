import { describe, expect, it } from 'vitest';
import { etagMatches } from './client-etag.js';

describe('If-None-Match, parsed once', () => {
  it('matches a tag in a list, weak or strong, and *', () => {
    expect(etagMatches(undefined, '"a:1"')).toBe(false);
    expect(etagMatches('', '"a:1"')).toBe(false);
    expect(etagMatches('"a:1"', '"a:1"')).toBe(true);
    expect(etagMatches('W/"a:1"', '"a:1"')).toBe(true);
    expect(etagMatches('"a:1"', 'W/"a:1"')).toBe(true);
    expect(etagMatches('"x", W/"a:1" ,"y"', '"a:1"')).toBe(true);
    expect(etagMatches('*', '"a:1"')).toBe(true);
    expect(etagMatches('"a:2"', '"a:1"')).toBe(false);
    expect(etagMatches('a:1', '"a:1"')).toBe(false);
  });
});
