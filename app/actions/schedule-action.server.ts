import type { SubmissionResult } from "@conform-to/react";
import { parseWithValibot } from "@conform-to/valibot";
import type { RouterContextProvider } from "react-router";
import * as v from "valibot";
import { getApp } from "~/auth/context.server";
import { requireUser } from "~/auth/guard.server";
import { unique } from "~/db/chunk";
import type { Db } from "~/db/client.server";
import { AccountCapReached } from "~/domain/account-caps";
import { noStepAheadMessage } from "~/domain/cadence";
import { manualSendRefusal, resendCapRefusal, sendingLimits } from "~/domain/limits";
import { TRIAL_PLAN } from "~/domain/plans";
import { resumeRefusalMessage, sendRefusalMessage } from "~/domain/refusals";
import { intentOf, readForm, reply, replyOrRedirect } from "~/platform/action-result.server";
import { type EntityScope, entityScope } from "~/platform/scope.server";
import {
  createResendSchedules,
  enabledSchedules,
  followAccountCadence,
  manualSendLoad,
  pauseDebtors,
  pauseSchedules,
  resumeDebtors,
  resumeSchedules,
  scheduleEntity,
  sendableDebtors,
  sendNow as sendSchedulesNow,
} from "~/reminders/index.server";
import { DebtorIdsSchema, ScheduleIdsSchema, selectionMessage } from "~/schemas/ids";
import { DEBTOR_INTENTS, type IntentOf, SCHEDULE_INTENTS } from "~/schemas/intents";
import { SCHEDULE_MESSAGES, SCHEDULE_SOMETHING_WRONG as SOMETHING_WRONG } from "~/schemas/messages";
import { SCHEDULE_DEBTOR_MESSAGE, SCHEDULE_ORG_MESSAGE } from "~/schemas/schedule";
import { testSend } from "./test-send-action.server";

const INTENTS = SCHEDULE_INTENTS;
const RESEND = DEBTOR_INTENTS.resend;
/** A sending limit refused the request. */
const LIMITED = 429;

interface ActionArgs {
  context: Readonly<RouterContextProvider>;
  request: Request;
  url: URL;
}

/** What an intent needs besides the form: the entity scope (owner, bindings, caps, the browser's zone) and the plan. */
interface Scope extends EntityScope {
  plan: string;
}

/**
 * Every schedule write: create, edit, delete, send now, pause, resume, and the debtors' re-send
 * (which creates one-time schedules). The action of /schedule and of the /schedules/actions resource route that
 * the lists' fetchers post to. The owner is the signed-in user; ids from the form are only a
 * request, and another user's record answers 404. Every change goes through the reminder lifecycle
 * (the lifecycle in app/reminders/), which records it and moves the alarms.
 */
export async function scheduleAction({ context, request, url }: ActionArgs) {
  const user = await requireUser(context, url);
  const form = await readForm(request);
  if ("refused" in form) return form.refused;
  const { formData } = form;
  const { env, config } = getApp(context);
  const entity = entityScope(env, config, user, request);
  // The sending quota is the plan's (app/domain/plans.ts); without one nothing is sent anyway.
  const scope: Scope = { ...entity, plan: entity.accountPlan?.id ?? TRIAL_PLAN };
  const intent = intentOf(formData);
  switch (intent) {
    case INTENTS.create:
    case INTENTS.update:
      return saveSchedule(scope, intent, formData);
    case INTENTS.remove:
      return removeSchedule(scope, formData);
    case INTENTS.sendNow:
      return sendNow(scope, formData);
    case RESEND:
      return resend(scope, formData);
    case INTENTS.pause:
      return pause(scope, formData);
    case INTENTS.resume:
      return resume(scope, formData);
    case DEBTOR_INTENTS.followCadence:
    case DEBTOR_INTENTS.pauseReminders:
    case DEBTOR_INTENTS.resumeReminders:
      return debtorsBulk(scope, intent, formData);
    case INTENTS.testSend:
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

async function saveSchedule(
  scope: Scope,
  intent: IntentOf<Pick<typeof INTENTS, "create" | "update">>,
  formData: FormData,
) {
  // A new schedule without a zone takes the browser's (tz cookie); an edit keeps its own.
  if (intent === INTENTS.create && !formData.get("time_zone")) formData.set("time_zone", scope.timeZone);
  const submission = parseWithValibot(formData, { schema: scheduleEntity.schemas.form });
  if (submission.status !== "success") return reply(intent, { status: 400, result: submission.reply() });
  let outcome: Awaited<ReturnType<typeof scheduleEntity.create | typeof scheduleEntity.update>>;
  try {
    outcome =
      intent === INTENTS.create
        ? await scheduleEntity.create(scope, submission.value)
        : await scheduleEntity.update(scope, String(formData.get("id") ?? ""), submission.value);
  } catch (error) {
    if (!(error instanceof AccountCapReached)) throw error;
    return reply(intent, { status: 403, result: submission.reply({ formErrors: [error.message] }) });
  }
  if ("error" in outcome) {
    if (outcome.error === "not-found") return reply(intent, { status: 404, message: SOMETHING_WRONG });
    if (outcome.error === "plan") {
      // The plan does not include the frequency (app/domain/plans.ts): a field error, nothing written.
      const result: SubmissionResult<string[]> = submission.reply({ fieldErrors: { frequency: [outcome.message] } });
      return reply(intent, { status: 403, result });
    }
    const fieldErrors =
      outcome.error === "refused"
        ? { debtor_id: [sendRefusalMessage(outcome.debtorName, outcome.refusal)] }
        : outcome.error === "no-step-ahead"
          ? { cadence_steps: [noStepAheadMessage(outcome.debtorName)] }
          : ownershipErrors(outcome.error);
    const result: SubmissionResult<string[]> = submission.reply({ fieldErrors });
    return reply(intent, { status: outcome.error === "refused" ? 409 : 400, result });
  }
  return replyOrRedirect(formData, intent, {
    message: SCHEDULE_MESSAGES.scheduled,
    result: submission.reply({ resetForm: true }),
    count: 1,
  });
}

/** The schedule's delete: the same operation as DELETE /api/schedule (app/reminders/schedule-entity.server.ts). */
async function removeSchedule(scope: Scope, formData: FormData) {
  const id = v.safeParse(scheduleEntity.id, formData.get("id"));
  if (!id.success || !(await scheduleEntity.remove(scope, id.output))) {
    return reply(INTENTS.remove, { status: 404, message: SOMETHING_WRONG });
  }
  return reply(INTENTS.remove, { message: SCHEDULE_MESSAGES.deleted, count: 1 });
}

async function sendNow(scope: Scope, formData: FormData) {
  const raw = formData.getAll("ids");
  const ids = v.safeParse(ScheduleIdsSchema, raw);
  if (!ids.success) return reply(INTENTS.sendNow, { status: 400, message: selectionMessage(raw, "schedule") });
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
  if (refusal) return reply(INTENTS.sendNow, { status: LIMITED, message: refusal });
  // Only what was checked moves; none when nothing is enabled (or it was disabled meanwhile).
  const changed = await sendSchedulesNow(
    scope,
    due.map((s) => s.id),
  );
  if (changed.length === 0) {
    return reply(INTENTS.sendNow, {
      status: 404,
      message: "None of the selected schedules can send now (only active ones can).",
    });
  }
  const message =
    changed.length === 1
      ? "The next reminder is being sent now."
      : `The next reminders of ${changed.length} schedules are being sent now.`;
  return reply(INTENTS.sendNow, { message, count: changed.length });
}

async function resend(scope: Scope, formData: FormData) {
  const raw = formData.getAll("ids");
  const ids = v.safeParse(DebtorIdsSchema, raw);
  if (!ids.success) return reply(RESEND, { status: 400, message: selectionMessage(raw, "debtor") });
  const debtorIds = unique(ids.output);
  const capRefusal = resendCapRefusal(debtorIds.length);
  if (capRefusal) return reply(RESEND, { status: LIMITED, message: capRefusal });
  // Who can get a reminder at all comes first: an opted-out debtor is told as that, not as a limit.
  const { sendable, refused } = await sendableDebtors(scope.db, scope.ownerId, debtorIds);
  const [firstRefused] = refused;
  if (sendable.length === 0) {
    if (!firstRefused) return reply(RESEND, { status: 404, message: SOMETHING_WRONG });
    const more = refused.length > 1 ? ` The same goes for ${refused.length - 1} more of the selected debtors.` : "";
    const message = `${sendRefusalMessage(firstRefused.debtorName, firstRefused.reason)}${more} Nothing was sent.`;
    return reply(RESEND, { status: 409, message });
  }
  const sendableIds = sendable.map((d) => d.id);
  const refusal = await limitRefusal(scope, scope.db, sendableIds);
  if (refusal) return reply(RESEND, { status: LIMITED, message: refusal });
  let created: Awaited<ReturnType<typeof createResendSchedules>>;
  try {
    created = await createResendSchedules(scope, sendableIds, scope.timeZone, { max: scope.caps.schedules });
  } catch (error) {
    if (!(error instanceof AccountCapReached)) throw error;
    return reply(RESEND, { status: 403, message: error.message });
  }
  if (created.created.length === 0) return reply(RESEND, { status: 404, message: SOMETHING_WRONG });
  const skipped = firstRefused
    ? ` Not to ${refused.length === 1 ? firstRefused.debtorName : `${refused.length} of the selected debtors`}: ${sendRefusalMessage(firstRefused.debtorName, firstRefused.reason)}`
    : "";
  return reply(RESEND, { message: `${SCHEDULE_MESSAGES.resent}${skipped}`, count: created.created.length });
}

const debtorsCount = (n: number) => (n === 1 ? "1 debtor" : `${n} debtors`);

/**
 * The debtors list's bulk actions on the selected debtors' reminders (at most 100 at a time):
 * follow the account's cadence, pause their running schedules, resume the ones the user paused.
 */
async function debtorsBulk(
  scope: Scope,
  intent:
    | typeof DEBTOR_INTENTS.followCadence
    | typeof DEBTOR_INTENTS.pauseReminders
    | typeof DEBTOR_INTENTS.resumeReminders,
  formData: FormData,
) {
  const raw = formData.getAll("ids");
  const ids = v.safeParse(DebtorIdsSchema, raw);
  if (!ids.success) return reply(intent, { status: 400, message: selectionMessage(raw, "debtor") });
  if (intent === DEBTOR_INTENTS.followCadence) {
    try {
      const { following, skipped } = await followAccountCadence(scope, ids.output, { max: scope.caps.schedules });
      if (following === 0)
        return reply(intent, {
          status: 409,
          message:
            "None of the selected debtors has an open invoice a reminder can reach: nothing follows the cadence.",
        });
      const left =
        skipped > 0 ? ` ${debtorsCount(skipped)} left as they were (nothing open to chase, or unreachable).` : "";
      return reply(intent, { message: `${debtorsCount(following)} now follow your cadence.${left}`, count: following });
    } catch (error) {
      if (!(error instanceof AccountCapReached)) throw error;
      return reply(intent, { status: 403, message: error.message });
    }
  }
  if (intent === DEBTOR_INTENTS.pauseReminders) {
    const paused = await pauseDebtors(scope, ids.output);
    if (paused === 0)
      return reply(intent, { status: 404, message: "None of the selected debtors has reminders running." });
    return reply(intent, { message: `Reminders paused for ${debtorsCount(paused)}.`, count: paused });
  }
  const { resumed, refused } = await resumeDebtors(scope, ids.output);
  const [firstRefused] = refused;
  if (resumed.length === 0) {
    return reply(intent, {
      status: firstRefused ? 409 : 404,
      message: firstRefused
        ? resumeRefusalMessage(firstRefused.debtorName, firstRefused.reason)
        : "None of the selected debtors has paused reminders.",
    });
  }
  const message = resumed.length === 1 ? "Reminders resumed." : `${resumed.length} schedules resumed.`;
  return reply(intent, { message, count: resumed.length });
}

async function pause(scope: Scope, formData: FormData) {
  const raw = formData.getAll("ids");
  const ids = v.safeParse(ScheduleIdsSchema, raw);
  if (!ids.success) return reply(INTENTS.pause, { status: 400, message: selectionMessage(raw, "schedule") });
  const paused = await pauseSchedules(scope, ids.output);
  if (paused.length === 0) {
    return reply(INTENTS.pause, {
      status: 404,
      message: "None of the selected schedules can be paused (only active ones can).",
    });
  }
  const message = paused.length === 1 ? SCHEDULE_MESSAGES.paused : `${paused.length} schedules paused`;
  return reply(INTENTS.pause, { message, count: paused.length });
}

async function resume(scope: Scope, formData: FormData) {
  const raw = formData.getAll("ids");
  const ids = v.safeParse(ScheduleIdsSchema, raw);
  if (!ids.success) return reply(INTENTS.resume, { status: 400, message: selectionMessage(raw, "schedule") });
  const { resumed, refused } = await resumeSchedules(scope, ids.output);
  const [firstRefusal] = refused;
  if (resumed.length === 0 && firstRefusal) {
    return reply(INTENTS.resume, {
      status: 409,
      message: resumeRefusalMessage(firstRefusal.debtorName, firstRefusal.reason),
    });
  }
  if (resumed.length === 0) {
    return reply(INTENTS.resume, {
      status: 404,
      message: "None of the selected schedules can be resumed (only paused ones can).",
    });
  }
  const done = resumed.length === 1 ? SCHEDULE_MESSAGES.resumed : `${resumed.length} schedules resumed`;
  const message = firstRefusal
    ? `${done}. ${resumeRefusalMessage(firstRefusal.debtorName, firstRefusal.reason)}`
    : done;
  return reply(INTENTS.resume, { message, count: resumed.length });
}

/**
 * Why the sending limits refuse a manual send to `debtorIds` (one per reminder), or null. The
 * engine enforces the account and address limits again when it claims each occurrence.
 */
async function limitRefusal(scope: Scope, db: Db, debtorIds: readonly number[], firing: readonly string[] = []) {
  const load = await manualSendLoad(db, scope.ownerId, debtorIds, scope.now, firing);
  return manualSendRefusal(load, sendingLimits(scope.plan), scope.now, scope.timeZone, scope.locale);
}
