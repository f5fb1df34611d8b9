import { cadenceSummary } from "~/domain/cadence";
import { frequencyLabel } from "~/domain/frequencies";
import { storedCadence } from "~/domain/occurrence";
import { getPreset } from "~/domain/presets";

export function presetName(id: string) {
  return getPreset(id)?.name ?? id;
}

export function scheduleName(s: { debtorName: string; preset: string }) {
  return `${s.debtorName} · ${presetName(s.preset)}`;
}

/**
 * The frequency in words: "Daily at 10:00"; a due-date schedule's cadence in full when its row
 * is given ("Follows the due date: 3 days before, on the due date, …").
 */
export function describeFrequency(
  frequency: string,
  cadence?: { cadenceSteps: string | null; cadenceRepeatDays: number | null; sendHour: number | null },
) {
  if (frequency === "due" && cadence) return cadenceSummary(storedCadence(cadence));
  return frequencyLabel(frequency);
}
