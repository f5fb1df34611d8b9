/**
 * Wall-clock scheduling in a schedule's own IANA time zone.
 *
 * Pure and dependency-free: only `Intl` and `Date`, so it runs unchanged in Workers and Node.
 * Recurring reminders fire at SEND_HOUR:00 local time ("0 10 * * *" daily, "0 10 * * 1" weekly
 * on Monday). Every function takes and returns UTC epoch milliseconds.
 *
 * DST rules, chosen to match croner 11 (`new Cron("0 10 * * *", { timezone })`), which the unit
 * tests check against; croner follows Vixie cron for such "fixed-time" jobs:
 *  - 10:00 occurs twice (clocks go back over it): the job runs once, at the FIRST occurrence.
 *    If `afterMs` lies between the two occurrences, the next run is the following day's.
 *  - 10:00 does not exist (clocks jump over it): the job runs at the first valid instant after
 *    the gap, i.e. the transition instant itself (e.g. a 09:30→10:30 jump runs at 10:30 local,
 *    not 11:00), provided that instant is still on the same local day; otherwise (a whole
 *    skipped day, e.g. Pacific/Apia on 2011-12-30) that day has no run.
 * In practice this only matters historically: scanning every zone Intl knows over 1900-2037, only
 * date-line moves touch 10:00 (Samoa/Tokelau skipping 2011-12-30, Kiribati 1994, Kwajalein
 * 1969/1993), and this module matches croner on all of them. One known difference: croner probes
 * for a repeated time only ±3 h around it, so for Alaska's 24-hour step back in 1867 it returns
 * the second pass of the repeated 10:00; this module returns the first, as croner documents.
 */
import { type FrequencyId, NOW_DELAY_MS, SEND_HOUR } from "./frequencies";

const SECOND_MS = 1000;
const DAY_MS = 86_400_000;
/** Days scanned ahead for the next run: a week, plus slack for a skipped calendar day. */
const MAX_DAYS_AHEAD = 14;
/** Monday, in `Date#getUTCDay` numbering. */
const MONDAY = 1;
/** Cap of the formatter cache (keys are user input; spellings such as "utc"/"UTC" differ). */
const MAX_CACHED_ZONES = 1000;

interface LocalFields {
  year: number;
  month: number; // 1-12
  day: number; // 1-31
  hour: number; // 0-23
  minute: number;
  second: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

/** The cached formatter of a zone; throws a RangeError for an unknown zone. */
function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    if (typeof timeZone !== "string" || timeZone.trim() === "" || /^[+-]/.test(timeZone.trim())) {
      throw new RangeError(`Invalid time zone: ${JSON.stringify(timeZone)}`);
    }
    formatter = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      second: "numeric",
    });
    if (formatters.size >= MAX_CACHED_ZONES) formatters.clear();
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/**
 * True for a time zone name Intl knows (IANA names such as "Europe/Berlin", "UTC",
 * "Etc/GMT+5"). Rejects the empty string and bare UTC offsets like "+01:00" (accepted by some
 * newer runtimes only, so they would not be portable).
 */
export function isValidTimeZone(tz: string): boolean {
  try {
    formatterFor(tz);
    return true;
  } catch {
    return false;
  }
}

/** The UTC instant whose UTC fields equal the given wall-clock fields (month 1-12, overflow allowed). */
function wallToMs(year: number, month: number, day: number, hour = 0, minute = 0, second = 0): number {
  const date = new Date(Date.UTC(year, month - 1, day, hour, minute, second));
  // Date.UTC maps years 0-99 to 1900-1999.
  if (year >= 0 && year < 100) date.setUTCFullYear(date.getUTCFullYear() - 1900);
  return date.getTime();
}

function localFields(ms: number, timeZone: string): LocalFields {
  const fields: LocalFields = { year: 0, month: 0, day: 0, hour: 0, minute: 0, second: 0 };
  for (const part of formatterFor(timeZone).formatToParts(ms)) {
    switch (part.type) {
      case "year":
      case "month":
      case "day":
      case "minute":
      case "second":
        fields[part.type] = Number(part.value);
        break;
      case "hour":
        fields.hour = Number(part.value) % 24; // some ICU versions print midnight as "24"
        break;
    }
  }
  return fields;
}

/** The zone's UTC offset at an instant, in ms (local wall time minus UTC, at whole seconds). */
function offsetAt(ms: number, timeZone: string): number {
  const f = localFields(ms, timeZone);
  return wallToMs(f.year, f.month, f.day, f.hour, f.minute, f.second) - Math.floor(ms / SECOND_MS) * SECOND_MS;
}

/**
 * The UTC instant of a local wall-clock time (whole seconds): the only one, the earlier of two
 * (overlap), or, in a gap, the first instant after the gap if it is still on the same local day
 * (else null). The candidates use the zone's offsets a day before and after, so every transition
 * that can affect the wall time lies between the two sample points.
 */
function resolveWallTime(year: number, month: number, day: number, hour: number, timeZone: string): number | null {
  const wall = wallToMs(year, month, day, hour);
  const withOffsetBefore = wall - offsetAt(wall - DAY_MS, timeZone);
  const withOffsetAfter = wall - offsetAt(wall + DAY_MS, timeZone);
  let earliest: number | null = null;
  for (const candidate of [withOffsetBefore, withOffsetAfter]) {
    if (offsetAt(candidate, timeZone) === wall - candidate && (earliest === null || candidate < earliest)) {
      earliest = candidate;
    }
  }
  if (earliest !== null) return earliest;

  // A gap: find the transition (the first second with the new offset) between the candidates.
  let lo = Math.min(withOffsetBefore, withOffsetAfter);
  let hi = Math.max(withOffsetBefore, withOffsetAfter);
  const offsetLo = offsetAt(lo, timeZone);
  while (hi - lo > SECOND_MS) {
    const mid = lo + Math.floor((hi - lo) / (2 * SECOND_MS)) * SECOND_MS;
    if (offsetAt(mid, timeZone) === offsetLo) lo = mid;
    else hi = mid;
  }
  const f = localFields(hi, timeZone);
  return f.year === year && f.month === month && f.day === day ? hi : null;
}

/**
 * The smallest instant strictly after `afterMs` at which the local time in `timeZone` is
 * SEND_HOUR:00:00.000 (for "weekly", on a local Monday), with the DST rules described at the top
 * of this module. Throws a RangeError for an unknown time zone.
 */
export function nextRunAfter(frequency: "daily" | "weekly", afterMs: number, timeZone: string): number {
  if (!Number.isFinite(afterMs)) throw new RangeError(`Invalid instant: ${afterMs}`);
  if (frequency !== "daily" && frequency !== "weekly")
    throw new Error(`Not a recurring frequency: ${String(frequency)}`);
  const today = localFields(afterMs, timeZone);
  for (let i = 0; i <= MAX_DAYS_AHEAD; i++) {
    const date = new Date(wallToMs(today.year, today.month, today.day + i));
    if (frequency === "weekly" && date.getUTCDay() !== MONDAY) continue;
    const run = resolveWallTime(date.getUTCFullYear(), date.getUTCMonth() + 1, date.getUTCDate(), SEND_HOUR, timeZone);
    if (run !== null && run > afterMs) return run;
  }
  throw new Error(`No ${frequency} run within ${MAX_DAYS_AHEAD} days after ${afterMs} in ${timeZone}`);
}

/**
 * When a new schedule first fires: 'now' → `nowMs` + NOW_DELAY_MS (the zone is not consulted);
 * daily/weekly → the next SEND_HOUR:00 local strictly after `nowMs`.
 */
export function nextRunForFrequency(frequency: Exclude<FrequencyId, "due">, nowMs: number, timeZone: string): number {
  if (frequency === "now") return nowMs + NOW_DELAY_MS;
  return nextRunAfter(frequency, nowMs, timeZone);
}

/**
 * localDateString's answers by zone and UTC minute. Every zone's offset has been a whole number of
 * minutes since long before 2000 and changes only on a minute, so one minute of an instant has one
 * local date. The pages ask for "today" in the user's zone on every request, and each answer is a
 * formatToParts call. Bounded.
 */
const localDates = new Map<string, string>();
const CACHED_FROM_MS = Date.UTC(2000, 0, 1);

/** The local calendar date of an instant, "YYYY-MM-DD". */
export function localDateString(ms: number, timeZone: string): string {
  const key = ms >= CACHED_FROM_MS ? `${timeZone}|${Math.floor(ms / 60_000)}` : null;
  const cached = key === null ? undefined : localDates.get(key);
  if (cached !== undefined) return cached;
  const f = localFields(ms, timeZone);
  const year = f.year < 0 ? `-${String(-f.year).padStart(6, "0")}` : String(f.year).padStart(4, "0");
  const date = `${year}-${String(f.month).padStart(2, "0")}-${String(f.day).padStart(2, "0")}`;
  if (key !== null) {
    if (localDates.size >= 5_000) localDates.clear();
    localDates.set(key, date);
  }
  return date;
}

/**
 * The first instant of the local day containing `ms`: local midnight, or, when midnight falls in
 * a DST gap (e.g. America/Sao_Paulo before 2019), the transition instant that starts the day.
 */
export function startOfLocalDay(ms: number, timeZone: string): number {
  const f = localFields(ms, timeZone);
  const start = resolveWallTime(f.year, f.month, f.day, 0, timeZone);
  // A gap's end is on the same day whenever `ms` is; the guard only satisfies the type checker.
  return start !== null && start <= ms ? start : ms;
}

/**
 * The first instant of the local calendar day year-month-day in `timeZone`: local midnight, or,
 * when midnight falls in a DST gap, the end of the gap; a day the zone skipped entirely (Pacific/Apia
 * on 2011-12-30) starts when the next one does. Promises to pay end at such an instant (app/domain/promise.ts).
 */
export function startOfLocalDate(year: number, month: number, day: number, timeZone: string): number {
  for (let i = 0; i <= MAX_DAYS_AHEAD; i++) {
    const date = new Date(wallToMs(year, month, day + i));
    const start = resolveWallTime(date.getUTCFullYear(), date.getUTCMonth() + 1, date.getUTCDate(), 0, timeZone);
    if (start !== null) return start;
  }
  throw new Error(`No start of ${year}-${month}-${day} within ${MAX_DAYS_AHEAD} days in ${timeZone}`);
}

/**
 * The earliest instant at or after `ms` whose local time in `timeZone` lies within
 * [startHour:00, endHour:00): `ms` itself when it does, else the next local startHour:00 (today's
 * when it is still ahead, otherwise the next day's; through a DST gap, the end of the gap).
 * Quiet hours use it to defer a reminder into the debtor's daytime.
 */
export function nextWithinHours(ms: number, timeZone: string, startHour: number, endHour: number): number {
  if (!Number.isFinite(ms)) throw new RangeError(`Invalid instant: ${ms}`);
  if (!(0 <= startHour && startHour < endHour && endHour <= 24)) {
    throw new RangeError(`Invalid hours: ${startHour}-${endHour}`);
  }
  const now = localFields(ms, timeZone);
  if (now.hour >= startHour && now.hour < endHour) return ms;
  for (let i = now.hour < startHour ? 0 : 1; i <= MAX_DAYS_AHEAD; i++) {
    const date = new Date(wallToMs(now.year, now.month, now.day + i));
    const start = resolveWallTime(
      date.getUTCFullYear(),
      date.getUTCMonth() + 1,
      date.getUTCDate(),
      startHour,
      timeZone,
    );
    if (start !== null && start > ms) return start;
  }
  throw new Error(`No ${startHour}:00 within ${MAX_DAYS_AHEAD} days after ${ms} in ${timeZone}`);
}

/**
 * The instant of `hour`:00 local on the calendar date year-month-day in `timeZone`, with the DST
 * rules at the top of this module (a repeated hour: its first pass; a skipped one: the end of the
 * gap). A day the zone skipped entirely has no such hour: the start of the next day that exists.
 * Due-date cadences (app/domain/cadence.ts) send each step at it.
 */
export function instantAtLocalHour(year: number, month: number, day: number, hour: number, timeZone: string): number {
  const run = resolveWallTime(year, month, day, hour, timeZone);
  return run ?? startOfLocalDate(year, month, day + 1, timeZone);
}
