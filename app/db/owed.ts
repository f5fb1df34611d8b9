import { type SQL, type SQLWrapper, sql } from "drizzle-orm";
import { invoices } from "./schema";

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
 * user said not to chase, nor one the debtor said they paid (what the statement lists, app/reminders/statement.server.ts).
 */
export function hasChasedInvoice(debtorId: number | SQL): SQL {
  return sql`EXISTS (SELECT 1 FROM ${invoices} WHERE ${invoices.debtorId} = ${debtorId} AND ${invoices.status} = 'open' AND ${invoices.amountCents} > ${invoices.paidCents} AND ${invoices.chasePausedAt} IS NULL AND ${invoices.claimedAt} IS NULL)`;
}
