import type { Cadence } from "./cadence";
import { MAX_REPEAT_DAYS, MIN_REPEAT_DAYS, parseSteps, SEND_HOURS } from "./cadence";
import { getPreset, type PresetId } from "./presets";

/** What the preview asks the outlook for: the chosen debtor and the cadence as the form holds it. */
export interface OutlookRequest {
  debtorId: number;
  cadence: Cadence;
  preset: PresetId;
  scheduleId?: string;
}

/**
 * The outlook's query (`debtor_id`, `cadence_steps`, `after_last`, `repeat_days`, `send_hour`,
 * `preset`, `schedule_id`) read as the schedule form validates them; null when any is not valid.
 */
export function outlookRequest(get: (name: string) => string | null): OutlookRequest | null {
  const debtorId = Number(get("debtor_id"));
  if (!Number.isSafeInteger(debtorId) || debtorId <= 0) return null;
  const steps = parseSteps(get("cadence_steps") ?? "");
  const hour = Number(get("send_hour") ?? "10");
  if (!steps || !(SEND_HOURS as readonly number[]).includes(hour)) return null;
  let repeatDays: number | null = null;
  if (get("after_last") === "repeat") {
    repeatDays = Number(get("repeat_days"));
    if (!Number.isInteger(repeatDays) || repeatDays < MIN_REPEAT_DAYS || repeatDays > MAX_REPEAT_DAYS) return null;
  }
  const preset = getPreset(get("preset") ?? "FRIENDLY_REMINDER")?.id;
  if (!preset) return null;
  const scheduleId = get("schedule_id") ?? undefined;
  return { debtorId, cadence: { steps, repeatDays, hour }, preset, ...(scheduleId ? { scheduleId } : {}) };
}
