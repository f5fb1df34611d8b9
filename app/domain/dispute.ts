import { formatDate } from "./dates";

/**
 * Disputed invoices: the debtor says an invoice is
 * wrong and why; reminders leave it out until the user resolves the dispute.
 */

/** The longest reason a debtor may give, in characters. */
export const DISPUTE_REASON_MAX = 500;

/** How the debtor, the timeline and the dashboard name an invoice: its number, else "the invoice due 30 Dec 2026". */
export function invoiceLabel(invoice: { number: string | null; dueOn: string }): string {
  const number = invoice.number?.trim();
  return number ? number : `the invoice due ${formatDate(invoice.dueOn)}`;
}

/** The timeline's detail of a dispute: "INV-7: <reason>". */
export function disputeDetail(invoice: { number: string | null; dueOn: string }, reason: string): string {
  return `${invoiceLabel(invoice)}: ${reason}`;
}
