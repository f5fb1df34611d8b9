import type { SubmissionResult } from "@conform-to/react";
import { parseWithValibot } from "@conform-to/valibot";
import { data } from "react-router";
import * as v from "valibot";
import { getDb } from "~/db/client.server";
import { armSchedule, disarmSchedule } from "~/lib/alarms.server";
import { SCHEDULE_DEBTOR_MESSAGE, SCHEDULE_ORG_MESSAGE, ScheduleSchema } from "~/schemas/schedule";
import {
  bringForward,
  createResendSchedules,
  createSchedule,
  deleteSchedule,
  getSchedule,
  updateSchedule,
} from "./schedule.server";

export const SCHEDULE_SCHEDULED = "Email reminder scheduled.";
export const SCHEDULE_DELETED = "Schedule deleted";
export const RESEND_DONE = "Emails sending rescheduled.";
export const SOMETHING_WRONG = "Something went wrong.";

export type ScheduleActionData = {
  intent: string;
  ok: boolean;
  message: string | null;
  result?: SubmissionResult<string[]>;
  /** How many schedules or debtors the action reached (bulk actions). */
  count?: number;
};

const IdsField = v.pipe(
  v.array(v.pipe(v.string(), v.trim(), v.nonEmpty(), v.maxLength(200))),
  v.minLength(1),
  v.maxLength(100),
);
const DebtorIdsField = v.pipe(
  v.array(v.pipe(v.string(), v.regex(/^\d+$/), v.transform(Number), v.integer(), v.minValue(1))),
  v.minLength(1),
  v.maxLength(100),
);

function fail(
  intent: string,
  status: number,
  message: string | null = SOMETHING_WRONG,
  result?: SubmissionResult<string[]>,
) {
  return data({ intent, ok: false, message, result } satisfies ScheduleActionData, { status });
}

/** Field errors for a debtor or organization that is not the owner's (it looks missing). */
function ownershipReply(
  submission: { reply: (o: { fieldErrors: Record<string, string[]> }) => SubmissionResult<string[]> },
  error: string,
) {
  return submission.reply({
    fieldErrors:
      error === "organization" ? { organization_id: [SCHEDULE_ORG_MESSAGE] } : { debtor_id: [SCHEDULE_DEBTOR_MESSAGE] },
  });
}

/**
 * Every schedule write (create, edit, delete, send now) and the debtors' re-send. The owner is the
 * signed-in user; ids from the form are only a request, and another user's record answers 404.
 * Alarms are armed after the D1 write; if arming fails the watchdog re-arms within minutes.
 */
export async function handleScheduleIntent(
  env: Env,
  ownerId: string,
  intent: string,
  formData: FormData,
  timeZone: string,
) {
  const db = getDb(env.DB);
  const now = Date.now();

  if (intent === "schedule-create" || intent === "schedule-update") {
    // A new schedule without a zone takes the browser's (tz cookie); an edit keeps its own.
    if (intent === "schedule-create" && !formData.get("time_zone")) formData.set("time_zone", timeZone);
    const submission = parseWithValibot(formData, { schema: ScheduleSchema });
    if (submission.status !== "success") return fail(intent, 400, null, submission.reply());
    const id = String(formData.get("id") ?? "");
    const outcome =
      intent === "schedule-create"
        ? await createSchedule(db, ownerId, submission.value, now)
        : await updateSchedule(db, ownerId, id, submission.value, now);
    if ("error" in outcome) {
      if (outcome.error === "not-found") return fail(intent, 404);
      return fail(intent, 400, null, ownershipReply(submission, String(outcome.error)));
    }
    await arm(env, outcome.schedule.id, outcome.schedule.nextRunAt ?? now);
    return {
      intent,
      ok: true,
      message: SCHEDULE_SCHEDULED,
      result: submission.reply({ resetForm: true }),
      count: 1,
    } satisfies ScheduleActionData;
  }

  if (intent === "schedule-delete") {
    const id = String(formData.get("id") ?? "");
    if (!id || !(await getSchedule(db, ownerId, id))) return fail(intent, 404);
    // The alarm goes first: a schedule row without an alarm is harmless, an alarm without a row too.
    await disarmSchedule(env, id);
    if (!(await deleteSchedule(db, ownerId, id))) return fail(intent, 404);
    return { intent, ok: true, message: SCHEDULE_DELETED, count: 1 } satisfies ScheduleActionData;
  }

  if (intent === "schedule-send-now") {
    const ids = v.safeParse(IdsField, formData.getAll("ids"));
    if (!ids.success) return fail(intent, 400, "Select at least one schedule.");
    const changed = await bringForward(db, ownerId, ids.output, now);
    if (changed.length === 0)
      return fail(intent, 404, "None of the selected schedules can send now (only active ones can).");
    await Promise.all(changed.map((id) => arm(env, id, now)));
    const message =
      changed.length === 1
        ? "The next reminder is being sent now."
        : `The next reminders of ${changed.length} schedules are being sent now.`;
    return { intent, ok: true, message, count: changed.length } satisfies ScheduleActionData;
  }

  if (intent === "debtor-resend") {
    const ids = v.safeParse(DebtorIdsField, formData.getAll("ids"));
    if (!ids.success) return fail(intent, 400, "Select at least one debtor.");
    const created = await createResendSchedules(db, ownerId, ids.output, timeZone, now);
    if (created.length === 0) return fail(intent, 404);
    await Promise.all(created.map((s) => arm(env, s.id, s.nextRunAt ?? now)));
    return { intent, ok: true, message: RESEND_DONE, count: created.length } satisfies ScheduleActionData;
  }

  return fail(intent, 400);
}

/** Arming failures are logged, not fatal: the row is saved and the watchdog re-arms it. */
async function arm(env: Env, id: string, at: number) {
  try {
    await armSchedule(env, id, at);
  } catch (error) {
    console.error(`[dunly] could not arm schedule ${id}; the watchdog will`, error);
  }
}
