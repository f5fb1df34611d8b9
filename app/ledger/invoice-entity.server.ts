import {
  addInvoice,
  editInvoice,
  type InvoiceWrite,
  invoiceToJson,
  setInvoiceChased,
  voidInvoice,
} from "~/ledger/invoices.server";
import { balanceToJson } from "~/ledger/payments.server";
import type { EntityScope } from "~/platform/scope.server";
import { joinAutopilot, releaseDisputeHolds, replanDueSchedules } from "~/reminders/index.server";
import { INVOICE_INTENTS } from "~/schemas/intents";
import { type InvoiceInput, InvoiceJsonSchema, invoiceSchema } from "~/schemas/invoice";
import { INVOICE_MESSAGES } from "~/schemas/messages";

/**
 * After a committed write (whose batch completed the schedules of a debtor who owes nothing any more):
 * reminders a dispute held run again when an open invoice now exists (a new invoice, or the
 * disputed one voided beside open ones), and due-date schedules follow the invoices as they are now.
 */
async function followed(scope: EntityScope, written: InvoiceWrite | undefined) {
  if (!written) return written;
  await releaseDisputeHolds(scope, written.invoice.debtorId);
  await replanDueSchedules(scope, [written.invoice.debtorId]);
  // Autopilot on: a debtor whose first open invoice this is follows the account's cadence.
  await joinAutopilot(scope, [written.invoice.debtorId], { max: scope.caps.schedules });
  return written;
}

/**
 * Invoices: the debtor modal's and page's invoice-add / -edit /
 * -void and POST /api/invoices/add, PUT /api/invoices/edit, PUT /api/invoices/void. Each operation
 * is the invoice write (one batch with the ledger settled and, nothing owed any more, the debtor's
 * schedules completed through the lifecycle, which disarms their alarms). A rule only the server can check (an amount below what was paid, a number already
 * used) throws FieldsRefused; undefined: not the owner's.
 */
export const invoiceEntity = {
  noun: "invoice",
  intents: INVOICE_INTENTS,
  messages: INVOICE_MESSAGES,
  schemas: { form: (scope: Pick<EntityScope, "locale">) => invoiceSchema(scope.locale), json: InvoiceJsonSchema },
  add: async (scope: EntityScope, debtorId: number, input: InvoiceInput) =>
    followed(scope, await addInvoice(scope, scope.ownerId, debtorId, input, scope)),
  edit: async (scope: EntityScope, id: number, input: InvoiceInput) =>
    followed(scope, await editInvoice(scope, scope.ownerId, id, input, scope.now)),
  void: async (scope: EntityScope, id: number) =>
    followed(scope, await voidInvoice(scope, scope.ownerId, id, scope.now)),
  /** "Don't chase this one" / "Chase again": reminders and the cadence leave it out, or take it back. */
  chase: async (scope: EntityScope, id: number, chased: boolean) =>
    followed(scope, await setInvoiceChased(scope, scope.ownerId, id, chased, scope.now)),
  /** The write as the API answers it: the invoice, and the debtor's balance after it. */
  toJson: (write: InvoiceWrite) => ({ data: invoiceToJson(write.invoice), debtor: balanceToJson(write.debtor) }),
} as const;
