import { DAY_MS } from './health.js';

const WEEK_MS = 7 * DAY_MS;

/** One reporting week of the instance insights trends. */
export interface TrendWeek {
  /** ISO week as `YYYY-WW` (ISO week-numbering year). */
  week: string;
  /** Monday 00:00 UTC of the week, epoch ms. */
  start: number;
  /** The instant the week's state is read at: its last millisecond, or now for the current week. */
  asOf: number;
  /** The end of the UTC day holding `asOf`, RFC 3339: the point's `date`. */
  date: string;
}

const startOfUtcDay = (ms: number): number => Math.floor(ms / DAY_MS) * DAY_MS;

/** The ISO week (`YYYY-WW`) holding the instant. */
export function isoWeek(ms: number): string {
  const day = startOfUtcDay(ms);
  const weekday = (new Date(day).getUTCDay() + 6) % 7; // Monday = 0
  // The ISO year of a week is the year of its Thursday; week 1 holds the year's first Thursday.
  const thursday = day + (3 - weekday) * DAY_MS;
  const year = new Date(thursday).getUTCFullYear();
  const week = Math.floor((thursday - Date.UTC(year, 0, 1)) / WEEK_MS) + 1;
  return `${year}-${String(week).padStart(2, '0')}`;
}

/** The last `count` ISO weeks up to and including the current one, oldest first. */
export function trendWeeks(now: Date, count = 12): TrendWeek[] {
  const nowMs = now.getTime();
  const today = startOfUtcDay(nowMs);
  const monday = today - ((now.getUTCDay() + 6) % 7) * DAY_MS;
  const weeks: TrendWeek[] = [];
  for (let i = count - 1; i >= 0; i--) {
    const start = monday - i * WEEK_MS;
    const asOf = Math.min(start + WEEK_MS - 1, nowMs);
    weeks.push({
      week: isoWeek(start),
      start,
      asOf,
      date: new Date(startOfUtcDay(asOf) + DAY_MS - 1).toISOString(),
    });
  }
  return weeks;
}

/** The week holding the instant, or undefined when it is outside the weeks. */
export function weekOf(weeks: readonly TrendWeek[], ms: number): TrendWeek | undefined {
  const first = weeks[0];
  if (!first || ms < first.start) return undefined;
  const week = weeks[Math.floor((ms - first.start) / WEEK_MS)];
  return week && ms <= week.asOf ? week : undefined;
}
