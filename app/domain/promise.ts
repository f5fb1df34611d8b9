import { parseCalendarDate } from "./calendar-date";
import { formatDate } from "./dates";
import { localDateString, startOfLocalDate } from "./schedule-time";

/**
 * A debtor's promise to pay by a date: the date is
 * a calendar date in the debtor's own zone, from their today to at most PROMISE_MAX_DAYS later;
 * reminders hold until the day after it starts there. Pure: the instants come from `now` and the zone.
 */

/** The furthest a promise may reach, in days after the debtor's today. */
export const PROMISE_MAX_DAYS = 60;

/** "YYYY-MM-DD" moved by `days` calendar days; null for a date that is not on the calendar. */
export function addDays(date: string, days: number): string | null {
  const d = parseCalendarDate(date);
  if (!d) return null;
  const moved = new Date(Date.UTC(d.year, d.month - 1, d.day + days));
  return moved.toISOString().slice(0, 10);
}

/** The dates a promise may name, as the debtor's zone sees `now`: their today to today + PROMISE_MAX_DAYS. */
export function promiseWindow(now: number, timeZone: string): { min: string; max: string } {
  const min = localDateString(now, timeZone);
  return { min, max: addDays(min, PROMISE_MAX_DAYS) ?? min };
}

/** Whether `date` is a calendar date inside the window (YYYY-MM-DD compares as text). */
export function isWithinPromiseWindow(date: string, window: { min: string; max: string }): boolean {
  return parseCalendarDate(date) !== null && date >= window.min && date <= window.max;
}

/**
 * When reminders resume after a promise to pay by `promisedOn`: the instant the next day starts in
 * the debtor's zone (so the whole promised day is theirs, wherever they are). Null for a date that is
 * not on the calendar.
 */
export function promiseEndsAt(promisedOn: string, timeZone: string): number | null {
  const next = parseCalendarDate(addDays(promisedOn, 1) ?? "");
  if (!next) return null;
  return startOfLocalDate(next.year, next.month, next.day, timeZone);
}

/** The timeline's detail of a promise: "Promised to pay by 30 December 2026". */
export function promiseDetail(promisedOn: string): string {
  return `Promised to pay by ${formatDate(promisedOn)}`;
}
