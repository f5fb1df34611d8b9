import { frequencyLabel } from "~/domain/frequencies";
import { getPreset } from "~/domain/presets";

export function presetName(id: string) {
  return getPreset(id)?.name ?? id;
}

export function scheduleName(s: { debtorName: string; preset: string }) {
  return `${s.debtorName} · ${presetName(s.preset)}`;
}

export const STATE_LABELS: Record<string, string> = { ENABLED: "Active", DISABLED: "Disabled", COMPLETED: "Completed" };

export function describeFrequency(frequency: string) {
  return frequencyLabel(frequency);
}
