import { formatDate } from "~/domain/dates";
import { toCents } from "~/domain/money";
import type { invoiceToJson } from "~/ledger/index.server";

/** A debtor's invoices as their Invoices section and "Apply to" show them. */

/** An invoice as GET /api/debtors/:id/invoices lists it (and the debtor page's loader gives it). */
export type Invoice = ReturnType<typeof invoiceToJson>;

/** The invoices of a debtor as loaded: the list, a failure, or null while loading. */
export type InvoicesState = { invoices: Invoice[] } | { error: true } | null;

/** The debtor the section is about. */
export interface InvoiceDebtor {
  id: number;
  fullName: string;
  currency: string;
}

/** Still owed: open, or disputed (owed until the user resolves the dispute). */
export const isOwed = (i: Invoice) => i.status === "open" || i.status === "disputed";

/** Its late-payment charges still owed, in cents (decisions/065). */
export const chargesOwedCents = (i: Invoice) => toCents(i.charges_owed ?? 0);

/** What is left to pay on an invoice, in cents. */
export const balanceCents = (i: Invoice) => (i.status === "void" ? 0 : toCents(i.amount) - toCents(i.paid));

/** How an invoice is named where a sentence needs it: its number, or its due date. */
export function invoiceName(i: Invoice) {
  return i.number ? `invoice ${i.number}` : `the invoice due ${formatDate(i.due_on)}`;
}
