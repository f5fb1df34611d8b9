/**
 * An IANA zone where it is about 13:00 now. Reminders reach a debtor only between 08:00 and 21:00
 * in the debtor's zone, so tests that send at the real
 * time give their debtors this zone; the suite then passes at any hour, with hours to spare.
 * Etc/GMT zones are sign-inverted: Etc/GMT-5 is UTC+5.
 */
export function daytimeZone(now = Date.now()): string {
  return zoneAtHour(13, now);
}

/**
 * An IANA zone (Etc/GMT, whole hours) where the local hour is `hour` now: a test that needs a
 * planned run still ahead today (a cadence sends at 10:00 in the debtor's zone) gives its debtor
 * the zone where it is 08:00–08:59.
 */
export function zoneAtHour(hour: number, now = Date.now()): string {
  const offset = ((hour - new Date(now).getUTCHours() + 36) % 24) - 12;
  if (offset === 0) return "UTC";
  return `Etc/GMT${offset > 0 ? "-" : "+"}${Math.abs(offset)}`;
}

/** "YYYY-MM-DD" `days` after today in `timeZone`. */
export function dateIn(timeZone: string, days = 0, now = Date.now()): string {
  return new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" }).format(
    now + days * 86_400_000,
  );
}
