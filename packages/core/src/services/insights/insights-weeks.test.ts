import { describe, expect, it } from 'vitest';
import { isoWeek, trendWeeks, weekOf } from './insights-weeks.js';

describe('ISO weeks', () => {
  it('numbers weeks by ISO 8601, with the week-numbering year at year ends', () => {
    expect(isoWeek(Date.parse('2026-01-01T10:00:00Z'))).toBe('2026-01'); // a Thursday
    expect(isoWeek(Date.parse('2025-12-29T00:00:00Z'))).toBe('2026-01'); // its Monday
    expect(isoWeek(Date.parse('2025-12-28T23:59:59Z'))).toBe('2025-52');
    expect(isoWeek(Date.parse('2021-01-03T12:00:00Z'))).toBe('2020-53');
    expect(isoWeek(Date.parse('2024-12-30T12:00:00Z'))).toBe('2025-01');
    expect(isoWeek(Date.parse('2026-03-18T12:00:00Z'))).toBe('2026-12');
  });

  it('gives 12 weeks oldest first, each dated at the end of a UTC day, the last one today', () => {
    const weeks = trendWeeks(new Date('2026-03-18T12:00:00Z'));
    expect(weeks).toHaveLength(12);
    expect(weeks.map((w) => w.week)).toEqual(
      Array.from({ length: 12 }, (_, i) => `2026-${String(i + 1).padStart(2, '0')}`),
    );
    expect(weeks[0]).toMatchObject({
      start: Date.parse('2025-12-29T00:00:00Z'),
      date: '2026-01-04T23:59:59.999Z',
    });
    expect(weeks[10]!.date).toBe('2026-03-15T23:59:59.999Z');
    expect(weeks[11]).toMatchObject({
      date: '2026-03-18T23:59:59.999Z',
      asOf: Date.parse('2026-03-18T12:00:00Z'),
    });
  });

  it('finds the week of an instant, and none outside the range or after now', () => {
    const weeks = trendWeeks(new Date('2026-03-18T12:00:00Z'));
    expect(weekOf(weeks, Date.parse('2026-03-16T00:00:00Z'))?.week).toBe('2026-12');
    expect(weekOf(weeks, Date.parse('2026-03-15T23:59:59Z'))?.week).toBe('2026-11');
    expect(weekOf(weeks, Date.parse('2025-12-28T23:59:59Z'))).toBeUndefined();
    expect(weekOf(weeks, Date.parse('2026-03-18T13:00:00Z'))).toBeUndefined();
  });
});
