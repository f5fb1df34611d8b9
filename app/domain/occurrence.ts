import type { FrequencyId } from "./frequencies";
import { nextRunAfter } from "./schedule-time";

/** How the firing of one occurrence ended, as far as the schedule is concerned. */
export type OccurrenceStatus = "sent" | "failed" | "duplicate";

/** The schedule fields that say where it stands. */
export interface ScheduleProgress {
  frequency: FrequencyId;
  timeZone: string;
  templateStep: number;
  lastRunAt: number | null;
}

/** What a schedule becomes once an occurrence is handled. */
export interface ScheduleAdvance {
  templateStep: number;
  lastRunAt: number;
  nextRunAt: number | null;
  state: "ENABLED" | "COMPLETED";
}

/** The key of a schedule's run at `scheduledAt`: unique per delivery, and the provider's Idempotency-Key. */
export function occurrenceKey(scheduleId: string, scheduledAt: number): string {
  return `${scheduleId}:${scheduledAt}`;
}

/**
 * The schedule after the occurrence at `scheduledAt`: last_run_at records the occurrence, so a
 * repeated firing does not skip a template; a failed send keeps the template (the next occurrence
 * tries it again) and never stops the schedule; a one-time ('now') schedule is then complete.
 */
export function advancePast(
  s: ScheduleProgress,
  scheduledAt: number,
  status: OccurrenceStatus,
  now: number,
): ScheduleAdvance {
  const { frequency } = s;
  const alreadyAdvanced = s.lastRunAt != null && s.lastRunAt >= scheduledAt;
  const sentNow = status === "sent" || (status === "duplicate" && !alreadyAdvanced);
  const once = frequency === "now";
  return {
    templateStep: alreadyAdvanced || !sentNow ? s.templateStep : s.templateStep + 1,
    lastRunAt: scheduledAt,
    nextRunAt: once ? null : nextRunAfter(frequency, Math.max(scheduledAt, now), s.timeZone),
    state: once ? "COMPLETED" : "ENABLED",
  };
}
