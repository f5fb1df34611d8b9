import { and, eq, sql } from "drizzle-orm";
import { noticeInsert } from "~/activity/index.server";
import type { Db } from "~/db/client.server";
import { hasOpenInvoice } from "~/db/owed";
import { debtorEvents, invoices } from "~/db/schema";
import { disputeDetail, invoiceLabel } from "~/domain/dispute";
import {
  accrueAfterWrite,
  closeDisputePauseStatement,
  openDisputePauseStatement,
  settleLedgerStatements,
} from "~/ledger/index.server";
import type { DataScope, OwnerScope } from "~/platform/scope.server";
import { commit, type ResumeOutcome, releaseDisputeHolds } from "~/reminders/index.server";

/**
 * Disputed invoices. From their page a debtor
 * disputes one of their open invoices with a reason: it becomes 'disputed', reminders leave it out,
 * and when no open invoice is left the debtor's schedules hold (stopped_reason 'disputed') until the
 * user resolves a dispute (the invoice is open again, or paid) or voids the invoice. While it is
 * disputed its late-payment interest pauses (a 'dispute' charge_pauses row, decisions/065). Every
 * change and its timeline event are one batch; schedules change through the lifecycle's statements.
 */

/**
 * The timeline event `type` of the owner's invoice matching `where`, as an INSERT … SELECT over the
 * invoices row (put it before the change in the batch: it is recorded exactly when the change
 * happens). The detail is made by the caller from the invoice it read.
 */
function invoiceEventWhere(
  db: Db,
  type: "disputed" | "dispute_resolved",
  detail: string,
  where: ReturnType<typeof and>,
  now: number,
) {
  return db.insert(debtorEvents).select(
    db
      .select({
        // Every column in the table's order (INSERT … SELECT lists them all); id: the next one.
        id: sql<number>`null`.as("id"),
        ownerId: invoices.ownerId,
        debtorId: invoices.debtorId,
        type: sql<string>`${type}`.as("type"),
        detail: sql<string>`${detail}`.as("detail"),
        createdAt: sql<number>`${now}`.as("created_at"),
      })
      .from(invoices)
      .where(where),
  );
}

/** One of a debtor's invoices, as the dispute's writes need it. */
export interface DisputableInvoice {
  id: number;
  number: string | null;
  dueOn: string;
}

/**
 * The debtor disputes their open invoice with `reason` (1–500 characters, checked by the caller),
 * in one batch: the invoice becomes 'disputed' (dispute_reason, disputed_at), 'disputed' is recorded
 * ("INV-7: <reason>"), and when no open invoice is left the debtor's ENABLED schedules hold
 * ('disputed'). Only an invoice of this owner's debtor that is still open: anything else changes
 * nothing. Returns whether it was disputed and the schedules it held (their alarms are disarmed).
 */
export async function disputeInvoice(
  { env, db }: DataScope,
  ownerId: string,
  debtorId: number,
  invoice: DisputableInvoice,
  reason: string,
  now: number,
): Promise<{ disputed: boolean; heldScheduleIds: string[] }> {
  const open = and(
    eq(invoices.id, invoice.id),
    eq(invoices.ownerId, ownerId),
    eq(invoices.debtorId, debtorId),
    eq(invoices.status, "open"),
  );
  // After the invoice's UPDATE: this dispute happened, and it left nothing open.
  const nothingOpenLeft = sql`EXISTS (SELECT 1 FROM ${invoices} WHERE ${invoices.id} = ${invoice.id} AND ${invoices.status} = 'disputed' AND ${invoices.disputedAt} = ${now}) AND NOT ${hasOpenInvoice(debtorId)}`;
  const { results, stopped } = await commit({ env, db, now }, (consequences) => [
    invoiceEventWhere(db, "disputed", disputeDetail(invoice, reason), open, now),
    db
      .update(invoices)
      .set({ status: "disputed", disputeReason: reason, disputedAt: now, updatedAt: now })
      .where(open)
      .returning({ id: invoices.id }),
    // Late-payment interest pauses from today while it is disputed (decisions/065).
    openDisputePauseStatement(
      db,
      ownerId,
      invoice.id,
      now,
      sql`${invoices.status} = 'disputed' AND ${invoices.disputedAt} = ${now}`,
    ),
    consequences({ kind: "held", ownerId, debtorId, reason: "disputed", onlyIf: nothingOpenLeft }),
    // The user is told: only when the event above was recorded.
    noticeInsert(db, { ownerId, debtorId, kind: "disputed", at: now }),
  ]);
  const disputed = results[1].length > 0;
  if (disputed) await accrueAfterWrite({ db, ownerId, now }, [debtorId]);
  return { disputed, heldScheduleIds: stopped };
}

export type ResolveError = { error: "not-found" } | { error: "not-disputed" };

/**
 * "Resolve dispute": the user answers a debtor's dispute of their invoice. In one batch the invoice
 * is open again (or 'paid' when its payments already cover it), dispute_reason and disputed_at are
 * cleared and 'dispute_resolved' is recorded; a debtor with nothing open or disputed left is then
 * paid (the ledger's rule, app/ledger/ledger.server.ts: their schedules complete). Then the schedules
 * the disputes held run again if an open invoice exists (releaseDisputeHolds). Another user's
 * invoice is 'not-found' and nothing changes.
 */
export async function resolveDispute(
  scope: OwnerScope,
  invoiceId: number,
): Promise<
  { invoice: string; debtorId: number; resumed: ResumeOutcome; completedScheduleIds: string[] } | ResolveError
> {
  const { db, ownerId, now } = scope;
  const found = await db
    .select({
      id: invoices.id,
      debtorId: invoices.debtorId,
      number: invoices.number,
      dueOn: invoices.dueOn,
      status: invoices.status,
    })
    .from(invoices)
    .where(and(eq(invoices.ownerId, ownerId), eq(invoices.id, invoiceId)))
    .get();
  if (!found) return { error: "not-found" };
  if (found.status !== "disputed") return { error: "not-disputed" };
  const { debtorId } = found;
  const disputed = and(eq(invoices.id, invoiceId), eq(invoices.ownerId, ownerId), eq(invoices.status, "disputed"));
  const { results, stopped } = await commit(scope, (consequences) => [
    invoiceEventWhere(db, "dispute_resolved", invoiceLabel(found), disputed, now),
    db
      .update(invoices)
      .set({
        status: sql`CASE WHEN ${invoices.paidCents} >= ${invoices.amountCents} THEN 'paid' ELSE 'open' END`,
        disputeReason: null,
        disputedAt: null,
        updatedAt: now,
      })
      .where(disputed)
      .returning({ id: invoices.id }),
    // The ledger settled: nothing open or disputed left (the invoice turned out paid), the debtor has paid.
    ...settleLedgerStatements(db, ownerId, debtorId, now),
    consequences({ kind: "paid", ownerId, debtorId }),
    // Resolved against the debtor: late-payment interest runs again from today (decisions/065).
    closeDisputePauseStatement(
      db,
      ownerId,
      invoiceId,
      now,
      sql`EXISTS (SELECT 1 FROM ${invoices} WHERE ${invoices.id} = ${invoiceId} AND ${invoices.updatedAt} = ${now} AND ${invoices.status} != 'disputed')`,
    ),
  ]);
  if (results[1].length === 0) return { error: "not-disputed" };
  await accrueAfterWrite(scope, [debtorId]);
  const resumed = await releaseDisputeHolds(scope, debtorId);
  return {
    invoice: invoiceLabel(found),
    debtorId,
    resumed,
    completedScheduleIds: stopped,
  };
}
