/**
 * Frequencies. Daily and weekly ones fire at 10:00 in the schedule's own time zone; 'due' follows
 * each open invoice's due date at the chosen hour in the debtor's (app/domain/cadence.ts).
 */
export type FrequencyId = "daily" | "weekly" | "now" | "due";

export interface FrequencyOption {
  id: FrequencyId;
  label: string;
}

export const FREQUENCIES: readonly FrequencyOption[] = [
  { id: "daily", label: "Daily at 10:00" },
  { id: "weekly", label: "Weekly on Monday at 10:00" },
  { id: "now", label: "Now (once, in one minute)" },
  { id: "due", label: "Follow the due date" },
] as const;

export const DEFAULT_FREQUENCY: FrequencyId = "daily";
/** A 'now' schedule fires once, this long after it is created. */
export const NOW_DELAY_MS = 60_000;
/** The local wall-clock time of every recurring reminder. */
export const SEND_HOUR = 10;

/** The frequency with this id, or undefined. */
export function getFrequency(id: string): FrequencyOption | undefined {
  return FREQUENCIES.find((f) => f.id === id);
}

/** The frequency's label ("Daily at 10:00"); the id itself when unknown. */
export function frequencyLabel(id: string): string {
  return getFrequency(id)?.label ?? id;
}
