import { parseWithValibot } from "@conform-to/valibot";
import { writeBackAfter } from "~/accounting/index.server";
import { AccountCapReached } from "~/domain/account-caps";
import type { PaymentWrite, PaymentWriteError } from "~/ledger/index.server";
import { paymentEntity } from "~/ledger/index.server";
import { reply } from "~/platform/action-result.server";
import { resumeStoppedSchedules } from "~/reminders/index.server";
import { DEBTOR_INTENTS } from "~/schemas/intents";
import { remindersResumedMessage, SOMETHING_WRONG } from "~/schemas/messages";
import type { PaymentInput } from "~/schemas/payment";
import { type ExtraIntents, formId, type IntentScope, writeFailed } from "./owned-record-action.server";

const { intents, messages } = paymentEntity;

/**
 * payment-add and payment-edit: the form parsed with the payment schema, then the payment's
 * operation (app/ledger/payment-entity.server.ts, the same the JSON API calls) on the row named by
 * `idField` (the debtor for an add, the payment for an edit). Its refusals answer as the API's do:
 * 404 for a record that is not the owner's, 400 with the same errors otherwise.
 */
async function savePayment(
  { scope, formData }: IntentScope,
  intent: string,
  idField: "id" | "debtor_id",
  write: (id: number, input: PaymentInput) => Promise<PaymentWrite | PaymentWriteError>,
  done: string,
) {
  const submission = parseWithValibot(formData, { schema: paymentEntity.schemas.form(scope) });
  if (submission.status !== "success") return reply(intent, { status: 400, result: submission.reply() });
  const id = formId(formData, idField);
  let written: PaymentWrite | PaymentWriteError;
  try {
    written = id === null ? { error: "not-found" } : await write(id, submission.value);
  } catch (error) {
    return writeFailed(intent, paymentEntity.noun, error, submission.reply());
  }
  if ("error" in written) {
    if (written.error === "not-found") {
      return reply(intent, { status: 404, message: SOMETHING_WRONG, result: submission.reply() });
    }
    return reply(intent, { status: 400, result: submission.reply(paymentEntity.refusalErrors(written)) });
  }
  return reply(intent, {
    message: paymentEntity.outcomeMessage(done, written),
    result: submission.reply({ resetForm: true }),
  });
}

/** payment-add: a payment of the owner's debtor `debtor_id`. */
const add = (s: IntentScope) =>
  savePayment(
    s,
    intents.add,
    "debtor_id",
    async (id, input) => {
      const written = await paymentEntity.add(s.scope, id, input);
      // Queued for the books (decisions/063): written there after the answer.
      if (!("error" in written) && written.books?.written) writeBackAfter(s.app.ctx, s.app.env, s.scope.ownerId);
      return written;
    },
    messages.added,
  );

/** payment-edit: the owner's payment `id` gets a new amount, date and note. */
const edit = (s: IntentScope) =>
  savePayment(s, intents.edit, "id", (id, input) => paymentEntity.edit(s.scope, id, input), messages.updated);

/** payment-delete: the owner's payment `id` is deleted; reminders stay stopped until resumed. */
async function remove({ scope, formData }: IntentScope) {
  const intent = intents.remove;
  const id = formId(formData);
  let deleted: Awaited<ReturnType<typeof paymentEntity.remove>>;
  try {
    deleted = id === null ? { error: "not-found" } : await paymentEntity.remove(scope, id);
  } catch (error) {
    return writeFailed(intent, paymentEntity.noun, error);
  }
  if ("error" in deleted) return reply(intent, { status: 404, message: SOMETHING_WRONG });
  return reply(intent, { message: paymentEntity.outcomeMessage(messages.deleted, deleted) });
}

/** debtor-resume: the schedules Dunly stopped for the owner's debtor `debtor_id` run again. */
async function resume({ scope, formData }: IntentScope) {
  const intent = DEBTOR_INTENTS.resume;
  const debtorId = formId(formData, "debtor_id");
  if (debtorId === null) return reply(intent, { status: 404, message: SOMETHING_WRONG });
  let outcome: Awaited<ReturnType<typeof resumeStoppedSchedules>>;
  try {
    outcome = await resumeStoppedSchedules(scope, debtorId, { max: scope.caps.schedules });
  } catch (error) {
    if (!(error instanceof AccountCapReached)) throw error;
    return reply(intent, { status: 403, message: error.message });
  }
  if ("error" in outcome) return reply(intent, { status: 404, message: SOMETHING_WRONG });
  if (outcome.resumed.length === 0) {
    return reply(intent, { status: 409, message: "There are no stopped reminders to resume.", count: 0 });
  }
  const n = outcome.resumed.length;
  return reply(intent, { message: remindersResumedMessage(n), count: n });
}

/** Payment intents on the debtor pages: add, edit, delete, and resuming reminders. */
export const paymentIntents: ExtraIntents = {
  [intents.add]: add,
  [intents.edit]: edit,
  [intents.remove]: remove,
  [DEBTOR_INTENTS.resume]: resume,
};
