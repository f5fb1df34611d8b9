/** The year, month (1-12) and day of a "YYYY-MM-DD" that is a real calendar date; null otherwise. */
export function parseCalendarDate(value: string): { year: number; month: number; day: number } | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!m) return null;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  // Date.UTC rolls 2027-02-30 over to March 2: such a date is not on the calendar.
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return null;
  return { year, month, day };
}

/** "YYYY-MM-DD" that is a real calendar date. */
export function isCalendarDate(value: string): boolean {
  return parseCalendarDate(value) !== null;
}

/** Today in the runtime's own zone (the browser's, in a form), "YYYY-MM-DD". */
export function localToday(now = new Date()) {
  return `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, "0")}-${String(now.getDate()).padStart(2, "0")}`;
}
