import { describe, expect, it } from 'vitest';
import { JsonFragment } from './client-payloads.js';

describe('a payload fragment', () => {
  it('keeps answering its JSON after its text is let go for the block it was written into', () => {
    for (const json of ['{"name":"ascii"}', '{"name":"ünïcødé ✓ 🚩"}']) {
      const fragment = new JsonFragment(json);
      expect(fragment.bytes).toBe(Buffer.byteLength(json));
      const first = Buffer.alloc(fragment.bytes + 4, 0x20);
      expect(fragment.writeTo(first, 2)).toBe(fragment.bytes);
      expect(first.toString('utf8', 2, 2 + fragment.bytes)).toBe(json);
      expect(fragment.json).toBe(json);
      // Written again (its block rebuilt), it copies from where it is kept, then lives in the new one.
      const second = Buffer.alloc(fragment.bytes + 1, 0x2c);
      fragment.writeTo(second, 1);
      first.fill(0);
      expect(second.toString('utf8', 1)).toBe(json);
      expect(fragment.json).toBe(json);
    }
  });
});
