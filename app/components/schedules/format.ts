import { frequencyLabel } from "~/domain/frequencies";
import { getPreset } from "~/domain/presets";

/** "Nov 21, 2026, 10:00 AM" in the given zone; the same on server and client (no hydration drift). */
export function formatInstant(ms: number | null | undefined, timeZone: string) {
  if (ms == null) return "—";
  return new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeStyle: "short", timeZone }).format(ms);
}

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
