import { frequencyLabel } from "~/domain/frequencies";
import { getPreset } from "~/domain/presets";

export function presetName(id: string) {
  return getPreset(id)?.name ?? id;
}

export function scheduleName(s: { debtorName: string; preset: string }) {
  return `${s.debtorName} · ${presetName(s.preset)}`;
}

export function describeFrequency(frequency: string) {
  return frequencyLabel(frequency);
}
