import { frequencyLabel } from "~/domain/frequencies";
import { getPreset } from "~/domain/presets";

export function presetName(id: string) {
  return getPreset(id)?.name ?? id;
}

export function scheduleName(s: { debtorName: string; preset: string }) {
  return `${s.debtorName} · ${presetName(s.preset)}`;
}

/** 'DISABLED' is a paused schedule: kept, sending nothing until it is resumed (issue 10, item 5). */
export const STATE_LABELS: Record<string, string> = { ENABLED: "Active", DISABLED: "Paused", COMPLETED: "Completed" };

/**
 * Why a schedule is paused or finished, when that is worth saying: Dunly paused it after a bounce,
 * or stopped it for an opt-out or a payment; null for an active one.
 */
export function stateNote(
  state: string,
  stoppedReason: string | null | undefined,
  waiting: string | null | undefined = null,
): string | null {
  // Its current occurrence is held back (contact rules, sending limits): why, and when it goes.
  if (state === "ENABLED" && waiting) return `Held back: ${waiting}`;
  if (state === "DISABLED") {
    if (stoppedReason === "bounced") return "Paused: the debtor's address bounced.";
    if (stoppedReason === "paid_claimed") {
      return "Paused: the debtor says they have paid. Confirm the payment or resume reminders on the dashboard.";
    }
    return "Paused: no reminders are sent until you resume it.";
  }
  if (state === "COMPLETED" && stoppedReason === "opted_out") return "Stopped: the debtor opted out of reminders.";
  if (state === "COMPLETED" && stoppedReason === "paid") return "Stopped: the debtor has paid.";
  return null;
}

export function describeFrequency(frequency: string) {
  return frequencyLabel(frequency);
}
