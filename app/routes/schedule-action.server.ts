import type { SubmissionResult } from "@conform-to/react";
import { parseWithValibot } from "@conform-to/valibot";
import type { RouterContextProvider } from "react-router";
import * as v from "valibot";
import { requireUser } from "~/auth/guard.server";
import { unique } from "~/db/chunk";
import { type Db, getDb } from "~/db/client.server";
import { AccountCapReached } from "~/domain/account-caps";
import { manualSendRefusal, resendCapRefusal, sendingLimits } from "~/domain/limits";
import { intentOf, readForm, reply, replyOrRedirect } from "~/lib/action-result.server";
import { accountCaps } from "~/lib/config.server";
import { getApp } from "~/lib/context.server";
import { requestTimeZone } from "~/lib/time-zone.server";
import { manualSendLoad } from "~/models/delivery.server";
import { enabledSchedules } from "~/models/schedule.server";
import {
  createResendSchedules,
  createSchedule,
  deleteSchedule,
  type OwnerScope,
  pauseSchedules,
  resumeSchedules,
  sendableDebtors,
  sendNow as sendSchedulesNow,
  updateSchedule,
} from "~/reminders/lifecycle.server";
import { resumeRefusalMessage, sendRefusalMessage } from "~/reminders/refusals";
import { DebtorIdsSchema, ScheduleIdSchema, ScheduleIdsSchema } from "~/schemas/ids";
import { SCHEDULE_DEBTOR_MESSAGE, SCHEDULE_ORG_MESSAGE, ScheduleSchema } from "~/schemas/schedule";
import { testSend } from "./test-send-action.server";

export const SCHEDULE_SCHEDULED = "Email reminder scheduled.";
export const SCHEDULE_DELETED = "Schedule deleted";
export const RESEND_DONE = "Emails sending rescheduled.";
export const SCHEDULE_PAUSED = "Schedule paused";
export const SCHEDULE_RESUMED = "Schedule resumed";
const SOMETHING_WRONG = "Something went wrong.";
/** A sending limit refused the request (docs/architecture.md §4). */
const LIMITED = 429;

interface ActionArgs {
  context: Readonly<RouterContextProvider>;
  request: Request;
  url: URL;
}

/** What an intent needs besides the form: the owner and their plan, the bindings and the browser's time zone. */
interface Scope extends OwnerScope {
  plan: string;
  timeZone: string;
  now: number;
  /** The account's cap of live schedules (ACCOUNT_MAX_SCHEDULES). */
  maxSchedules: number;
}

/**
 * Every schedule write: create, edit, delete, send now, pause, resume, and the debtors' re-send
 * (which creates one-time schedules). The action of /schedule and of the /schedules/actions resource route that
 * the lists' fetchers post to. The owner is the signed-in user; ids from the form are only a
 * request, and another user's record answers 404. Every change goes through the reminder lifecycle
 * (app/reminders/lifecycle.server.ts), which records it and moves the alarms.
 */
export async function scheduleAction({ context, request, url }: ActionArgs) {
  const user = requireUser(context, url);
  const form = await readForm(request);
  if ("refused" in form) return form.refused;
  const { formData } = form;
  const { env } = getApp(context);
  const scope: Scope = {
    env,
    db: getDb(env.DB),
    ownerId: user.id,
    plan: user.plan,
    timeZone: requestTimeZone(request),
    now: Date.now(),
    maxSchedules: accountCaps(getApp(context).config).schedules,
  };
  const intent = intentOf(formData);
  switch (intent) {
    case "schedule-create":
    case "schedule-update":
      return saveSchedule(scope, intent, formData);
    case "schedule-delete":
      return removeSchedule(scope, formData);
    case "schedule-send-now":
      return sendNow(scope, formData);
    case "debtor-resend":
      return resend(scope, formData);
    case "schedule-pause":
      return pause(scope, formData);
    case "schedule-resume":
      return resume(scope, formData);
    case "schedule-test-send":
      return testSend({ context, formData, timeZone: scope.timeZone, now: scope.now });
    default:
      return reply(intent, { status: 400, message: SOMETHING_WRONG });
  }
}

/** Field errors for a debtor or organization that is not the owner's (it looks missing). */
function ownershipErrors(error: string | undefined): Record<string, string[]> {
  return error === "organization"
    ? { organization_id: [SCHEDULE_ORG_MESSAGE] }
    : { debtor_id: [SCHEDULE_DEBTOR_MESSAGE] };
}

async function saveSchedule(scope: Scope, intent: "schedule-create" | "schedule-update", formData: FormData) {
  // A new schedule without a zone takes the browser's (tz cookie); an edit keeps its own.
  if (intent === "schedule-create" && !formData.get("time_zone")) formData.set("time_zone", scope.timeZone);
  const submission = parseWithValibot(formData, { schema: ScheduleSchema });
  if (submission.status !== "success") return reply(intent, { status: 400, result: submission.reply() });
  let outcome: Awaited<ReturnType<typeof createSchedule | typeof updateSchedule>>;
  const options = { max: scope.maxSchedules };
  try {
    outcome =
      intent === "schedule-create"
        ? await createSchedule(scope, submission.value, options)
        : await updateSchedule(scope, String(formData.get("id") ?? ""), submission.value, options);
  } catch (error) {
    if (!(error instanceof AccountCapReached)) throw error;
    return reply(intent, { status: 403, result: submission.reply({ formErrors: [error.message] }) });
  }
  if ("error" in outcome) {
    if (outcome.error === "not-found") return reply(intent, { status: 404, message: SOMETHING_WRONG });
    const fieldErrors =
      outcome.error === "refused"
        ? { debtor_id: [sendRefusalMessage(outcome.debtorName, outcome.refusal)] }
        : ownershipErrors(outcome.error);
    const result: SubmissionResult<string[]> = submission.reply({ fieldErrors });
    return reply(intent, { status: outcome.error === "refused" ? 409 : 400, result });
  }
  return replyOrRedirect(formData, intent, {
    message: SCHEDULE_SCHEDULED,
    result: submission.reply({ resetForm: true }),
    count: 1,
  });
}

async function removeSchedule(scope: Scope, formData: FormData) {
  const id = v.safeParse(ScheduleIdSchema, formData.get("id"));
  if (!id.success || !(await deleteSchedule(scope, id.output))) {
    return reply("schedule-delete", { status: 404, message: SOMETHING_WRONG });
  }
  return reply("schedule-delete", { message: SCHEDULE_DELETED, count: 1 });
}

async function sendNow(scope: Scope, formData: FormData) {
  const ids = v.safeParse(ScheduleIdsSchema, formData.getAll("ids"));
  if (!ids.success) return reply("schedule-send-now", { status: 400, message: "Select at least one schedule." });
  const { db } = scope;
  const due = await enabledSchedules(db, scope.ownerId, ids.output);
  const refusal =
    due.length > 0
      ? await limitRefusal(
          scope,
          db,
          due.map((s) => s.debtorId),
          due.map((s) => s.id),
        )
      : null;
  if (refusal) return reply("schedule-send-now", { status: LIMITED, message: refusal });
  // Only what was checked moves; none when nothing is enabled (or it was disabled meanwhile).
  const changed = await sendSchedulesNow(
    scope,
    due.map((s) => s.id),
  );
  if (changed.length === 0) {
    return reply("schedule-send-now", {
      status: 404,
      message: "None of the selected schedules can send now (only active ones can).",
    });
  }
  const message =
    changed.length === 1
      ? "The next reminder is being sent now."
      : `The next reminders of ${changed.length} schedules are being sent now.`;
  return reply("schedule-send-now", { message, count: changed.length });
}

async function resend(scope: Scope, formData: FormData) {
  const ids = v.safeParse(DebtorIdsSchema, formData.getAll("ids"));
  if (!ids.success) return reply("debtor-resend", { status: 400, message: "Select at least one debtor." });
  const debtorIds = unique(ids.output);
  const capRefusal = resendCapRefusal(debtorIds.length);
  if (capRefusal) return reply("debtor-resend", { status: LIMITED, message: capRefusal });
  // Who can get a reminder at all comes first: an opted-out debtor is told as that, not as a limit.
  const { sendable, refused } = await sendableDebtors(scope.db, scope.ownerId, debtorIds);
  const [firstRefused] = refused;
  if (sendable.length === 0) {
    if (!firstRefused) return reply("debtor-resend", { status: 404, message: SOMETHING_WRONG });
    const more = refused.length > 1 ? ` The same goes for ${refused.length - 1} more of the selected debtors.` : "";
    const message = `${sendRefusalMessage(firstRefused.debtorName, firstRefused.reason)}${more} Nothing was sent.`;
    return reply("debtor-resend", { status: 409, message });
  }
  const sendableIds = sendable.map((d) => d.id);
  const refusal = await limitRefusal(scope, scope.db, sendableIds);
  if (refusal) return reply("debtor-resend", { status: LIMITED, message: refusal });
  let created: Awaited<ReturnType<typeof createResendSchedules>>;
  try {
    created = await createResendSchedules(scope, sendableIds, scope.timeZone, { max: scope.maxSchedules });
  } catch (error) {
    if (!(error instanceof AccountCapReached)) throw error;
    return reply("debtor-resend", { status: 403, message: error.message });
  }
  if (created.created.length === 0) return reply("debtor-resend", { status: 404, message: SOMETHING_WRONG });
  const skipped = firstRefused
    ? ` Not to ${refused.length === 1 ? firstRefused.debtorName : `${refused.length} of the selected debtors`}: ${sendRefusalMessage(firstRefused.debtorName, firstRefused.reason)}`
    : "";
  return reply("debtor-resend", { message: `${RESEND_DONE}${skipped}`, count: created.created.length });
}

async function pause(scope: Scope, formData: FormData) {
  const ids = v.safeParse(ScheduleIdsSchema, formData.getAll("ids"));
  if (!ids.success) return reply("schedule-pause", { status: 400, message: "Select at least one schedule." });
  const paused = await pauseSchedules(scope, ids.output);
  if (paused.length === 0) {
    return reply("schedule-pause", {
      status: 404,
      message: "None of the selected schedules can be paused (only active ones can).",
    });
  }
  const message = paused.length === 1 ? SCHEDULE_PAUSED : `${paused.length} schedules paused`;
  return reply("schedule-pause", { message, count: paused.length });
}

async function resume(scope: Scope, formData: FormData) {
  const ids = v.safeParse(ScheduleIdsSchema, formData.getAll("ids"));
  if (!ids.success) return reply("schedule-resume", { status: 400, message: "Select at least one schedule." });
  const { resumed, refused } = await resumeSchedules(scope, ids.output);
  const [firstRefusal] = refused;
  if (resumed.length === 0 && firstRefusal) {
    return reply("schedule-resume", {
      status: 409,
      message: resumeRefusalMessage(firstRefusal.debtorName, firstRefusal.reason),
    });
  }
  if (resumed.length === 0) {
    return reply("schedule-resume", {
      status: 404,
      message: "None of the selected schedules can be resumed (only paused ones can).",
    });
  }
  const done = resumed.length === 1 ? SCHEDULE_RESUMED : `${resumed.length} schedules resumed`;
  const message = firstRefusal
    ? `${done}. ${resumeRefusalMessage(firstRefusal.debtorName, firstRefusal.reason)}`
    : done;
  return reply("schedule-resume", { message, count: resumed.length });
}

/**
 * Why the sending limits refuse a manual send to `debtorIds` (one per reminder), or null. The
 * engine enforces the account and address limits again when it claims each occurrence.
 */
async function limitRefusal(scope: Scope, db: Db, debtorIds: readonly number[], firing: readonly string[] = []) {
  const load = await manualSendLoad(db, scope.ownerId, debtorIds, scope.now, firing);
  return manualSendRefusal(load, sendingLimits(scope.plan), scope.now, scope.timeZone);
}
