import type { Submission } from "@conform-to/react";
import { parseWithValibot } from "@conform-to/valibot";
import { getDebtorOption } from "~/debtors/index.server";
import { FieldsRefused } from "~/domain/refused";
import type { InvoiceWrite } from "~/ledger/index.server";
import { invoiceEntity } from "~/ledger/index.server";
import { reply } from "~/platform/action-result.server";
import type { EntityScope } from "~/platform/scope.server";
import { debtorSchema } from "~/schemas/debtor";
import { DEBTOR_INTENTS } from "~/schemas/intents";
import type { InvoiceInput } from "~/schemas/invoice";
import { DEBTOR_MESSAGES, invoiceAddedToMessage, PAYMENT_MESSAGES } from "~/schemas/messages";
import { type ExtraIntents, formId, type IntentScope, writeFailed } from "./owned-record-action.server";

const { intents, messages } = invoiceEntity;

/** What the user is told after an invoice write: `done`, then what the balance means for their reminders. */
function outcomeMessage(done: string, { debtor, completedScheduleIds }: InvoiceWrite) {
  if (completedScheduleIds.length > 0) return `${done} ${messages.remindersStopped}`;
  if (debtor.paidCents < debtor.debtCents && debtor.resumable > 0) return `${done} ${PAYMENT_MESSAGES.stayStopped}`;
  return done;
}

/**
 * Runs an invoice write for a parsed form: 404 when the record is not the owner's, 400 with the
 * field errors of a rule only the server checks (FieldsRefused, renamed to the form's fields by
 * `field`), 500 "Something went wrong" for a database failure; what the user typed is kept on
 * every refusal.
 */
async function answer(
  intent: string,
  submission: Submission<unknown>,
  write: () => Promise<InvoiceWrite | undefined>,
  { done, notFound, field = (name) => name }: { done: string; notFound: string; field?: (name: string) => string },
) {
  let written: InvoiceWrite | undefined;
  try {
    written = await write();
  } catch (error) {
    if (error instanceof FieldsRefused) {
      const fieldErrors = Object.fromEntries(Object.entries(error.fieldErrors).map(([k, v]) => [field(k), v]));
      return reply(intent, { status: 400, result: submission.reply({ fieldErrors }) });
    }
    return writeFailed(intent, invoiceEntity.noun, error, submission.reply());
  }
  if (!written) return reply(intent, { status: 404, message: notFound, result: submission.reply() });
  return reply(intent, { message: outcomeMessage(done, written), result: submission.reply({ resetForm: true }) });
}

const parse = (scope: EntityScope, formData: FormData) =>
  parseWithValibot(formData, { schema: invoiceEntity.schemas.form(scope) });

/** invoice-add: an invoice of the owner's debtor `debtor_id`. */
async function add({ scope, formData }: IntentScope) {
  const intent = intents.add;
  const submission = parse(scope, formData);
  if (submission.status !== "success") return reply(intent, { status: 400, result: submission.reply() });
  const debtorId = formId(formData, "debtor_id");
  return answer(
    intent,
    submission,
    async () => (debtorId === null ? undefined : invoiceEntity.add(scope, debtorId, submission.value)),
    { done: messages.added, notFound: DEBTOR_MESSAGES.notFound },
  );
}

/** invoice-edit: the owner's invoice `id` (not a void one) gets new values. */
async function edit({ scope, formData }: IntentScope) {
  const intent = intents.edit;
  const submission = parse(scope, formData);
  if (submission.status !== "success") return reply(intent, { status: 400, result: submission.reply() });
  const id = formId(formData);
  return answer(
    intent,
    submission,
    async () => (id === null ? undefined : invoiceEntity.edit(scope, id, submission.value)),
    { done: messages.updated, notFound: messages.notFound },
  );
}

/** invoice-void: the owner's invoice `id` is owed no more; refused, with why, while payments are on it. */
async function voidInvoice({ scope, formData }: IntentScope) {
  const intent = intents.void;
  const id = formId(formData);
  let written: InvoiceWrite | undefined;
  try {
    written = id === null ? undefined : await invoiceEntity.void(scope, id);
  } catch (error) {
    if (error instanceof FieldsRefused) {
      // The confirmation has no field to put it on: the reason is the answer's message.
      return reply(intent, { status: 400, message: Object.values(error.fieldErrors).flat().join(" ") });
    }
    return writeFailed(intent, invoiceEntity.noun, error);
  }
  if (!written) return reply(intent, { status: 404, message: messages.notFound });
  return reply(intent, { message: outcomeMessage(messages.voided, written) });
}

/** invoice-chase: the owner's invoice `id` is left out of reminders (`chased` "0") or chased again ("1"). */
async function chase({ scope, formData }: IntentScope) {
  const intent = intents.chase;
  const id = formId(formData);
  const chased = formData.get("chased") === "1";
  let written: InvoiceWrite | undefined;
  try {
    written = id === null ? undefined : await invoiceEntity.chase(scope, id, chased);
  } catch (error) {
    return writeFailed(intent, invoiceEntity.noun, error);
  }
  if (!written) return reply(intent, { status: 404, message: messages.notFound });
  return reply(intent, { message: chased ? messages.chased : messages.notChased });
}

/** The debtor form's names of the invoice's fields (the debt is the invoice's amount). */
const DEBTOR_FORM_FIELD: Record<string, string> = { amount: "debt", number: "invoice_number" };

/**
 * debtor-add-invoice ("Add this invoice to <name>"): the add-debtor form, answered that one of the
 * user's debtors already has its e-mail, adds its debt, currency, invoice number and due date as an
 * invoice of that debtor (`debtor_id`, the owner's) instead of a twin debtor. Validated with the
 * debtor form's schema, so the form shows its errors on its own fields.
 */
async function addToExisting({ scope, formData }: IntentScope) {
  const intent = DEBTOR_INTENTS.addInvoice;
  const submission = parseWithValibot(formData, { schema: debtorSchema(scope.locale) });
  if (submission.status !== "success") return reply(intent, { status: 400, result: submission.reply() });
  const debtorId = formId(formData, "debtor_id");
  const [existing] = debtorId === null ? [] : await getDebtorOption(scope.db, scope.ownerId, debtorId);
  const input: InvoiceInput = {
    number: submission.value.invoice_number,
    amount: submission.value.debt,
    currency: submission.value.currency,
    issued_on: submission.value.issued_on,
    due_on: submission.value.due_on,
  };
  return answer(
    intent,
    submission,
    async () => (debtorId === null || !existing ? undefined : invoiceEntity.add(scope, debtorId, input)),
    {
      done: invoiceAddedToMessage(existing?.fullName ?? ""),
      notFound: DEBTOR_MESSAGES.notFound,
      field: (name) => DEBTOR_FORM_FIELD[name] ?? name,
    },
  );
}

/**
 * Invoice intents on the debtor pages and the debtor's modal: each
 * parses its form with the invoice's schema and calls the invoice's operation
 * (app/ledger/invoice-entity.server.ts, the same the JSON API calls), and answers its refusals as the
 * API does: 404 for a record that is not the owner's, 400 with the same field errors.
 */
export const invoiceIntents: ExtraIntents = {
  [intents.add]: add,
  [intents.edit]: edit,
  [intents.void]: voidInvoice,
  [intents.chase]: chase,
  [DEBTOR_INTENTS.addInvoice]: addToExisting,
};
