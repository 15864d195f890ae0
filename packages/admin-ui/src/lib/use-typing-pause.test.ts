import { describe, expect, it } from 'vitest';
import { typingPause } from './use-typing-pause';

describe('typingPause', () => {
  it('waits twice the usual gap between keystrokes, within its bounds', () => {
    expect(typingPause([32, 35, 31, 90], 50, 100)).toBe(70);
    expect(typingPause([10, 12, 11], 50, 100)).toBe(50);
    expect(typingPause([80, 85], 50, 100)).toBe(100);
  });

  it('waits the longest before there is a rhythm to go by', () => {
    expect(typingPause([], 50, 100)).toBe(100);
  });
});
