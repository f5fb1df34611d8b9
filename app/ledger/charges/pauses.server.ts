import { and, eq, isNull, type SQL, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { chargePauses, invoices } from "~/db/schema";

/**
 * Days an invoice accrues no late-payment interest (decisions/065, charge_pauses): a dispute pauses
 * it from the day the debtor disputes (from_on, inclusive) until the dispute is resolved against
 * them or the invoice is voided (to_on, exclusive). Payment plans (their own feature) add 'plan'
 * pauses the same way. These statements go in the batch of the change that starts or ends a pause.
 */

/** The calendar day (UTC, YYYY-MM-DD) of `now`: the day a pause starts or ends. */
export function pauseDay(now: number) {
  return new Date(now).toISOString().slice(0, 10);
}

/**
 * A 'dispute' pause of the owner's invoice from `now`'s day, inserted only when `onlyIf` (a
 * condition on `invoices`, e.g. "it was disputed by this batch") holds and no open one exists.
 */
export function openDisputePauseStatement(db: Db, ownerId: string, invoiceId: number, now: number, onlyIf: SQL) {
  return db.insert(chargePauses).select(
    db
      .select({
        // Every column in the table's order (INSERT … SELECT lists them all); id: the next one.
        id: sql<number>`null`.as("id"),
        ownerId: invoices.ownerId,
        invoiceId: invoices.id,
        reason: sql<"dispute">`'dispute'`.as("reason"),
        planId: sql<null>`null`.as("plan_id"),
        fromOn: sql<string>`${pauseDay(now)}`.as("from_on"),
        toOn: sql<null>`null`.as("to_on"),
        createdAt: sql<number>`${now}`.as("created_at"),
      })
      .from(invoices)
      .where(
        and(
          eq(invoices.id, invoiceId),
          eq(invoices.ownerId, ownerId),
          onlyIf,
          sql`NOT EXISTS (SELECT 1 FROM ${chargePauses} AS open WHERE open.invoice_id = ${invoiceId} AND open.reason = 'dispute' AND open.to_on IS NULL)`,
        ),
      ),
  );
}

/**
 * Ends the owner's invoice's open 'dispute' pause on `now`'s day (interest runs again from that
 * day): the dispute resolved against the debtor, or the invoice voided. `onlyIf`: a further
 * condition (on charge_pauses) that holds only when the change happened.
 */
export function closeDisputePauseStatement(db: Db, ownerId: string, invoiceId: number, now: number, onlyIf?: SQL) {
  return db
    .update(chargePauses)
    .set({ toOn: sql`max(${chargePauses.fromOn}, ${pauseDay(now)})` })
    .where(
      and(
        eq(chargePauses.ownerId, ownerId),
        eq(chargePauses.invoiceId, invoiceId),
        eq(chargePauses.reason, "dispute"),
        isNull(chargePauses.toOn),
        onlyIf,
      ),
    );
}
