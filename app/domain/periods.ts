import { startOfLocalDay } from "./schedule-time";

/** The period dropdown of the schedules card; "All time" is the unfiltered default. */
export const PERIODS = [
  { id: "yesterday", label: "Yesterday" },
  { id: "today", label: "Today" },
  { id: "7d", label: "Last 7 days" },
  { id: "30d", label: "Last 30 days" },
  { id: "90d", label: "Last 90 days" },
] as const;
export type PeriodId = (typeof PERIODS)[number]["id"];

/** True for one of the period dropdown's ids. */
export function isPeriodId(value: string | null | undefined): value is PeriodId {
  return PERIODS.some((p) => p.id === value);
}

const DAY = 86_400_000;

/** Local midnight `days` calendar days before the day of `now` (DST-safe: re-anchored each time). */
function localDaysAgo(now: number, days: number, timeZone: string) {
  const today = startOfLocalDay(now, timeZone);
  // Noon of the target day is never ambiguous; its local midnight is the start we want.
  return startOfLocalDay(today - days * DAY + DAY / 2, timeZone);
}

/** [from, before) of a period in the user's time zone; "Last 7 days" includes today. */
export function periodRange(period: PeriodId, now: number, timeZone: string): { from: number; before: number | null } {
  switch (period) {
    case "yesterday":
      return { from: localDaysAgo(now, 1, timeZone), before: startOfLocalDay(now, timeZone) };
    case "today":
      return { from: startOfLocalDay(now, timeZone), before: null };
    case "7d":
      return { from: localDaysAgo(now, 6, timeZone), before: null };
    case "30d":
      return { from: localDaysAgo(now, 29, timeZone), before: null };
    case "90d":
      return { from: localDaysAgo(now, 89, timeZone), before: null };
  }
}
