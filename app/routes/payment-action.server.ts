import { parseWithValibot } from "@conform-to/valibot";
import * as v from "valibot";
import { readCookie } from "~/auth/session.server";
import { AccountCapReached } from "~/domain/account-caps";
import { reply, SOMETHING_WRONG } from "~/lib/action-result.server";
import { accountCaps } from "~/lib/config.server";
import {
  addPayment,
  deletePayment,
  editPayment,
  MAX_PAYMENTS_PER_DEBTOR,
  type PaymentWrite,
  type PaymentWriteError,
} from "~/models/payment.server";
import { followAlarms, resumeStoppedSchedules } from "~/reminders/lifecycle.server";
import { FormIdSchema } from "~/schemas/ids";
import { overOwedMessage, type PaymentInput, paymentSchema, paymentToday } from "~/schemas/payment";
import type { ExtraIntents, IntentScope } from "./owned-record-action.server";

export const PAYMENT_INTENTS = {
  add: "payment-add",
  edit: "payment-edit",
  remove: "payment-delete",
  resume: "debtor-resume",
} as const;

const STAY_STOPPED = "Reminders stay stopped until you resume them.";

export const TOO_MANY_PAYMENTS = `This debtor already has ${MAX_PAYMENTS_PER_DEBTOR.toLocaleString("en-US")} payments, the most one debtor can have.`;

/** The payment date may be at most the user's today: in their browser's zone (the tz cookie). */
export function paymentLimitsFor(request: Request, now = Date.now()) {
  return { today: paymentToday(readCookie(request, "tz"), now) };
}

/** What the user is told after a payment write: the balance's consequence for their reminders. */
export function paymentMessage(done: string, write: PaymentWrite) {
  const { debtor, completedScheduleIds } = write;
  if (debtor.paidCents >= debtor.debtCents) {
    return completedScheduleIds.length > 0
      ? `${done} The debt is paid in full: reminders to this debtor have stopped.`
      : `${done} The debt is paid in full.`;
  }
  return debtor.resumable > 0 ? `${done} ${STAY_STOPPED}` : done;
}

/** The field or form error of a refused add or edit. */
function refusalErrors(refused: Exclude<PaymentWriteError, { error: "not-found" }>) {
  if (refused.error === "too-many") return { formErrors: [TOO_MANY_PAYMENTS] };
  return { fieldErrors: { amount: [overOwedMessage(refused.maxCents, refused.currency)] } };
}

const idOf = (formData: FormData, field: "id" | "debtor_id") => {
  const id = v.safeParse(FormIdSchema, formData.get(field));
  return id.success ? id.output : null;
};

/**
 * payment-add and payment-edit: the form parsed with the payment schema, the row named by
 * `idField` (the debtor for an add, the payment for an edit) written by `write`, the alarms of
 * schedules it completed disarmed.
 */
async function savePayment(
  { app, formData, request }: IntentScope,
  intent: string,
  idField: "id" | "debtor_id",
  write: (id: number, input: PaymentInput) => ReturnType<typeof addPayment>,
  done: string,
) {
  const submission = parseWithValibot(formData, { schema: paymentSchema(paymentLimitsFor(request)) });
  if (submission.status !== "success") return reply(intent, { status: 400, result: submission.reply() });
  const id = idOf(formData, idField);
  const written = id === null ? ({ error: "not-found" } as const) : await write(id, submission.value);
  if ("error" in written) {
    if (written.error === "not-found") {
      return reply(intent, { status: 404, message: SOMETHING_WRONG, result: submission.reply() });
    }
    return reply(intent, { status: 400, result: submission.reply(refusalErrors(written)) });
  }
  await followAlarms(app.env, { disarm: written.completedScheduleIds });
  return reply(intent, { message: paymentMessage(done, written), result: submission.reply({ resetForm: true }) });
}

/** payment-add: a payment of the owner's debtor `debtor_id`. */
const add = (scope: IntentScope) =>
  savePayment(
    scope,
    PAYMENT_INTENTS.add,
    "debtor_id",
    (debtorId, input) => addPayment(scope.db, scope.user.id, debtorId, input),
    "Payment recorded.",
  );

/** payment-edit: the owner's payment `id` gets a new amount, date and note. */
const edit = (scope: IntentScope) =>
  savePayment(
    scope,
    PAYMENT_INTENTS.edit,
    "id",
    (id, input) => editPayment(scope.db, scope.user.id, id, input),
    "Payment updated.",
  );

/** payment-delete: the owner's payment `id` is deleted; reminders stay stopped until resumed. */
async function remove({ db, user, formData }: IntentScope) {
  const intent = PAYMENT_INTENTS.remove;
  const id = idOf(formData, "id");
  const deleted = id === null ? ({ error: "not-found" } as const) : await deletePayment(db, user.id, id);
  if ("error" in deleted) return reply(intent, { status: 404, message: SOMETHING_WRONG });
  return reply(intent, { message: paymentMessage("Payment deleted.", deleted) });
}

/** debtor-resume: the schedules Dunly stopped for the owner's debtor `debtor_id` run again. */
async function resume({ db, app, user, formData }: IntentScope) {
  const intent = PAYMENT_INTENTS.resume;
  const debtorId = idOf(formData, "debtor_id");
  if (debtorId === null) return reply(intent, { status: 404, message: SOMETHING_WRONG });
  let outcome: Awaited<ReturnType<typeof resumeStoppedSchedules>>;
  try {
    const scope = { env: app.env, db, ownerId: user.id, now: Date.now() };
    outcome = await resumeStoppedSchedules(scope, debtorId, { max: accountCaps(app.config).schedules });
  } catch (error) {
    if (!(error instanceof AccountCapReached)) throw error;
    return reply(intent, { status: 403, message: error.message });
  }
  if ("error" in outcome) return reply(intent, { status: 404, message: SOMETHING_WRONG });
  if (outcome.resumed.length === 0) {
    return reply(intent, { status: 409, message: "There are no stopped reminders to resume.", count: 0 });
  }
  const n = outcome.resumed.length;
  return reply(intent, {
    message: n === 1 ? "Reminders resumed: 1 schedule runs again." : `Reminders resumed: ${n} schedules run again.`,
    count: n,
  });
}

/** Payment intents on the debtor pages (issue 10, item 1): add, edit, delete, and resuming reminders. */
export const paymentIntents: ExtraIntents = {
  [PAYMENT_INTENTS.add]: add,
  [PAYMENT_INTENTS.edit]: edit,
  [PAYMENT_INTENTS.remove]: remove,
  [PAYMENT_INTENTS.resume]: resume,
};
