import { parseWithValibot } from "@conform-to/valibot";
import * as v from "valibot";
import { readCookie } from "~/auth/session.server";
import { chunk } from "~/db/chunk";
import { AccountCapReached } from "~/domain/account-caps";
import { reply, SOMETHING_WRONG } from "~/lib/action-result.server";
import { armSchedule, disarmSchedule } from "~/lib/alarms.server";
import { accountCaps } from "~/lib/config.server";
import { recordDebtorEvent } from "~/models/debtor-event.server";
import {
  addPayment,
  deletePayment,
  editPayment,
  MAX_PAYMENTS_PER_DEBTOR,
  type PaymentWrite,
  type PaymentWriteError,
  resumeDebtorSchedules,
} from "~/models/payment.server";
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
/** Alarms are set or deleted this many at a time (one Durable Object call each). */
const ALARMS_AT_ONCE = 50;

export const TOO_MANY_PAYMENTS = `This debtor already has ${MAX_PAYMENTS_PER_DEBTOR.toLocaleString("en-US")} payments, the most one debtor can have.`;

/** The payment date may be at most the user's today: in their browser's zone (the tz cookie). */
export function paymentLimitsFor(request: Request, now = Date.now()) {
  return { today: paymentToday(readCookie(request, "tz"), now) };
}

/** Deletes the alarms of schedules a payment completed. Failures are logged: the engine drops a completed schedule anyway. */
export async function disarmCompleted(env: Env, ids: readonly string[]) {
  for (const slice of chunk(ids, ALARMS_AT_ONCE)) {
    await Promise.all(
      slice.map((id) =>
        disarmSchedule(env, id).catch((error) =>
          console.error(`[dunly] could not disarm completed schedule ${id}; the engine will drop it`, error),
        ),
      ),
    );
  }
}

/** Arms resumed schedules. Failures are logged: the row is ENABLED and the watchdog re-arms it. */
export async function armResumed(env: Env, schedules: readonly { id: string; nextRunAt: number }[]) {
  for (const slice of chunk(schedules, ALARMS_AT_ONCE)) {
    await Promise.all(
      slice.map((s) =>
        armSchedule(env, s.id, s.nextRunAt).catch((error) =>
          console.error(`[dunly] could not arm resumed schedule ${s.id}; the watchdog will`, error),
        ),
      ),
    );
  }
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
  await disarmCompleted(app.env, written.completedScheduleIds);
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
  let outcome: Awaited<ReturnType<typeof resumeDebtorSchedules>>;
  try {
    outcome = await resumeDebtorSchedules(db, user.id, debtorId, { max: accountCaps(app.config).schedules });
  } catch (error) {
    if (!(error instanceof AccountCapReached)) throw error;
    return reply(intent, { status: 403, message: error.message });
  }
  if ("error" in outcome) return reply(intent, { status: 404, message: SOMETHING_WRONG });
  if (outcome.resumed.length === 0) {
    return reply(intent, { status: 409, message: "There are no stopped reminders to resume.", count: 0 });
  }
  await armResumed(app.env, outcome.resumed);
  const n = outcome.resumed.length;
  await recordDebtorEvent(db, {
    ownerId: user.id,
    debtorId,
    type: "reminders_resumed",
    detail: n === 1 ? "1 schedule" : `${n} schedules`,
  });
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
