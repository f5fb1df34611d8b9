import { and, count, eq, isNotNull, type SQL, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { accountingWritebacks, invoices, paymentAllocations } from "~/db/schema";

/**
 * The outbox of payments written back to the accounting tool (decisions/063), filled in the
 * payment's own batch (addPayment): one row per synced invoice the payment paid, while the
 * account's setting names a bank account, never for a payment that came from a tool itself (source
 * 'xero' or 'quickbooks': the books already have it). The
 * sender (app/accounting/writeback.server.ts) empties it. `payment` selects the payment just
 * inserted (as the allocation statement does), so the rows exist exactly when the payment does.
 */
export function writebackOutboxStatement(db: Db, ownerId: string, payment: SQL, now: number) {
  // The SELECT gives accounting_writebacks' columns in the table's order (INSERT … SELECT lists them all).
  return db.insert(accountingWritebacks).select(sql`
SELECT NULL, p.owner_id, p.id, i.id, i.source_provider, a.amount_cents, i.currency, c.writeback_account_id,
  'pending', 0, 0, ${now}, NULL, NULL, ${now}, ${now}
FROM payments AS p
JOIN payment_allocations AS a ON a.payment_id = p.id
JOIN invoices AS i ON i.id = a.invoice_id AND i.owner_id = p.owner_id
JOIN accounting_connections AS c ON c.owner_id = p.owner_id AND c.provider = i.source_provider
WHERE ${payment} AND p.owner_id = ${ownerId} AND p.source NOT IN ('xero', 'quickbooks') AND i.external_id IS NOT NULL
  AND c.writeback_account_id IS NOT NULL
ON CONFLICT DO NOTHING`);
}

/**
 * In the same batch, after the outbox statement: what the payment paid of invoices synced from an
 * accounting tool, and how many of them are queued for writing back. One row per provider.
 */
export function writebackOutcomeQuery(db: Db, ownerId: string, paymentId: SQL) {
  return db
    .select({
      provider: invoices.sourceProvider,
      synced: count(),
      queued: sql<number>`count(${accountingWritebacks.id})`,
    })
    .from(paymentAllocations)
    .innerJoin(invoices, eq(invoices.id, paymentAllocations.invoiceId))
    .leftJoin(
      accountingWritebacks,
      and(
        eq(accountingWritebacks.paymentId, paymentAllocations.paymentId),
        eq(accountingWritebacks.invoiceId, paymentAllocations.invoiceId),
      ),
    )
    .where(
      and(
        sql`${paymentAllocations.paymentId} = ${paymentId}`,
        eq(invoices.ownerId, ownerId),
        isNotNull(invoices.sourceProvider),
      ),
    )
    .groupBy(invoices.sourceProvider);
}

/** What a payment write tells about the books: the tool whose invoices it paid, and whether Dunly writes it there. */
export interface BooksOutcome {
  provider: "xero" | "quickbooks";
  /** true: every synced invoice it paid is queued for writing back; false: the user records it there. */
  written: boolean;
}

export function readBooksOutcome(rows: unknown): BooksOutcome | null {
  const [row] = (rows ?? []) as { provider: "xero" | "quickbooks" | null; synced: number; queued: number }[];
  if (!row?.provider) return null;
  return { provider: row.provider, written: row.queued >= row.synced };
}
