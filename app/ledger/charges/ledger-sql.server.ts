import { and, eq, type SQL, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { chargeAllocations, charges } from "~/db/schema";

/**
 * Late-payment charges in the ledger (decisions/065): the SQL the payment writes share. A charge is
 * owed while it is not waived, its invoice is not void, and its paid_cents (the sum of its
 * charge_allocations) is below its amount_cents; the charges' CHECK (paid ≤ amount) refuses any
 * batch that would pay one beyond its amount, whichever path and however many run at once.
 */

/**
 * What the debtor still owes in charges: the chosen invoice's own, or every charge in `currency`
 * (a paid invoice's included, a disputed one's not). SQL, evaluated where it is used in the batch.
 */
export function chargesOwedSql(debtorId: number, currency: string | SQL, invoiceId: number | null): SQL<number> {
  // A disputed invoice's charges are paid only when it is chosen, as its principal (availableSql).
  const target =
    invoiceId === null ? sql`c.currency = ${currency} AND ci.status != 'disputed'` : sql`c.invoice_id = ${invoiceId}`;
  return sql<number>`(SELECT coalesce(sum(c.amount_cents - c.paid_cents), 0) FROM ${charges} AS c JOIN invoices AS ci ON ci.id = c.invoice_id AND ci.status != 'void' WHERE c.debtor_id = ${debtorId} AND c.waived_at IS NULL AND ${target})`;
}

/**
 * Whether payment `p` settles charges before principal: its owner's terms say so, and it is not a
 * payment the accounting tool recorded on its invoice (the books say what it paid: the principal).
 */
const chargesFirst = sql`p.source NOT IN ('xero', 'quickbooks') AND EXISTS (SELECT 1 FROM late_charge_terms AS t WHERE t.owner_id = p.owner_id AND t.payment_order = 'charges_first')`;

/**
 * Allocates what is left of the payments `selector` picks (a condition on `p`, payments without
 * charge allocations yet) after their invoice allocations, to the debtor's owed charges in the
 * payment's currency (the chosen invoice's only, when one is chosen): the oldest invoice due
 * first, then interest, compensation, the fee. `onlyIf`: a further condition on `p`.
 */
export function allocateChargesStatement(db: Db, selector: SQL, onlyIf?: SQL) {
  return db.insert(chargeAllocations).select(sql`
SELECT pid, cid, min(remaining, amt - before) FROM (
  SELECT p.id AS pid, c.id AS cid, c.amount_cents - c.paid_cents AS remaining,
    p.amount_cents - coalesce((SELECT sum(pa.amount_cents) FROM payment_allocations AS pa WHERE pa.payment_id = p.id), 0) AS amt,
    coalesce(sum(c.amount_cents - c.paid_cents) OVER (PARTITION BY p.id ORDER BY i.due_on, i.id, CASE c.kind WHEN 'interest' THEN 0 WHEN 'compensation' THEN 1 ELSE 2 END ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0) AS before
  FROM payments AS p
  JOIN charges AS c ON c.debtor_id = p.debtor_id AND c.owner_id = p.owner_id AND c.amount_cents > c.paid_cents
    AND c.waived_at IS NULL AND c.currency = p.currency AND (p.invoice_id IS NULL OR c.invoice_id = p.invoice_id)
  JOIN invoices AS i ON i.id = c.invoice_id AND i.status != 'void' AND (p.invoice_id IS NOT NULL OR i.status != 'disputed')
  WHERE ${selector} AND ${onlyIf ?? sql`1`} AND NOT EXISTS (SELECT 1 FROM charge_allocations AS done WHERE done.payment_id = p.id)
) WHERE before < amt`);
}

/** allocateChargesStatement, only for an owner whose terms say charges first: placed before the invoices' allocation. */
export function allocateChargesFirstStatement(db: Db, selector: SQL) {
  return allocateChargesStatement(db, selector, chargesFirst);
}

/** What a payment's charge allocations add up to, as SQL over `p` (the invoices' allocation takes the rest). */
export const chargeAllocatedSql = sql`coalesce((SELECT sum(ca.amount_cents) FROM charge_allocations AS ca WHERE ca.payment_id = p.id), 0)`;

/** The owner's debtor's charges' paid_cents from their allocations, for the batch of a ledger write. */
export function settleChargesStatement(db: Db, ownerId: string, debtorId: number, now: number) {
  return db
    .update(charges)
    .set({
      paidCents: sql`coalesce((SELECT sum(ca.amount_cents) FROM charge_allocations AS ca WHERE ca.charge_id = "charges"."id"), 0)`,
      updatedAt: now,
    })
    .where(
      and(
        eq(charges.ownerId, ownerId),
        eq(charges.debtorId, debtorId),
        sql`"charges"."paid_cents" != coalesce((SELECT sum(ca.amount_cents) FROM charge_allocations AS ca WHERE ca.charge_id = "charges"."id"), 0)`,
      ),
    );
}

/** Releases what the owner's payment `paymentId` paid on charges (before it is changed, lowered or deleted). */
export function releaseChargeAllocationsStatement(db: Db, ownerId: string, paymentId: number) {
  return db
    .delete(chargeAllocations)
    .where(
      sql`${chargeAllocations.paymentId} IN (SELECT id FROM payments WHERE id = ${paymentId} AND owner_id = ${ownerId})`,
    );
}

/** Whether a D1 error is the charges' CHECK refusing a write (a charge paid beyond its amount). */
export function isChargesViolation(text: string) {
  return text.includes("charges_ledger");
}
