import { expect, test } from 'vitest';
import { formatDay } from './page';

test('formatDay writes the calendar day in the local time zone, zero-padded', () => {
  // Built in local time: whatever the zone, the day is the 5th of January.
  expect(formatDay(new Date(2026, 0, 5, 23, 59).toISOString())).toBe('2026-01-05');
  expect(formatDay(new Date(2026, 10, 27, 0, 1).toISOString())).toBe('2026-11-27');
});

test('formatDay says "—" without a time and "Invalid Date" for text that is not one', () => {
  expect(formatDay(null)).toBe('—');
  expect(formatDay(undefined)).toBe('—');
  expect(formatDay('not a date')).toBe('Invalid Date');
});
