import * as v from "valibot";
import { reply } from "~/platform/action-result.server";
import { replanDueSchedules } from "~/reminders/index.server";
import { allowNewPromise, handleReply, resolveDispute } from "~/responses/index.server";
import { FormIdSchema } from "~/schemas/ids";
import { DEBTOR_RESPONSE_INTENTS } from "~/schemas/intents";
import { remindersResumedMessage, SOMETHING_WRONG } from "~/schemas/messages";
import { type ExtraIntents, formId, type IntentScope } from "./owned-record-action.server";

export const DISPUTE_GONE = "This dispute was already answered.";
export const PROMISE_CONSENT_GONE = "There is no broken promise to answer.";
export const PROMISE_ALLOWED = "Done: the debtor may promise a new date from their page.";

/** Appended to an answer that resumed `n` schedules: nothing when none. */
function resumedNote(n: number) {
  return n === 0 ? "" : ` ${remindersResumedMessage(n)}`;
}

/** "Resolve dispute" on a debtor's disputed invoice: `invoice_id` (the user's own; another user's is 404). */
async function resolve({ scope, formData }: IntentScope) {
  const intent = DEBTOR_RESPONSE_INTENTS.resolveDispute;
  const id = v.safeParse(FormIdSchema, formData.get("invoice_id"));
  if (!id.success) return reply(intent, { status: 404, message: SOMETHING_WRONG });
  const out = await resolveDispute(scope, id.output);
  if ("error" in out) {
    if (out.error === "not-found") return reply(intent, { status: 404, message: SOMETHING_WRONG });
    return reply(intent, { status: 409, message: DISPUTE_GONE });
  }
  // The invoice is open again: its steps join the debtor's due-date schedules.
  await replanDueSchedules(scope, [out.debtorId]);
  const n = out.resumed.resumed.length;
  return reply(intent, { message: `Dispute of ${out.invoice} resolved.${resumedNote(n)}`, count: n });
}

/** "Allow a new promise" after the debtor's broken one: `debtor_id`. */
async function allowPromise({ scope, formData }: IntentScope) {
  const intent = DEBTOR_RESPONSE_INTENTS.allowPromise;
  const debtorId = formId(formData, "debtor_id");
  if (debtorId === null) return reply(intent, { status: 404, message: SOMETHING_WRONG });
  const out = await allowNewPromise(scope.db, scope.ownerId, debtorId, scope.now);
  if ("error" in out) {
    if (out.error === "not-found") return reply(intent, { status: 404, message: SOMETHING_WRONG });
    return reply(intent, { status: 409, message: PROMISE_CONSENT_GONE });
  }
  return reply(intent, { message: PROMISE_ALLOWED });
}

export const REPLY_GONE = "This reply was already handled.";

/** "Resume" or "Mark handled" on a debtor's e-mail reply (decisions/020): `reply_id`, the user's own. */
function answerReply(how: "resume" | "handled") {
  return async ({ scope, formData }: IntentScope) => {
    const intent = how === "resume" ? DEBTOR_RESPONSE_INTENTS.replyResume : DEBTOR_RESPONSE_INTENTS.replyHandled;
    const id = v.safeParse(FormIdSchema, formData.get("reply_id"));
    if (!id.success) return reply(intent, { status: 404, message: SOMETHING_WRONG });
    const out = await handleReply(scope, id.output, how);
    if ("error" in out) {
      if (out.error === "not-found") return reply(intent, { status: 404, message: SOMETHING_WRONG });
      return reply(intent, { status: 409, message: REPLY_GONE });
    }
    const n = out.resumed.resumed.length;
    return reply(intent, { message: `Reply handled.${resumedNote(n)}`, count: n });
  };
}

/**
 * The user's answers to what a debtor said on their page, on the debtor pages' action (app/actions/debtor-action.server.ts: the dashboard, the
 * debtors list, the debtor's timeline): resolve a dispute, or allow a new promise after a broken
 * one. Ids are only a request: another user's answers 404 and nothing changes.
 */
export const debtorResponseIntents: ExtraIntents = {
  [DEBTOR_RESPONSE_INTENTS.resolveDispute]: resolve,
  [DEBTOR_RESPONSE_INTENTS.allowPromise]: allowPromise,
  [DEBTOR_RESPONSE_INTENTS.replyResume]: answerReply("resume"),
  [DEBTOR_RESPONSE_INTENTS.replyHandled]: answerReply("handled"),
};
