import { parseCalendarDate } from "../calendar-date";

/**
 * Calendar days as integers (days since 1970-01-01, UTC), so the maths can count, compare and step
 * through days without a zone ever shifting one. Dates in and out are "YYYY-MM-DD".
 */

const MS_PER_DAY = 86_400_000;

/** The day number of a real calendar date; throws on anything else (callers pass validated dates). */
export function dayNumber(iso: string): number {
  const d = parseCalendarDate(iso);
  if (!d) throw new RangeError(`not a calendar date: ${JSON.stringify(iso)}`);
  return Date.UTC(d.year, d.month - 1, d.day) / MS_PER_DAY;
}

/** The "YYYY-MM-DD" of a day number. */
export function isoDay(day: number): string {
  return new Date(day * MS_PER_DAY).toISOString().slice(0, 10);
}

/** `iso` plus `days` (which may be negative). */
export function addDays(iso: string, days: number): string {
  return isoDay(dayNumber(iso) + days);
}

/**
 * `iso` plus `months` calendar months, on the same day of the month or the month's last day when it
 * has fewer (31 January + 1 month = 28 or 29 February).
 */
export function addMonths(iso: string, months: number): string {
  const d = parseCalendarDate(iso);
  if (!d) throw new RangeError(`not a calendar date: ${JSON.stringify(iso)}`);
  const index = d.year * 12 + (d.month - 1) + months;
  const year = Math.floor(index / 12);
  const month = index - year * 12; // 0-11
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  return isoDay(Date.UTC(year, month, Math.min(d.day, lastDay)) / MS_PER_DAY);
}

/** The first day of the half-year `iso` is in: 1 January or 1 July. */
export function halfYearStart(iso: string): string {
  const [year, month] = [iso.slice(0, 4), Number(iso.slice(5, 7))];
  return month <= 6 ? `${year}-01-01` : `${year}-07-01`;
}
