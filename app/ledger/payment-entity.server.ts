import {
  addPayment,
  balanceToJson,
  deletePayment,
  editPayment,
  type PaymentWrite,
  type PaymentWriteError,
  paymentToJson,
} from "~/ledger/payments.server";
import type { EntityScope } from "~/platform/scope.server";
import { handleRepliesOf, replanDueSchedules } from "~/reminders/index.server";
import { PAYMENT_INTENTS } from "~/schemas/intents";
import { booksMessage, PAYMENT_MESSAGES } from "~/schemas/messages";
import { overOwedMessage, type PaymentInput, paymentJsonSchema, paymentSchema } from "~/schemas/payment";

/** Why an add or edit of a debtor's payment that exists was refused. */
export type PaymentRefusal = Exclude<PaymentWriteError, { error: "not-found" }>;

/** A refusal as a form's or a body's errors: the whole write (too many payments), or the amount (more than is owed). */
function refusalErrors(refused: PaymentRefusal): { formErrors?: string[]; fieldErrors?: Record<string, string[]> } {
  if (refused.error === "too-many") return { formErrors: [PAYMENT_MESSAGES.tooMany] };
  if (refused.error === "invoice-not-found") return { fieldErrors: { invoice_id: [PAYMENT_MESSAGES.invoiceNotFound] } };
  return { fieldErrors: { amount: [overOwedMessage(refused.maxCents, refused.currency)] } };
}

/**
 * After a committed write (whose batch completed the schedules of a debtor paid in full):
 * due-date schedules follow the invoices left open (a paid invoice's steps go, a reopened one's return).
 */
async function followed<T extends PaymentWrite | PaymentWriteError>(scope: EntityScope, written: T): Promise<T> {
  if ("error" in written) return written;
  await replanDueSchedules(scope, [written.payment.debtorId]);
  return written;
}

/** What the user is told after a payment write: `done`, then what the balance means for their reminders. */
function outcomeMessage(done: string, { debtor, completedScheduleIds, books }: PaymentWrite) {
  const inBooks = booksMessage(books);
  if (debtor.paidCents >= debtor.debtCents) {
    return `${done} ${completedScheduleIds.length > 0 ? PAYMENT_MESSAGES.remindersStopped : PAYMENT_MESSAGES.paidInFull}${inBooks}`;
  }
  return debtor.resumable > 0 ? `${done} ${PAYMENT_MESSAGES.stayStopped}${inBooks}` : `${done}${inBooks}`;
}

/**
 * Payments: the debtor modal's payment-add / -edit / -delete and
 * POST /api/payments/add, PUT /api/payments/edit, DELETE /api/payments/del. Each operation is the
 * payment write (one batch with the debtor's balance and, paid in full, their schedules completed
 * through the lifecycle's statement) and then the completed schedules' alarms disarmed.
 */
export const paymentEntity = {
  noun: "payment",
  intents: PAYMENT_INTENTS,
  messages: PAYMENT_MESSAGES,
  /** The date may be at most the caller's today (`scope.today`); the browser adds the balance. */
  schemas: {
    form: (scope: Pick<EntityScope, "today" | "locale">) => paymentSchema({ today: scope.today, locale: scope.locale }),
    json: (scope: Pick<EntityScope, "today">) => paymentJsonSchema({ today: scope.today }),
  },
  /** A payment of the owner's debtor `debtorId`: at most what is owed, at most MAX_PAYMENTS_PER_DEBTOR of them. */
  add: async (scope: EntityScope, debtorId: number, input: PaymentInput) => {
    const written = await followed(scope, await addPayment(scope, scope.ownerId, debtorId, input, scope.now));
    // "Record a payment" answers the debtor's e-mail replies (decisions/020): they are handled.
    if (!("error" in written)) await handleRepliesOf(scope, debtorId, "paid");
    return written;
  },
  /** The owner's payment `id` gets a new amount (at most what is owed plus its own), date and note. */
  edit: async (scope: EntityScope, id: number, input: PaymentInput) =>
    followed(scope, await editPayment(scope, scope.ownerId, id, input, scope.now)),
  /** Deletes the owner's payment `id`; the debt may be owed again, but no schedule restarts by itself. */
  remove: async (scope: EntityScope, id: number) =>
    followed(scope, await deletePayment(scope, scope.ownerId, id, scope.now)),
  refusalErrors,
  outcomeMessage,
  /** The write as the API answers it: the payment, and the debtor's balance after it. */
  toJson: (write: PaymentWrite) => ({
    data: paymentToJson(write.payment),
    debtor: balanceToJson(write.debtor),
    // A new payment on synced invoices: whether Dunly writes it to the accounting tool (decisions/063).
    ...(write.books ? { accounting: { provider: write.books.provider, written_back: write.books.written } } : {}),
  }),
} as const;
