import { dateTimeFormat, formatterBy } from "./intl";
import { isValidTimeZone } from "./schedule-time";

/** Longer names are no IANA zone; they are dropped before they reach Intl (its cache is keyed by name). */
export const MAX_TIME_ZONE_LENGTH = 64;

// By zone alone (app/domain/intl.ts `formatterBy`): a list formats an instant or a day on every row.
const instantFormats = formatterBy((timeZone) =>
  dateTimeFormat("en-US", { dateStyle: "medium", timeStyle: "short", timeZone }),
);
const dayFormats = formatterBy((timeZone) => dateTimeFormat("en-US", { dateStyle: "medium", timeZone }));
const runFormats = formatterBy((timeZone) =>
  dateTimeFormat("en-GB", {
    weekday: "short",
    day: "numeric",
    month: "short",
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
    timeZone,
  }),
);

/** "Tue 2 Dec, 09:00": when a reminder goes out, in the debtor's zone. */
export function formatRunTime(ms: number, timeZone: string) {
  return runFormats(timeZone).format(ms).replace(" at ", ", ");
}

/** "Nov 21, 2026, 10:00 AM" in the given zone; the same on server and client (no hydration drift). */
export function formatInstant(ms: number | null | undefined, timeZone: string) {
  return instantFormat(timeZone)(ms);
}

/** formatInstant for one zone, its formatter looked up once: for a loop over many rows (an export). */
export function instantFormat(timeZone: string): (ms: number | null | undefined) => string {
  const format = instantFormats(timeZone);
  return (ms) => (ms == null ? "—" : format.format(ms));
}

/** "Mar 5, 2026" for "2026-03-05": a calendar date, which no zone shifts; anything else as given. */
export function formatCalendarDate(date: string) {
  const [y, m, d] = date.split("-").map(Number);
  if (!y || !m || !d) return date;
  return dayFormats("UTC").format(Date.UTC(y, m - 1, d));
}

/** "May 4, 2026": the day of an instant in `timeZone`. */
export function formatDay(ms: number, timeZone: string) {
  return dayFormats(timeZone).format(ms);
}

/** The fallback zone wherever none (or an unknown one) is given. */
const DEFAULT_TIME_ZONE = "UTC";

/** A submitted zone, trimmed; "" when it is too long to be one, so the caller's fallback applies. */
export function trimTimeZone(value: string): string {
  const tz = value.trim();
  return tz.length <= MAX_TIME_ZONE_LENGTH ? tz : "";
}

/** The zone when Intl knows it, otherwise `fallback` (UTC): for cookies, forms and stored rows alike. */
export function safeTimeZone(tz: string | null | undefined, fallback = DEFAULT_TIME_ZONE): string {
  return tz && tz.length <= MAX_TIME_ZONE_LENGTH && isValidTimeZone(tz) ? tz : fallback;
}
