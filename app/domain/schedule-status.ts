import { addDays } from "~/domain/promise";
import { formatDate } from "./dates";

/**
 * A schedule's true state as every screen shows it:
 * running (with its next run), paused by the user, held by Dunly (why, and until when when that
 * is known), or stopped (why). Read from the row the lifecycle wrote and the debtor's status, so
 * no screen says "Active" or "Next reminder" for a schedule that will send nothing.
 */

/** The fields a schedule's status is read from (a list row, the details, the timeline). */
export interface StatusFields {
  state: string;
  stoppedReason: string | null | undefined;
  frequency: string;
  nextRunAt: number | null | undefined;
  /** Why its current occurrence is held back (contact rules, sending limits), with when it goes. */
  waiting?: string | null;
  /** The debtor's status ('active', 'paid', 'opted_out', 'bouncing'), when known. */
  debtorStatus?: string | null;
  /** The debtor's name and the date they promised to pay by, when known (a 'promised' hold says them). */
  debtorName?: string | null;
  debtorPromisedOn?: string | null;
}

export type ScheduleStatus =
  | { kind: "running"; label: "Active"; nextRunAt: number | null; note: null }
  | { kind: "held"; label: "Held"; nextRunAt: number | null; note: string }
  | { kind: "paused"; label: "Paused"; nextRunAt: null; note: string }
  | { kind: "stopped"; label: "Stopped" | "Completed"; nextRunAt: null; note: string };

const held = (note: string, nextRunAt: number | null = null): ScheduleStatus => ({
  kind: "held",
  label: "Held",
  nextRunAt,
  note,
});
const stopped = (label: "Stopped" | "Completed", note: string): ScheduleStatus => ({
  kind: "stopped",
  label,
  nextRunAt: null,
  note,
});

export function scheduleStatus(s: StatusFields, locale?: string): ScheduleStatus {
  if (s.state === "ENABLED") {
    // The engine stops it at its next run without sending (the debtor changed since it was armed).
    if (s.debtorStatus === "opted_out") return held("Sends nothing: the debtor opted out of reminders.");
    if (s.debtorStatus === "paid") return held("Sends nothing: the debtor has paid.");
    if (s.waiting) return held(`Held back: ${s.waiting}`, s.nextRunAt ?? null);
    return { kind: "running", label: "Active", nextRunAt: s.nextRunAt ?? null, note: null };
  }
  if (s.state === "DISABLED") {
    if (s.stoppedReason === "bounced") {
      return held("Held: the debtor's address bounced. Correct it on the debtor, then resume.");
    }
    if (s.stoppedReason === "disputed") {
      return held(
        "Held: every invoice still owed is disputed, not chased or on a payment plan. Resolve the dispute, or chase an invoice again, on the debtor's page to resume reminders; a payment plan chases its own instalments.",
      );
    }
    if (s.stoppedReason === "paid_claimed") {
      return held("Held: the debtor says they have paid. Confirm the payment or resume reminders on the dashboard.");
    }
    if (s.stoppedReason === "promised") return held(promisedNote(s, locale));
    if (s.stoppedReason === "payment_pending") {
      return held(
        "Held: a payment online is being processed. Recorded, it stops the reminders; if it fails, they run again.",
      );
    }
    if (s.stoppedReason === "replied") {
      const who = s.debtorName?.trim() || "the debtor";
      return held(`Held: ${who} replied; handle the reply to resume reminders.`);
    }
    if (s.stoppedReason === "plan_requested") {
      const who = s.debtorName?.trim() || "the debtor";
      return held(
        `Held: ${who} asked for a payment plan; accept, change or decline it on their page to resume reminders.`,
      );
    }
    if (s.stoppedReason === "autopilot_off") {
      return {
        kind: "paused",
        label: "Paused",
        nextRunAt: null,
        note: "Paused when autopilot was turned off: turning it on again resumes it, or resume it here.",
      };
    }
    if (s.stoppedReason === "no_plan") {
      return held("Held: your trial has ended — choose a plan to resume reminders.");
    }
    return {
      kind: "paused",
      label: "Paused",
      nextRunAt: null,
      note: "Paused: no reminders are sent until you resume it.",
    };
  }
  if (s.stoppedReason === "opted_out") return stopped("Stopped", "Stopped: the debtor opted out of reminders.");
  if (s.stoppedReason === "paid") return stopped("Stopped", "Stopped: the debtor has paid.");
  if (s.frequency === "now") return stopped("Completed", "Completed: this one-time reminder has run.");
  if (s.frequency === "due") {
    return stopped(
      "Completed",
      "Completed: the last step of the due-date cadence has gone out; no further reminders are sent.",
    );
  }
  return stopped("Completed", "Completed: no further reminders are sent.");
}

/** "Held: Ana Ruiz promised to pay by 30 December 2026; reminders resume on 31 December 2026." */
function promisedNote(s: StatusFields, locale?: string): string {
  const who = s.debtorName?.trim() || "the debtor";
  const date = s.debtorPromisedOn;
  const after = date ? addDays(date, 1) : null;
  if (!date || !after) return `Held: ${who} promised to pay; reminders resume the day after the promised date.`;
  return `Held: ${who} promised to pay by ${formatDate(date, locale)}; reminders resume on ${formatDate(after, locale)}.`;
}
