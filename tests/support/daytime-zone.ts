/**
 * An IANA zone where it is about 13:00 now. Reminders reach a debtor only between 08:00 and 21:00
 * in the debtor's zone, so tests that send at the real
 * time give their debtors this zone; the suite then passes at any hour, with hours to spare.
 * Etc/GMT zones are sign-inverted: Etc/GMT-5 is UTC+5.
 */
export function daytimeZone(now = Date.now()): string {
  const offset = ((13 - new Date(now).getUTCHours() + 36) % 24) - 12;
  if (offset === 0) return "UTC";
  return `Etc/GMT${offset > 0 ? "-" : "+"}${Math.abs(offset)}`;
}
