import { type Cadence, DEFAULT_SEND_HOUR, storedSteps, storedVoices } from "./cadence";
import { type CadenceInvoice, nextCadenceRun } from "./cadence-plan";
import { type FrequencyId, NOW_DELAY_MS } from "./frequencies";
import { nextRunAfter, nextRunForFrequency } from "./schedule-time";
import { safeTimeZone } from "./time-zone";

/** How the firing of one occurrence ended, as far as the schedule is concerned. */
export type OccurrenceStatus = "sent" | "failed" | "duplicate";

/**
 * A due-date schedule's cadence as of one moment: its steps, the debtor's zone and the debtor's
 * open invoices then (app/domain/cadence-plan.ts).
 */
export interface CadencePlan extends Cadence {
  /** The debtor's time zone: every step goes out at `hour` there. */
  timeZone: string;
  /** Each open invoice with something left to pay. */
  invoices: CadenceInvoice[];
}

/** The schedule fields that say where it stands. */
export interface ScheduleProgress {
  frequency: FrequencyId;
  timeZone: string;
  templateStep: number;
  lastRunAt: number | null;
  /** When the last run went out (a due-date cadence's steps up to that day are covered). */
  coveredAt?: number | null;
  /** A due-date schedule's cadence ('due'); absent for the other frequencies. */
  cadence?: CadencePlan;
}

/** What a schedule becomes once an occurrence is handled. */
export interface ScheduleAdvance {
  templateStep: number;
  lastRunAt: number;
  coveredAt: number;
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
  // The e-mail went out (or was given up) now: what was open now was on it.
  const coveredAt = Math.max(after, s.coveredAt ?? 0);
  let nextRunAt: number | null;
  if (frequency === "now") nextRunAt = null;
  else if (frequency === "due")
    // The occurrence carried every open invoice: nothing up to it is owed another e-mail.
    nextRunAt = s.cadence ? (cadenceRunAfter(s.cadence, coveredAt, after) ?? null) : null;
  else nextRunAt = nextRunAfter(frequency, after, s.timeZone);
  return {
    templateStep: alreadyAdvanced || !sentNow ? s.templateStep : s.templateStep + 1,
    lastRunAt: scheduledAt,
    coveredAt,
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
  /** When the schedule's last run went out: steps up to that day are covered. */
  coveredAt: number | null;
  /** A JSON array of the open invoices (only read for 'due'): `{ n, d, j }` = number, due date, joined at. */
  openInvoices: string | null;
}

/** The open invoices of a JSON array as the run-plan columns read them; [] for anything else. */
export function parseOpenInvoices(json: string | null | undefined): CadenceInvoice[] {
  if (!json) return [];
  try {
    const value: unknown = JSON.parse(json);
    if (!Array.isArray(value)) return [];
    return value.flatMap((x: { n?: unknown; d?: unknown; j?: unknown }) =>
      x && typeof x.d === "string"
        ? [{ number: typeof x.n === "string" ? x.n : null, dueOn: x.d, joinedAt: typeof x.j === "number" ? x.j : 0 }]
        : [],
    );
  } catch {
    return [];
  }
}

/** A cadence's next run strictly after `after`, the schedule's last e-mail having gone at `coveredAt`. */
export function cadenceRunAfter(plan: CadencePlan, coveredAt: number | null, after: number): number | null {
  return (
    nextCadenceRun({
      cadence: plan,
      // Which e-mail it is does not change when it goes.
      preset: "FRIENDLY_REMINDER",
      invoices: plan.invoices,
      lastRunAt: coveredAt,
      now: after,
      timeZone: plan.timeZone,
    })?.at ?? null
  );
}

/** The cadence stored on a due-date schedule's row (its steps, repeat and hour). */
export function storedCadence(row: CadenceRow): Cadence {
  return {
    steps: storedSteps(row.cadenceSteps),
    repeatDays: row.cadenceRepeatDays ?? null,
    hour: row.sendHour ?? DEFAULT_SEND_HOUR,
    voices: storedVoices(row.cadenceVoices),
  };
}

/** A row's cadence columns: its voices only where the query read them (a follower's steps' e-mails). */
type CadenceRow = Pick<RunPlanRow, "cadenceSteps" | "cadenceRepeatDays" | "sendHour"> & {
  cadenceVoices?: string | null;
};

/** A due-date schedule's cadence plan from its row and the open invoices read with it. */
export function cadencePlanOf(
  row: CadenceRow,
  debtorTimeZone: string | null | undefined,
  invoices: CadenceInvoice[],
): CadencePlan {
  return { ...storedCadence(row), timeZone: safeTimeZone(debtorTimeZone), invoices };
}

/**
 * When a schedule that starts or resumes at `now` runs next: daily and weekly at their next
 * 10:00, 'now' in a minute, a due-date one at the next step of an open invoice (one that passed
 * while it was held: its one catch-up e-mail), or (no open invoice) in a minute, once, after which
 * it ends.
 */
export function planNextRun(row: RunPlanRow, now: number): number {
  if (row.frequency !== "due") return nextRunForFrequency(row.frequency, now, safeTimeZone(row.timeZone));
  const plan = cadencePlanOf(row, row.debtorTimeZone, parseOpenInvoices(row.openInvoices));
  return cadenceRunAfter(plan, row.coveredAt, now) ?? now + NOW_DELAY_MS;
}
