import { and, desc, eq, isNotNull, isNull, sql } from "drizzle-orm";
import { debtorEventInsert, noticeInsert } from "~/activity/index.server";
import type { Bindable, Db } from "~/db/client.server";
import { owesSql } from "~/db/owed";
import { debtorEvents, debtors } from "~/db/schema";
import { formatMoney, toCents } from "~/domain/money";
import { addPayment, type PaymentWriteError } from "~/ledger/index.server";
import type { DataScope, OwnerScope } from "~/platform/scope.server";
import { commit, type ResumeOutcome, resumeAfterPaidClaim } from "~/reminders/index.server";
import type { PaymentInput } from "~/schemas/payment";

/**
 * "I've paid". Every reminder links to `/p/<key>.<signature>`: the debtor's
 * opt_out_key and an HMAC signed for the purpose "paid" (app/links/signed-links.server.ts), so an opt-out
 * token is no paid token and the other way round, and neither moves to another debtor. The
 * debtor's click (a POST from the page, never the GET a link scanner makes) records the claim,
 * pauses the debtor's enabled schedules and puts a notice on the user's dashboard, where the user
 * confirms the payment (the payment form in a dialog, prefilled with what is still owed) or
 * resumes the reminders.
 */

/** stopped_reason of a schedule paused by the debtor's "I've paid": "Resume reminders" restarts exactly these. */
export const PAID_CLAIM_REASON = "paid_claimed" as const;

const owned = (ownerId: string, debtorId: number) => and(eq(debtors.ownerId, ownerId), eq(debtors.id, debtorId));

/**
 * Whether the debtor already said they paid and the user has not confirmed or resumed yet, not yet
 * run (for a batch): a row whose `at` is set while a claim is pending.
 */
export function hasPendingClaimQuery(db: Db, ownerId: string, debtorId: number) {
  return db.select({ at: debtors.paidClaimedAt }).from(debtors).where(owned(ownerId, debtorId)).limit(1);
}

/**
 * Records the debtor's "I've paid", in one batch (one D1 transaction): the debtor's ENABLED
 * schedules are paused (DISABLED, stopped_reason 'paid_claimed', no next run), the event
 * 'paid_claimed' is recorded and paid_claimed_at is set. Only when no claim is pending and
 * something is still owed: a repeated click changes nothing. The user's notice is written with it
 * (the caller sends it: sendNotices). Returns whether it recorded a claim
 * and the schedules it paused (their alarms are disarmed).
 */
export async function claimPaid(
  { env, db }: DataScope,
  ownerId: string,
  debtorId: number,
  now = Date.now(),
): Promise<{ claimed: boolean; pausedScheduleIds: string[] }> {
  const pending = and(owned(ownerId, debtorId), isNull(debtors.paidClaimedAt), owesSql(debtors.id));
  // Statements of a batch run in order: the first two still see the debtor without a claim.
  const claimable = sql`EXISTS (SELECT 1 FROM ${debtors} WHERE ${debtors.id} = ${debtorId} AND ${debtors.ownerId} = ${ownerId} AND ${debtors.paidClaimedAt} IS NULL AND ${owesSql(debtorId)})`;
  const { results, stopped } = await commit({ env, db, now }, (consequences) => [
    consequences({ kind: "held", ownerId, debtorId, reason: PAID_CLAIM_REASON, onlyIf: claimable }),
    db.insert(debtorEvents).select(
      db
        // Every column in the table's order (INSERT … SELECT lists them all); id: the next one.
        .select({
          id: sql<number>`null`.as("id"),
          ownerId: debtors.ownerId,
          debtorId: debtors.id,
          type: sql<string>`'paid_claimed'`.as("type"),
          detail: sql<string>`''`.as("detail"),
          createdAt: sql<number>`${now}`.as("created_at"),
        })
        .from(debtors)
        .where(pending),
    ),
    db.update(debtors).set({ paidClaimedAt: now, updatedAt: now }).where(pending).returning({ id: debtors.id }),
    // The user is told: only when the event above was recorded.
    noticeInsert(db, { ownerId, debtorId, kind: "paid_claimed", at: now }),
  ]);
  return { claimed: results[2].length > 0, pausedScheduleIds: stopped };
}

/** A debtor who said they paid, as the dashboard's notice shows them. */
export interface PaidClaim {
  id: number;
  fullName: string;
  paidClaimedAt: number;
  debtCents: number;
  paidCents: number;
  currency: string;
}

/**
 * The owner's pending claims, newest first: one query through the debtors' owner index, not yet run
 * (a statement of the dashboard's batch); paidClaimsOf reads them.
 */
export function paidClaimsQuery(db: Db, ownerId: Bindable<string>, limit = 50) {
  return db
    .select({
      id: debtors.id,
      fullName: debtors.fullName,
      paidClaimedAt: debtors.paidClaimedAt,
      debtCents: debtors.debtCents,
      paidCents: debtors.paidCents,
      currency: debtors.currency,
    })
    .from(debtors)
    .where(and(eq(debtors.ownerId, ownerId), isNotNull(debtors.paidClaimedAt)))
    .orderBy(desc(debtors.paidClaimedAt), desc(debtors.id))
    .limit(limit);
}

/** The claims from paidClaimsQuery's rows. */
export function paidClaimsOf(rows: Awaited<ReturnType<typeof paidClaimsQuery>>): PaidClaim[] {
  return rows.map((r) => ({ ...r, paidClaimedAt: r.paidClaimedAt ?? 0 }));
}

/** Clears the owner's debtor's pending claim without recording anything; false when none was pending. */
async function clearClaim(db: Db, ownerId: string, debtorId: number, now: number) {
  const cleared = await db
    .update(debtors)
    .set({ paidClaimedAt: null, updatedAt: now })
    .where(and(owned(ownerId, debtorId), isNotNull(debtors.paidClaimedAt)))
    .returning({ id: debtors.id });
  return cleared.length > 0;
}

/** Clears the owner's debtor's pending claim and records `type`, in one batch; false when none was pending. */
async function closeClaim(
  db: Db,
  ownerId: string,
  debtorId: number,
  type: "paid_claim_confirmed" | "reminders_resumed",
  detail: string,
  now: number,
) {
  const [cleared] = await db.batch([
    db
      .update(debtors)
      .set({ paidClaimedAt: null, updatedAt: now })
      .where(and(owned(ownerId, debtorId), isNotNull(debtors.paidClaimedAt)))
      .returning({ id: debtors.id }),
    debtorEventInsert(db, { ownerId, debtorId, type, detail, at: now }),
  ]);
  return cleared.length > 0;
}

export type ClaimError = { error: "not-found" } | { error: "no-claim" };

/** The owner's debtor with a pending claim: what is still owed (cents, in their currency). */
export interface PendingClaim {
  owedCents: number;
  currency: string;
}

/** The owner's debtor with a pending claim and what they still owe, or why not. */
export async function pendingClaim(db: Db, ownerId: string, debtorId: number): Promise<ClaimError | PendingClaim> {
  const debtor = await db
    .select({
      debtCents: debtors.debtCents,
      paidCents: debtors.paidCents,
      currency: debtors.currency,
      paidClaimedAt: debtors.paidClaimedAt,
    })
    .from(debtors)
    .where(owned(ownerId, debtorId))
    .get();
  if (!debtor) return { error: "not-found" };
  if (debtor.paidClaimedAt == null) return { error: "no-claim" };
  return { owedCents: Math.max(0, debtor.debtCents - debtor.paidCents), currency: debtor.currency };
}

/** What "Confirm payment" did. */
export interface ConfirmOutcome {
  /** The payment recorded (0: nothing was owed any more, only the claim was cleared). */
  paidCents: number;
  currency: string;
  /** What is still owed after it. */
  owedCents: number;
  /** The schedules the payment completed (paid in full), already disarmed. */
  completedScheduleIds: string[];
  /** Paid in part: the schedules the claim paused that run again, and those that stay paused. */
  resumed: number;
  refused: number;
}

/**
 * "Confirm payment" with nothing owed any more (a payment recorded meanwhile): the claim is
 * cleared and 'paid_claim_confirmed' recorded, nothing else.
 */
export async function confirmNothingOwed(db: Db, ownerId: string, debtorId: number, currency: string, now: number) {
  if (!(await closeClaim(db, ownerId, debtorId, "paid_claim_confirmed", "", now)))
    return { error: "no-claim" } as const;
  return { paidCents: 0, currency, owedCents: 0, completedScheduleIds: [], resumed: 0, refused: 0 } as ConfirmOutcome;
}

/**
 * "Confirm payment": the payment the user entered in the dialog (the
 * payment form's input, checked by paymentSchema) is recorded, and in the same batch the claim is
 * cleared and 'paid_claim_confirmed' recorded (now, with the amount), only if the payment was
 * inserted and the claim was still pending. Paid in full, addPayment's batch completes the
 * schedules and the lifecycle disarms them. Paid in part, something is still owed
 * and no notice is left to resume from, so the schedules the claim paused run again (the
 * dialog says so). Nothing is written when the claim was already answered, the amount is more
 * than is owed, or the debtor has too many payments.
 */
export async function confirmPaidClaim(
  scope: OwnerScope,
  debtorId: number,
  input: PaymentInput,
): Promise<ConfirmOutcome | ClaimError | PaymentWriteError> {
  const { db, ownerId, now } = scope;
  const found = await pendingClaim(db, ownerId, debtorId);
  if ("error" in found) return found;
  const detail = formatMoney(toCents(input.amount), found.currency);
  const written = await addPayment(scope, ownerId, debtorId, input, now, {
    onlyIf: isNotNull(debtors.paidClaimedAt),
    andThen: (inserted) => [
      db.insert(debtorEvents).select(
        db
          // Every column in the table's order (INSERT … SELECT lists them all); id: the next one.
          .select({
            id: sql<number>`null`.as("id"),
            ownerId: debtors.ownerId,
            debtorId: debtors.id,
            type: sql<string>`'paid_claim_confirmed'`.as("type"),
            detail: sql<string>`${detail}`.as("detail"),
            createdAt: sql<number>`${now}`.as("created_at"),
          })
          .from(debtors)
          .where(and(owned(ownerId, debtorId), inserted)),
      ),
      db
        .update(debtors)
        .set({ paidClaimedAt: null, updatedAt: now })
        .where(and(owned(ownerId, debtorId), inserted)),
    ],
  });
  if ("error" in written) {
    // Nothing was written: the claim may have been answered meanwhile (another tab).
    if (written.error !== "not-found") {
      const still = await pendingClaim(db, ownerId, debtorId);
      if ("error" in still) return still;
    }
    return written;
  }
  const owedCents = Math.max(0, written.debtor.debtCents - written.debtor.paidCents);
  const outcome =
    owedCents > 0 ? await resumeAfterPaidClaim(scope, debtorId) : { resumed: [], refused: [] as unknown[] };
  return {
    paidCents: written.payment.amountCents,
    currency: written.payment.currency,
    owedCents,
    completedScheduleIds: written.completedScheduleIds,
    resumed: outcome.resumed.length,
    refused: outcome.refused.length,
  };
}

/**
 * "Resume reminders": the debtor's schedules their claim paused run again (the lifecycle's
 * resume: next run from now; a debtor who paid, opted out or bounces keeps them paused), and the
 * claim is cleared. 'reminders_resumed' is recorded only when a schedule resumed.
 */
export async function resumeAfterClaim(scope: OwnerScope, debtorId: number): Promise<ResumeOutcome | ClaimError> {
  const { db, ownerId, now } = scope;
  const found = await pendingClaim(db, ownerId, debtorId);
  if ("error" in found) return found;
  const outcome = await resumeAfterPaidClaim(scope, debtorId);
  const n = outcome.resumed.length;
  const closed =
    n > 0
      ? await closeClaim(db, ownerId, debtorId, "reminders_resumed", n === 1 ? "1 schedule" : `${n} schedules`, now)
      : await clearClaim(db, ownerId, debtorId, now);
  if (!closed) return { error: "no-claim" };
  return outcome;
}
