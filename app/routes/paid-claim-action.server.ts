import * as v from "valibot";
import { formatMoney } from "~/domain/money";
import { reply, SOMETHING_WRONG } from "~/lib/action-result.server";
import { confirmPaidClaim, resumeAfterClaim } from "~/lib/paid-claim.server";
import { followAlarms } from "~/reminders/lifecycle.server";
import { FormIdSchema } from "~/schemas/ids";
import type { ExtraIntents, IntentScope } from "./owned-record-action.server";
import { paymentLimitsFor } from "./payment-action.server";

/**
 * The dashboard's answers to a debtor's "I've paid" (issue 11, item 2): confirm the payment (a
 * payment of what is still owed, dated the user's today) or resume the reminders the claim paused.
 * Both post `debtor_id`; another user's debtor answers 404 and nothing changes.
 */
export const PAID_CLAIM_INTENTS = { confirm: "paid-claim-confirm", resume: "paid-claim-resume" } as const;

export const CLAIM_GONE = "This was already answered: the payment was confirmed or the reminders resumed.";

const debtorIdOf = (formData: FormData) => {
  const id = v.safeParse(FormIdSchema, formData.get("debtor_id"));
  return id.success ? id.output : null;
};

async function confirm({ app, db, user, formData, request }: IntentScope) {
  const intent = PAID_CLAIM_INTENTS.confirm;
  const debtorId = debtorIdOf(formData);
  if (debtorId === null) return reply(intent, { status: 404, message: SOMETHING_WRONG });
  const out = await confirmPaidClaim(db, user.id, debtorId, paymentLimitsFor(request).today);
  if ("error" in out) {
    if (out.error === "not-found") return reply(intent, { status: 404, message: SOMETHING_WRONG });
    if (out.error === "no-claim") return reply(intent, { status: 409, message: CLAIM_GONE });
    // The balance changed meanwhile (another payment) or the debtor has too many payments.
    return reply(intent, {
      status: 409,
      message: "The payment could not be recorded. Please check the debtor's payments and try again.",
    });
  }
  await followAlarms(app.env, { disarm: out.completedScheduleIds });
  return reply(intent, {
    message:
      out.paidCents > 0
        ? `Payment of ${formatMoney(out.paidCents, out.currency)} recorded. The debt is paid in full: reminders to this debtor have stopped.`
        : "Payment confirmed. Nothing was owed any more.",
  });
}

async function resume({ app, db, user, formData }: IntentScope) {
  const intent = PAID_CLAIM_INTENTS.resume;
  const debtorId = debtorIdOf(formData);
  if (debtorId === null) return reply(intent, { status: 404, message: SOMETHING_WRONG });
  const out = await resumeAfterClaim({ env: app.env, db, ownerId: user.id, now: Date.now() }, debtorId);
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

/** The "I've paid" answers on the debtor pages' action (app/routes/debtor-action.server.ts). */
export const paidClaimIntents: ExtraIntents = {
  [PAID_CLAIM_INTENTS.confirm]: confirm,
  [PAID_CLAIM_INTENTS.resume]: resume,
};
