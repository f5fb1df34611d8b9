/** Frequencies (spec §9, DESIGN §4). Recurring ones fire at 10:00 in the schedule's own time zone. */
export type FrequencyId = "daily" | "weekly" | "now";

export interface FrequencyOption {
  id: FrequencyId;
  label: string;
  /** Cron of the recurring frequencies (minute hour day-of-month month day-of-week); null for 'now'. */
  cron: string | null;
}

export const FREQUENCIES: readonly FrequencyOption[] = [
  { id: "daily", label: "Daily at 10:00", cron: "0 10 * * *" },
  { id: "weekly", label: "Weekly on Monday at 10:00", cron: "0 10 * * 1" },
  { id: "now", label: "Now (once, in one minute)", cron: null },
] as const;

export const DEFAULT_FREQUENCY: FrequencyId = FREQUENCIES[0]!.id;
/** A 'now' schedule fires once, this long after it is created. */
export const NOW_DELAY_MS = 60_000;
/** The local wall-clock time of every recurring reminder. */
export const SEND_HOUR = 10;

export function getFrequency(id: string): FrequencyOption | undefined {
  return FREQUENCIES.find((f) => f.id === id);
}

export function frequencyLabel(id: string): string {
  return getFrequency(id)?.label ?? id;
}
