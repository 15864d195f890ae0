import { describe, expect, it } from 'vitest';
import { typingPause } from './use-typing-pause';

describe('typingPause', () => {
  it('waits twice the longest of the latest gaps between keystrokes, within its bounds', () => {
    expect(typingPause([32, 35, 31, 38], 50, 100)).toBe(76);
    expect(typingPause([10, 12, 11], 50, 100)).toBe(50);
    expect(typingPause([30, 85], 50, 100)).toBe(100);
  });

  it('waits the longest before there is a rhythm to go by', () => {
    expect(typingPause([], 50, 100)).toBe(100);
  });
});
