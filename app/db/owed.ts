import { type SQL, type SQLWrapper, sql } from "drizzle-orm";
import { invoices } from "./schema";

/**
 * SQL: the invoice `invoiceId` (a column of the outer query) is on an active payment plan
 * (decisions/066): reminders leave it out, as one the user said not to chase; its instalments are
 * chased instead. Through plan_invoices (invoice_id, plan_id), then each plan by its key: never
 * through the index of every account's active plans.
 */
export const onActivePlanSql = (invoiceId: SQLWrapper) =>
  sql`EXISTS (SELECT 1 FROM plan_invoices AS pi WHERE pi.invoice_id = ${invoiceId} AND (SELECT pp.status FROM payment_plans AS pp WHERE pp.id = pi.plan_id) = 'active')`;

/** Invoice statuses that are still owed: a disputed invoice is owed until the user resolves it. */
export const OWED_STATUSES = ["open", "disputed"] as const;

/** SQL: the debtor `debtorId` (a value or a column) still owes something: an invoice open or disputed. */
export const owesSql = (debtorId: SQLWrapper | number) =>
  sql`EXISTS (SELECT 1 FROM ${invoices} AS owed WHERE owed.debtor_id = ${debtorId} AND owed.status IN ('open', 'disputed'))`;

/** Whether the debtor has an invoice still open (through the index on invoices (debtor_id, status, …)). */
export function hasOpenInvoice(debtorId: number | SQL): SQL {
  return sql`EXISTS (SELECT 1 FROM ${invoices} WHERE ${invoices.debtorId} = ${debtorId} AND ${invoices.status} = 'open')`;
}

/** Whether the debtor has an invoice under dispute. */
export function hasDisputedInvoice(debtorId: number | SQL): SQL {
  return sql`EXISTS (SELECT 1 FROM ${invoices} WHERE ${invoices.debtorId} = ${debtorId} AND ${invoices.status} = 'disputed')`;
}

/**
 * Whether the debtor has an invoice a reminder chases: open, something left to pay, and not one the
 * user said not to chase, nor one on an active payment plan, nor one the debtor said they paid (what the statement lists, app/reminders/statement.server.ts).
 */
export function hasChasedInvoice(debtorId: number | SQL): SQL {
  return sql`EXISTS (SELECT 1 FROM ${invoices} WHERE ${invoices.debtorId} = ${debtorId} AND ${invoices.status} = 'open' AND ${invoices.amountCents} > ${invoices.paidCents} AND ${invoices.chasePausedAt} IS NULL AND ${invoices.claimedAt} IS NULL AND NOT ${onActivePlanSql(invoices.id)})`;
}
