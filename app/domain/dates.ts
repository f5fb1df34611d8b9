import { parseCalendarDate } from "./calendar-date";
import { dateTimeFormat, formatterBy } from "./intl";
import { DEFAULT_NUMBER_LOCALE } from "./number-locale";

/**
 * Dates as the user writes them: one style everywhere (pages, e-mails, the debtor's page, the
 * statement PDF), from the user's number-and-date format (users.locale, docs/decisions/054). English
 * locales name the month in their own order ("Nov 9, 2026", "9 Nov 2026"); the others write it in
 * digits with their own order and separators ("09.11.2026", "09/11/2026", "2026-11-09"), so an
 * English page never mixes in another language's month names. CSV exports stay ISO (YYYY-MM-DD).
 * Client-safe: every formatter is built once per locale and zone (app/domain/intl.ts).
 */

const dayOptions = (locale: string): Intl.DateTimeFormatOptions =>
  locale.startsWith("en")
    ? { day: "numeric", month: "short", year: "numeric" }
    : { day: "2-digit", month: "2-digit", year: "numeric" };

/** The time of day: the locale's own clock (12-hour in the US, 24-hour elsewhere). */
const timeOptions: Intl.DateTimeFormatOptions = { hour: "numeric", minute: "2-digit" };

const keyOf = (locale: string, timeZone: string) => `${locale}\u0000${timeZone}`;
const splitKey = (key: string) => key.split("\u0000") as [string, string];

const days = /* @__PURE__ */ formatterBy((key) => {
  const [locale, timeZone] = splitKey(key);
  return dateTimeFormat(locale, { ...dayOptions(locale), timeZone });
});
const instants = /* @__PURE__ */ formatterBy((key) => {
  const [locale, timeZone] = splitKey(key);
  return dateTimeFormat(locale, { ...dayOptions(locale), ...timeOptions, timeZone });
});
const runs = /* @__PURE__ */ formatterBy((key) => {
  const [locale, timeZone] = splitKey(key);
  const named = locale.startsWith("en");
  return dateTimeFormat(locale, {
    ...(named ? { weekday: "short", day: "numeric", month: "short" } : { day: "2-digit", month: "2-digit" }),
    ...timeOptions,
    timeZone,
  });
});

/** "Nov 9, 2026" (en-US), "9 Nov 2026" (en-GB), "09.11.2026" (de-DE) for "2026-11-09": a calendar date, which no zone shifts; anything else as given. */
export function formatDate(date: string, locale: string = DEFAULT_NUMBER_LOCALE): string {
  const d = parseCalendarDate(date);
  if (!d) return date;
  return days(keyOf(locale, "UTC")).format(Date.UTC(d.year, d.month - 1, d.day));
}

/** The day of an instant in `timeZone`, written as formatDate writes dates. */
export function formatDayOf(ms: number, timeZone: string, locale: string = DEFAULT_NUMBER_LOCALE): string {
  return days(keyOf(locale, timeZone)).format(ms);
}

/** "Nov 21, 2026, 10:00 AM" / "21.11.2026, 10:00" in `timeZone`; "—" for none. The same on server and client. */
export function formatDateTime(
  ms: number | null | undefined,
  timeZone: string,
  locale: string = DEFAULT_NUMBER_LOCALE,
): string {
  return ms == null ? "—" : instants(keyOf(locale, timeZone)).format(ms);
}

/** formatDateTime for one zone and locale, its formatter looked up once: for a loop over many rows. */
export function dateTimeFormatter(timeZone: string, locale: string = DEFAULT_NUMBER_LOCALE) {
  const format = instants(keyOf(locale, timeZone));
  return (ms: number | null | undefined) => (ms == null ? "—" : format.format(ms));
}

/** "Tue, Dec 2, 9:00 AM" / "02.12., 09:00": when a reminder goes out, in the debtor's zone. */
export function formatWhen(ms: number, timeZone: string, locale: string = DEFAULT_NUMBER_LOCALE): string {
  return runs(keyOf(locale, timeZone)).format(ms);
}
