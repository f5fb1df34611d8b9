/**
 * The delivery archive's months (docs/decisions/022):
 * calendar months in UTC, written YYYY-MM. A month is archived once all of it is more than
 * ARCHIVE_AFTER_MONTHS months old, so no month is ever split between the archive and live rows
 * by the cut-off itself.
 */

/** Deliveries are kept live this many whole months before the current one. */
export const ARCHIVE_AFTER_MONTHS = 13;

const MONTH = /^(\d{4})-(0[1-9]|1[0-2])$/;

/** True for a month as the archive writes it (YYYY-MM). */
export function isMonth(value: string | null | undefined): value is string {
  return typeof value === "string" && MONTH.test(value);
}

/** The UTC month of an instant, YYYY-MM. */
export function monthOf(at: number): string {
  return new Date(at).toISOString().slice(0, 7);
}

/** [from, before) of a month in UTC milliseconds. */
export function monthRange(month: string): { from: number; before: number } {
  const match = MONTH.exec(month);
  if (!match) throw new RangeError(`not a month: ${month}`);
  const year = Number(match[1]);
  const index = Number(match[2]) - 1;
  return { from: Date.UTC(year, index, 1), before: Date.UTC(year, index + 1, 1) };
}

/**
 * The first instant that stays live: the start of the UTC month ARCHIVE_AFTER_MONTHS months
 * before the current one. Every delivery made before it is older than 13 months.
 */
export function archiveCutoff(now: number, months = ARCHIVE_AFTER_MONTHS): number {
  const d = new Date(now);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - months, 1);
}

/** The R2 key of an account's archive file for a month (the account's own prefix). */
export function archiveObjectKey(ownerId: string, month: string): string {
  return `${archivePrefix(ownerId)}${month}.ndjson`;
}

/** Where every archive file of an account lives in the ARCHIVE bucket (account deletion empties it). */
export function archivePrefix(ownerId: string): string {
  return `deliveries/${ownerId}/`;
}

/** "Jan 2025" for a month, as the timeline names it. */
export function monthLabel(month: string): string {
  const { from } = monthRange(month);
  return new Date(from).toLocaleString("en-US", { month: "short", year: "numeric", timeZone: "UTC" });
}
