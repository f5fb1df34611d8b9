import { and, desc, eq, isNotNull, isNull, sql } from "drizzle-orm";
import type { Bindable, Db } from "~/db/client.server";
import { debtorEvents, debtors } from "~/db/schema";
import { formatMoney, fromCents } from "~/domain/money";
import { debtorEventInsert } from "~/models/debtor-event.server";
import { owesSql } from "~/models/ledger.server";
import { addPayment, type PaymentWrite, type PaymentWriteError } from "~/models/payment.server";
import { noticeInsert } from "~/models/user-notification.server";
import { holdStatement, type OwnerScope, type ResumeOutcome, resumeAfterPaidClaim } from "~/reminders/lifecycle.server";
import type { AppConfig } from "./config.server";
import { debtorLink, type OptOutTarget, type SigningConfig, verifyDebtorToken } from "./opt-out.server";

/**
 * "I've paid" (docs/architecture.md §10). Every reminder links to `/p/<key>.<signature>`: the debtor's
 * opt_out_key and an HMAC signed for the purpose "paid" (app/lib/opt-out.server.ts), so an opt-out
 * token is no paid token and the other way round, and neither moves to another debtor. The
 * debtor's click (a POST from the page, never the GET a link scanner makes) records the claim,
 * pauses the debtor's enabled schedules and puts a notice on the user's dashboard, where the user
 * confirms the payment (recorded as a payment of what is still owed) or resumes the reminders.
 */

/** stopped_reason of a schedule paused by the debtor's "I've paid": "Resume reminders" restarts exactly these. */
export const PAID_CLAIM_REASON = "paid_claimed" as const;

/** The note of the payment "Confirm payment" records. */
export const CONFIRMED_PAYMENT_NOTE = "The debtor said they had paid; confirmed.";

/** The absolute "I've paid" URL of a debtor: `${linkOrigin(config)}/p/${token}`. Throws without OPT_OUT_SECRET. */
export function paidClaimLink(
  db: Db,
  config: AppConfig,
  debtor: { id: number; ownerId: string; optOutKey: string | null },
): Promise<string> {
  return debtorLink(db, config, "paid", "/p/", debtor);
}

/** The debtor an "I've paid" token belongs to, or null (forged, altered, another purpose's, unknown). */
export function verifyPaidClaimToken(
  db: Db,
  config: SigningConfig,
  token: string | null | undefined,
): Promise<OptOutTarget | null> {
  return verifyDebtorToken(db, config, "paid", token);
}

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
 * and the schedules it paused (the caller disarms their alarms).
 */
export async function claimPaid(
  db: Db,
  ownerId: string,
  debtorId: number,
  now = Date.now(),
): Promise<{ claimed: boolean; pausedScheduleIds: string[] }> {
  const pending = and(owned(ownerId, debtorId), isNull(debtors.paidClaimedAt), owesSql(debtors.id));
  // Statements of a batch run in order: the first two still see the debtor without a claim.
  const claimable = sql`EXISTS (SELECT 1 FROM ${debtors} WHERE ${debtors.id} = ${debtorId} AND ${debtors.ownerId} = ${ownerId} AND ${debtors.paidClaimedAt} IS NULL AND ${owesSql(debtorId)})`;
  const [paused, , claimed] = await db.batch([
    holdStatement(db, ownerId, debtorId, PAID_CLAIM_REASON, now, claimable),
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
    // The user is told (docs/architecture.md §5): only when the event above was recorded.
    noticeInsert(db, { ownerId, debtorId, kind: "paid_claimed", at: now }),
  ]);
  return { claimed: claimed.length > 0, pausedScheduleIds: paused.map((s) => s.id) };
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

interface PendingDebtor {
  debtCents: number;
  paidCents: number;
  currency: string;
}

/** The owner's debtor with a pending claim, or why not. */
async function pendingDebtor(
  db: Db,
  ownerId: string,
  debtorId: number,
): Promise<ClaimError | { debtor: PendingDebtor }> {
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
  return { debtor };
}

/**
 * "Confirm payment": records a payment of what is still owed, dated `today` (through addPayment,
 * which completes the debtor's schedules once paid in full), then clears the claim and records
 * 'paid_claim_confirmed'. Nothing owed any more: only the claim is cleared. The caller disarms
 * `completedScheduleIds`.
 */
export async function confirmPaidClaim(
  db: Db,
  ownerId: string,
  debtorId: number,
  today: string,
  now = Date.now(),
): Promise<{ paidCents: number; currency: string; completedScheduleIds: string[] } | ClaimError | PaymentWriteError> {
  const found = await pendingDebtor(db, ownerId, debtorId);
  if ("error" in found) return found;
  const owedCents = found.debtor.debtCents - found.debtor.paidCents;
  let write: PaymentWrite | null = null;
  if (owedCents > 0) {
    const written = await addPayment(
      db,
      ownerId,
      debtorId,
      { amount: fromCents(owedCents), paid_on: today, note: CONFIRMED_PAYMENT_NOTE },
      now,
    );
    if ("error" in written) return written;
    write = written;
  }
  const detail = owedCents > 0 ? formatMoney(owedCents, found.debtor.currency) : "";
  if (!(await closeClaim(db, ownerId, debtorId, "paid_claim_confirmed", detail, now))) return { error: "no-claim" };
  return {
    paidCents: Math.max(0, owedCents),
    currency: found.debtor.currency,
    completedScheduleIds: write?.completedScheduleIds ?? [],
  };
}

/**
 * "Resume reminders": the debtor's schedules their claim paused run again (the lifecycle's
 * resume: next run from now; a debtor who paid, opted out or bounces keeps them paused), and the
 * claim is cleared. 'reminders_resumed' is recorded only when a schedule resumed.
 */
export async function resumeAfterClaim(scope: OwnerScope, debtorId: number): Promise<ResumeOutcome | ClaimError> {
  const { db, ownerId, now } = scope;
  const found = await pendingDebtor(db, ownerId, debtorId);
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
