import { formatMoney } from "~/domain/money";
import { PAID_CLAIM_INTENTS } from "~/entities/intents";
import { SOMETHING_WRONG } from "~/entities/messages";
import { reply } from "~/lib/action-result.server";
import { confirmPaidClaim, resumeAfterClaim } from "~/lib/paid-claim.server";
import { followAlarms } from "~/reminders/lifecycle.server";
import { type ExtraIntents, formId, type IntentScope } from "./owned-record-action.server";

export const CLAIM_GONE = "This was already answered: the payment was confirmed or the reminders resumed.";

async function confirm({ scope, formData }: IntentScope) {
  const intent = PAID_CLAIM_INTENTS.confirm;
  const debtorId = formId(formData, "debtor_id");
  if (debtorId === null) return reply(intent, { status: 404, message: SOMETHING_WRONG });
  const out = await confirmPaidClaim(scope.db, scope.ownerId, debtorId, scope.today, scope.now);
  if ("error" in out) {
    if (out.error === "not-found") return reply(intent, { status: 404, message: SOMETHING_WRONG });
    if (out.error === "no-claim") return reply(intent, { status: 409, message: CLAIM_GONE });
    // The balance changed meanwhile (another payment) or the debtor has too many payments.
    return reply(intent, {
      status: 409,
      message: "The payment could not be recorded. Please check the debtor's payments and try again.",
    });
  }
  await followAlarms(scope.env, { disarm: out.completedScheduleIds }, scope.now);
  return reply(intent, {
    message:
      out.paidCents > 0
        ? `Payment of ${formatMoney(out.paidCents, out.currency)} recorded. The debt is paid in full: reminders to this debtor have stopped.`
        : "Payment confirmed. Nothing was owed any more.",
  });
}

async function resume({ scope, formData }: IntentScope) {
  const intent = PAID_CLAIM_INTENTS.resume;
  const debtorId = formId(formData, "debtor_id");
  if (debtorId === null) return reply(intent, { status: 404, message: SOMETHING_WRONG });
  const out = await resumeAfterClaim(scope, debtorId);
  if ("error" in out) {
    if (out.error === "not-found") return reply(intent, { status: 404, message: SOMETHING_WRONG });
    return reply(intent, { status: 409, message: CLAIM_GONE });
  }
  const n = out.resumed.length;
  const resumed =
    n === 0
      ? "No paused reminders to resume."
      : n === 1
        ? "Reminders resumed: 1 schedule runs again."
        : `Reminders resumed: ${n} schedules run again.`;
  const kept = out.refused.length;
  const message =
    kept === 0
      ? resumed
      : `${resumed} ${kept === 1 ? "1 schedule stays" : `${kept} schedules stay`} paused: see the schedules list.`;
  return reply(intent, { message, count: n });
}

/**
 * The dashboard's answers to a debtor's "I've paid" (docs/architecture.md §10), on the debtor
 * pages' action (app/routes/debtor-action.server.ts): confirm the payment (a payment of what is
 * still owed, dated the user's today) or resume the reminders the claim paused. Both post
 * `debtor_id`; another user's debtor answers 404 and nothing changes.
 */
export const paidClaimIntents: ExtraIntents = {
  [PAID_CLAIM_INTENTS.confirm]: confirm,
  [PAID_CLAIM_INTENTS.resume]: resume,
};
