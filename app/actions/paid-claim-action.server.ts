import { parseWithValibot } from "@conform-to/valibot";
import { writeBackAfter } from "~/accounting/index.server";
import { formatMoney } from "~/domain/money";
import { paymentEntity } from "~/ledger/index.server";
import { reply } from "~/platform/action-result.server";
import {
  type ConfirmOutcome,
  confirmNothingOwed,
  confirmPaidClaim,
  pendingClaim,
  rejectClaim,
} from "~/responses/index.server";
import { PAID_CLAIM_INTENTS } from "~/schemas/intents";
import { booksMessage, PAYMENT_MESSAGES, remindersResumedMessage, SOMETHING_WRONG } from "~/schemas/messages";
import { type ExtraIntents, formId, type IntentScope, writeFailed } from "./owned-record-action.server";

export const CLAIM_GONE = "This was already answered: the payment was confirmed or marked as not received.";

/** What the user is told after "Confirm payment": the payment, then what happens to the reminders. */
function confirmedMessage(out: ConfirmOutcome) {
  if (out.paidCents === 0) return "Payment confirmed. Nothing was owed any more.";
  return `${paidMessage(out)}${booksMessage(out.books)}`;
}

function paidMessage(out: ConfirmOutcome) {
  const paid = `Payment of ${formatMoney(out.paidCents, out.currency)} recorded.`;
  if (out.owedCents === 0) {
    return `${paid} ${out.completedScheduleIds.length > 0 ? PAYMENT_MESSAGES.remindersStopped : PAYMENT_MESSAGES.paidInFull}`;
  }
  const owed = `${formatMoney(out.owedCents, out.currency)} is still owed`;
  if (out.resumed === 0) return `${paid} ${owed}.`;
  const runs = out.resumed === 1 ? "1 schedule runs again" : `${out.resumed} schedules run again`;
  const kept =
    out.refused === 0 ? "" : ` ${out.refused === 1 ? "1 schedule stays" : `${out.refused} schedules stay`} paused.`;
  return `${paid} ${owed}: reminders resumed, ${runs}.${kept}`;
}

/**
 * "Confirm payment": the payment form of the dashboard's dialog (paymentSchema, the same as the
 * debtor modal's "Add payment"), recorded with the claim cleared in one batch. A debtor who owes
 * nothing any more needs no amount: the claim is only cleared.
 */
async function confirm({ scope, app, formData }: IntentScope) {
  const intent = PAID_CLAIM_INTENTS.confirm;
  const debtorId = formId(formData, "debtor_id");
  if (debtorId === null) return reply(intent, { status: 404, message: SOMETHING_WRONG });
  const found = await pendingClaim(scope.db, scope.ownerId, debtorId);
  if ("error" in found) {
    if (found.error === "not-found") return reply(intent, { status: 404, message: SOMETHING_WRONG });
    return reply(intent, { status: 409, message: CLAIM_GONE });
  }
  // Something owed: the payment form, as the user typed it (field errors keep it, 400).
  const submission =
    found.owedCents > 0 ? parseWithValibot(formData, { schema: paymentEntity.schemas.form(scope) }) : undefined;
  if (submission && submission.status !== "success") return reply(intent, { status: 400, result: submission.reply() });
  let out: Awaited<ReturnType<typeof confirmPaidClaim>>;
  try {
    out =
      submission?.status === "success"
        ? await confirmPaidClaim(scope, debtorId, submission.value)
        : await confirmNothingOwed(scope.db, scope.ownerId, debtorId, found.currency, scope.now);
  } catch (error) {
    return writeFailed(intent, paymentEntity.noun, error, submission?.reply());
  }
  if ("error" in out) {
    if (out.error === "not-found") return reply(intent, { status: 404, message: SOMETHING_WRONG });
    if (out.error === "no-claim") return reply(intent, { status: 409, message: CLAIM_GONE });
    return reply(intent, { status: 400, result: submission?.reply(paymentEntity.refusalErrors(out)) });
  }
  if (out.books?.written) writeBackAfter(app.ctx, app.env, scope.ownerId);
  return reply(intent, { message: confirmedMessage(out), result: submission?.reply({ resetForm: true }) });
}

/**
 * "Not received": the claim is answered, its invoices and the reminders it held run again, and the
 * debtor is told politely (unless they opted out or bounce).
 */
async function reject({ scope, app, formData }: IntentScope) {
  const intent = PAID_CLAIM_INTENTS.resume;
  const debtorId = formId(formData, "debtor_id");
  if (debtorId === null) return reply(intent, { status: 404, message: SOMETHING_WRONG });
  const out = await rejectClaim(scope, app.config, debtorId);
  if ("error" in out) {
    if (out.error === "not-found") return reply(intent, { status: 404, message: SOMETHING_WRONG });
    return reply(intent, { status: 409, message: CLAIM_GONE });
  }
  const n = out.resumed.length;
  const told = out.told ? "The debtor was told by e-mail." : "No e-mail was sent: the debtor opted out or bounces.";
  const resumed = n === 0 ? "Reminders go on for what is open." : remindersResumedMessage(n);
  const kept = out.refused.length;
  const stays =
    kept === 0 ? "" : ` ${kept === 1 ? "1 schedule stays" : `${kept} schedules stay`} paused: see the schedules list.`;
  return reply(intent, { message: `Marked as not received. ${told} ${resumed}${stays}`, count: n });
}

/**
 * The dashboard's answers to a debtor's "I've paid", on the debtor
 * pages' action (app/actions/debtor-action.server.ts): confirm the payment (the payment form's
 * amount, date, note and "Apply to", as the user entered them, prefilled from the claim) or say it
 * was not received. Both post `debtor_id`; another user's debtor answers 404 and nothing changes.
 */
export const paidClaimIntents: ExtraIntents = {
  [PAID_CLAIM_INTENTS.confirm]: confirm,
  [PAID_CLAIM_INTENTS.resume]: reject,
};
