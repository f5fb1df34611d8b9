import { type Cadence, DEFAULT_SEND_HOUR, nextCadenceRun, storedSteps } from "./cadence";
import { type FrequencyId, NOW_DELAY_MS } from "./frequencies";
import { nextRunAfter, nextRunForFrequency } from "./schedule-time";
import { safeTimeZone } from "./time-zone";

/** How the firing of one occurrence ended, as far as the schedule is concerned. */
export type OccurrenceStatus = "sent" | "failed" | "duplicate";

/**
 * A due-date schedule's cadence as of one moment: its steps, the debtor's zone and the due dates
 * of the debtor's open invoices then (app/domain/cadence.ts).
 */
export interface CadencePlan extends Cadence {
  /** The debtor's time zone: every step goes out at `hour` there. */
  timeZone: string;
  /** "YYYY-MM-DD" of each open invoice with something left to pay. */
  dueDates: string[];
}

/** The schedule fields that say where it stands. */
export interface ScheduleProgress {
  frequency: FrequencyId;
  timeZone: string;
  templateStep: number;
  lastRunAt: number | null;
  /** A due-date schedule's cadence ('due'); absent for the other frequencies. */
  cadence?: CadencePlan;
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
 * tries it again) and never stops the schedule; a one-time ('now') schedule is then complete, and
 * so is a due-date one with no step of an open invoice left ahead (its last step has run).
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
  const after = Math.max(scheduledAt, now);
  let nextRunAt: number | null;
  if (frequency === "now") nextRunAt = null;
  else if (frequency === "due")
    nextRunAt = s.cadence
      ? (nextCadenceRun(s.cadence, s.cadence.dueDates, after, s.cadence.timeZone)?.at ?? null)
      : null;
  else nextRunAt = nextRunAfter(frequency, after, s.timeZone);
  return {
    templateStep: alreadyAdvanced || !sentNow ? s.templateStep : s.templateStep + 1,
    lastRunAt: scheduledAt,
    nextRunAt,
    state: nextRunAt === null ? "COMPLETED" : "ENABLED",
  };
}

/**
 * A schedule row as read with the lifecycle's run-plan columns (the lifecycle in app/reminders/
 * `runPlanColumns`): enough to compute its next run.
 */
export interface RunPlanRow {
  frequency: FrequencyId;
  timeZone: string;
  cadenceSteps: string | null;
  cadenceRepeatDays: number | null;
  sendHour: number | null;
  debtorTimeZone: string | null;
  /** A JSON array of the open invoices' due dates (only read for 'due'). */
  openDueDates: string | null;
}

/** The due dates of a JSON array as the run-plan columns read them; [] for anything else. */
export function parseDueDates(json: string | null | undefined): string[] {
  if (!json) return [];
  try {
    const value: unknown = JSON.parse(json);
    return Array.isArray(value) ? value.filter((d): d is string => typeof d === "string") : [];
  } catch {
    return [];
  }
}

/** The cadence stored on a due-date schedule's row (its steps, repeat and hour). */
export function storedCadence(row: Pick<RunPlanRow, "cadenceSteps" | "cadenceRepeatDays" | "sendHour">): Cadence {
  return {
    steps: storedSteps(row.cadenceSteps),
    repeatDays: row.cadenceRepeatDays ?? null,
    hour: row.sendHour ?? DEFAULT_SEND_HOUR,
  };
}

/** A due-date schedule's cadence plan from its row and the open due dates read with it. */
export function cadencePlanOf(
  row: Pick<RunPlanRow, "cadenceSteps" | "cadenceRepeatDays" | "sendHour">,
  debtorTimeZone: string | null | undefined,
  dueDates: string[],
): CadencePlan {
  return { ...storedCadence(row), timeZone: safeTimeZone(debtorTimeZone), dueDates };
}

/**
 * When a schedule that starts or resumes at `now` runs next: daily and weekly at their next
 * 10:00, 'now' in a minute, a due-date one at the next step of an open invoice, or (no step left
 * ahead: every one passed while it was held) in a minute, once, after which it ends.
 */
export function planNextRun(row: RunPlanRow, now: number): number {
  if (row.frequency !== "due") return nextRunForFrequency(row.frequency, now, safeTimeZone(row.timeZone));
  const plan = cadencePlanOf(row, row.debtorTimeZone, parseDueDates(row.openDueDates));
  return nextCadenceRun(plan, plan.dueDates, now, plan.timeZone)?.at ?? now + NOW_DELAY_MS;
}
