import { and, eq, type SQL, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { settleStatusStatement } from "~/db/debtor-status";
import { debtors, invoices, paymentAllocations } from "~/db/schema";
import { type CommitScope, type Consequences, commit } from "~/reminders/index.server";
import {
  allocateChargesFirstStatement,
  allocateChargesStatement,
  chargeAllocatedSql,
  chargesOwedSql,
  isChargesViolation,
  settleChargesStatement,
} from "./charges/ledger-sql.server";

/**
 * The ledger: what a debtor owes is their invoices; what they paid is
 * their payments, each allocated to invoices (payment_allocations). Every write that changes an
 * invoice, a payment or an allocation puts `settleLedgerStatements` into its own batch (one D1
 * transaction), so these always agree:
 * - an invoice's paid_cents is the sum of its allocations, and its status follows: 'paid' when that
 *   covers its amount, else 'open' (or 'disputed' while the debtor disputes it); 'void' stays void;
 * - the debtor's debt_cents and paid_cents are the sums over their invoices in the debtor's
 *   currency that are not void (what the spec's forms, tables and API call the debt and paid);
 * - the debtor is 'paid' when no invoice is open or disputed, and 'active' again when one is
 *   ('opted_out' and 'bouncing' stay as they are).
 * The invoices table's CHECK (paid_cents between 0 and amount_cents) makes a batch that would pay
 * an invoice beyond its amount, or lower an amount below what was paid, fail as a whole: no path,
 * and no two concurrent writes, can break the ledger.
 */

/** A new invoice's values (its debtor's currency when none is given). */
export interface NewInvoice {
  number: string | null;
  amountCents: number;
  currency?: string;
  issuedOn: string;
  dueOn: string;
  now: number;
  /** Synced from an accounting tool (decisions/060): its name and the invoice's id there. */
  source?: { provider: "xero" | "quickbooks"; externalId: string; url?: string | null };
}

/**
 * An INSERT … SELECT of a new open invoice of the debtor `debtorWhere` picks (a condition on
 * debtors that includes its owner): no row when there is no such debtor. The debtor form's first
 * invoice and the invoice form's add both write it (followed by settleLedgerStatements).
 */
export function insertInvoiceStatement(db: Db, debtorWhere: SQL | undefined, invoice: NewInvoice) {
  return db.insert(invoices).select(
    db
      // Every column in the table's order (INSERT … SELECT lists them all); id: the next one.
      .select({
        id: sql<number>`null`.as("id"),
        ownerId: debtors.ownerId,
        debtorId: debtors.id,
        number: sql<string | null>`${invoice.number}`.as("number"),
        amountCents: sql<number>`${invoice.amountCents}`.as("amount_cents"),
        currency: invoice.currency ? sql<string>`${invoice.currency}`.as("currency") : debtors.currency,
        issuedOn: sql<string>`${invoice.issuedOn}`.as("issued_on"),
        dueOn: sql<string>`${invoice.dueOn}`.as("due_on"),
        status: sql<string>`'open'`.as("status"),
        paidCents: sql<number>`0`.as("paid_cents"),
        disputeReason: sql<null>`null`.as("dispute_reason"),
        disputedAt: sql<null>`null`.as("disputed_at"),
        chasePausedAt: sql<null>`null`.as("chase_paused_at"),
        claimedAt: sql<null>`null`.as("claimed_at"),
        documentKey: sql<null>`null`.as("document_key"),
        documentName: sql<null>`null`.as("document_name"),
        documentSize: sql<null>`null`.as("document_size"),
        createdAt: sql<number>`${invoice.now}`.as("created_at"),
        updatedAt: sql<number>`${invoice.now}`.as("updated_at"),
        sourceProvider: sql<"xero" | "quickbooks" | null>`${invoice.source?.provider ?? null}`.as("source_provider"),
        externalId: sql<string | null>`${invoice.source?.externalId ?? null}`.as("external_id"),
        sourceUrl: sql<string | null>`${invoice.source?.url ?? null}`.as("source_url"),
        chargesThrough: sql<null>`null`.as("charges_through"),
      })
      .from(debtors)
      .where(debtorWhere),
  );
}

/** What an invoice's allocations add up to (its paid_cents), for the row being updated. */
const allocatedSum = sql`coalesce((SELECT sum(a.amount_cents) FROM payment_allocations AS a WHERE a.invoice_id = ${invoices.id}), 0)`;

/** A debtor sum over their non-void invoices in the debtor's currency. */
const debtorSum = (column: "amount_cents" | "paid_cents") =>
  sql<number>`coalesce((SELECT sum(i.${sql.raw(column)}) FROM ${invoices} AS i WHERE i.debtor_id = ${debtors.id} AND i.status != 'void' AND i.currency = ${debtors.currency}), 0)`;

/**
 * The owner's debtor's invoices and the debtor recomputed from the allocations (see the module's
 * comment), and their late-payment charges' paid_cents from theirs (decisions/065), for the batch
 * of a ledger write. Four statements; they write nothing for a debtor that is not the owner's.
 */
export function settleLedgerStatements(db: Db, ownerId: string, debtorId: number, now: number) {
  return [
    settleChargesStatement(db, ownerId, debtorId, now),
    db
      .update(invoices)
      .set({
        paidCents: allocatedSum,
        status: sql`CASE WHEN ${invoices.status} = 'void' THEN 'void' WHEN ${allocatedSum} >= ${invoices.amountCents} THEN 'paid' WHEN ${invoices.status} = 'disputed' THEN 'disputed' ELSE 'open' END`,
      })
      .where(and(eq(invoices.ownerId, ownerId), eq(invoices.debtorId, debtorId))),
    ...settleDebtorsStatements(db, ownerId, eq(debtors.id, debtorId), now),
  ] as const;
}

/**
 * The owner's debtors `which` picks, their sums recomputed from their invoices, then their status
 * (app/db/debtor-status.ts). Alone, for a write that only adds open invoices to many debtors at
 * once (the CSV import): nothing is allocated, so the invoices need no settling.
 */
export function settleDebtorsStatements(db: Db, ownerId: string, which: SQL, now: number) {
  return [
    db
      .update(debtors)
      .set({ debtCents: debtorSum("amount_cents"), paidCents: debtorSum("paid_cents"), updatedAt: now })
      .where(and(eq(debtors.ownerId, ownerId), which)),
    settleStatusStatement(db, ownerId, which, now),
  ] as const;
}

/**
 * How much a payment of the debtor in `currency` may still pay: what is left on the chosen invoice
 * (open or disputed) and its own late-payment charges, or on every open invoice in that currency
 * (disputed ones are paid only when chosen) and every charge owed in it (decisions/065). SQL,
 * evaluated where it is used in the batch.
 */
export function availableSql(debtorId: number, currency: string | SQL, invoiceId: number | null): SQL<number> {
  return sql<number>`(${principalAvailableSql(debtorId, currency, invoiceId)} + ${chargesOwedSql(debtorId, currency, invoiceId)})`;
}

/** What is left on the chosen invoice, or on the open invoices in `currency`: the principal part of availableSql. */
export function principalAvailableSql(debtorId: number, currency: string | SQL, invoiceId: number | null): SQL<number> {
  const target =
    invoiceId === null
      ? sql`i.status = 'open' AND i.currency = ${currency}`
      : sql`i.id = ${invoiceId} AND i.status IN ('open', 'disputed')`;
  return sql<number>`(SELECT coalesce(sum(i.amount_cents - i.paid_cents), 0) FROM ${invoices} AS i WHERE i.debtor_id = ${debtorId} AND ${target})`;
}

/**
 * Allocates the payments `selector` picks (a condition on `p`, payments without allocations): the
 * invoices' principal first (allocateStatement), then what is left to their late-payment charges;
 * or the charges first when the owner's terms say so (decisions/065). Three statements, run after
 * the invoices and charges were settled and followed by settleLedgerStatements.
 */
export function allocatePaymentStatements(db: Db, selector: SQL) {
  return [
    allocateChargesFirstStatement(db, selector),
    allocateStatement(db, selector),
    allocateChargesStatement(db, selector),
  ] as const;
}

/** How many statements allocatePaymentStatements makes. */
export const ALLOCATE_STATEMENTS = 3;

/**
 * Allocates the payments `selector` picks (a condition on `p`, a payments row without
 * allocations) to the debtor's invoices: the chosen invoice, or the open invoices in the payment's
 * currency, oldest due date first, each up to what is left on it (of the payment, less what it
 * already paid on charges). Run after the invoices were settled (their paid_cents current) and
 * followed by settleLedgerStatements; payments go through allocatePaymentStatements.
 */
function allocateStatement(db: Db, selector: SQL) {
  // drizzle's insert (not db.run): a raw statement with bound values cannot join a D1 batch in
  // drizzle (its batch binds values through a prepared query's statement, which raw SQL lacks).
  // The SELECT gives payment_allocations' columns in the table's order.
  return db.insert(paymentAllocations).select(sql`
SELECT pid, iid, min(remaining, amt - before) FROM (
  SELECT p.id AS pid, p.amount_cents - ${chargeAllocatedSql} AS amt, i.id AS iid, i.amount_cents - i.paid_cents AS remaining,
    coalesce(sum(i.amount_cents - i.paid_cents) OVER (PARTITION BY p.id ORDER BY i.due_on, i.id ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0) AS before
  FROM payments AS p
  JOIN invoices AS i ON i.debtor_id = p.debtor_id AND i.owner_id = p.owner_id AND i.amount_cents > i.paid_cents
    AND (CASE WHEN p.invoice_id IS NULL THEN i.status = 'open' AND i.currency = p.currency ELSE i.id = p.invoice_id AND i.status IN ('open', 'disputed') END)
  WHERE ${selector} AND NOT EXISTS (SELECT 1 FROM payment_allocations AS done WHERE done.payment_id = p.id)
) WHERE before < amt`);
}

/**
 * Whether a D1 error is the ledger's CHECK refusing a write (an amount below what was paid, or an
 * overpayment of an invoice or of a late-payment charge).
 */
function isLedgerViolation(error: unknown) {
  const text = errorText(error);
  return text.includes("invoices_ledger") || isChargesViolation(text);
}

/** What a ledger write answers when the database refuses it. */
export interface LedgerRefusals<R> {
  /** An invoice number the account already uses. */
  numberTaken?: () => R | Promise<R>;
  /** An invoice or a charge would be paid beyond its amount (their CHECKs). */
  overPaid?: () => R | Promise<R>;
}

/**
 * Commits a ledger write with its consequences for the reminders (the lifecycle's commit). A rule
 * the database keeps (a unique number, what an invoice can hold) becomes the caller's answer;
 * any other error is thrown.
 */
export async function commitLedgerWrite<R>(
  scope: CommitScope,
  build: (consequences: Consequences) => readonly unknown[],
  refusals: LedgerRefusals<R>,
): Promise<{ results: readonly unknown[] } | { refused: R }> {
  try {
    // biome-ignore lint/suspicious/noExplicitAny: each caller's drizzle statements, batched as they are.
    return await commit(scope, build as (consequences: Consequences) => any);
  } catch (error) {
    if (refusals.numberTaken && isNumberTaken(error)) return { refused: await refusals.numberTaken() };
    if (refusals.overPaid && isLedgerViolation(error)) return { refused: await refusals.overPaid() };
    throw error;
  }
}

/** Whether a D1 error is an invoice number already used in the account. */
export function isNumberTaken(error: unknown) {
  return errorText(error).includes("invoices.owner_id, invoices.number");
}

function errorText(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  return `${error.message} ${error.cause instanceof Error ? error.cause.message : ""}`;
}
