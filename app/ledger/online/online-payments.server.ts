import { and, eq, inArray, type SQL, sql } from "drizzle-orm";
import { type DebtorEventType, debtorEventWhere, noticeInsert, sendNotices } from "~/activity/index.server";
import type { Db } from "~/db/client.server";
import { debtors, onlinePayments, paymentAllocations, payments } from "~/db/schema";
import { formatDate } from "~/domain/dates";
import { formatMoney, fromCents, providerAmountCents } from "~/domain/money";
import type { ReceiptMessage } from "~/domain/receipt";
import { accrueAfterWrite } from "~/ledger/charges/accrual.server";
import { releaseChargeAllocationsStatement } from "~/ledger/charges/ledger-sql.server";
import { allocatePaymentStatements, settleLedgerStatements } from "~/ledger/ledger.server";
import { addPayment, settleStatements } from "~/ledger/payments.server";
import { debtorParties, portalLink } from "~/links/index.server";
import { sendRecorded } from "~/mail/index.server";
import type { AppConfig } from "~/platform/config.server";
import type { OwnerScope } from "~/platform/scope.server";
import { commit, replanDueSchedules, resumeHeld } from "~/reminders/index.server";

/**
 * A debtor's payment online, as verified Stripe events tell it (decisions/018): each write is one batch with its timeline event and the user's notice, like a
 * payment the user types in, and goes through the same ledger.
 * - Paid: recorded once per provider payment (payments.provider_payment_id is unique), source
 *   'stripe', allocated like any payment (the session's invoice, or oldest due first), so paid in
 *   full it completes the schedules; the debtor gets a receipt (Idempotency-Key from the payment).
 * - A bank payment pending: nothing is paid; the debtor's ENABLED schedules are held
 *   ('payment_pending', the lifecycle's hold). Failed: the hold is released.
 * - Refunded or lost in a dispute: the payment's amount is lowered by what went back and the
 *   ledger re-allocated, so that much is owed again; recorded on the timeline; nothing restarts.
 */

export type OnlinePaymentRow = typeof onlinePayments.$inferSelect;

/** An amount as the provider's event states it, in its smallest unit, not yet trusted. */
export type ProviderAmount = { amount: unknown; currency: unknown };

/** The online payment of a Checkout Session, or undefined (not created by Dunly). */
export function onlinePaymentBySession(db: Db, sessionId: string) {
  return db.select().from(onlinePayments).where(eq(onlinePayments.sessionId, sessionId)).get();
}

/** The online payment of a provider payment (a PaymentIntent), or undefined. */
export function onlinePaymentByIntent(db: Db, paymentIntentId: string) {
  return db.select().from(onlinePayments).where(eq(onlinePayments.paymentIntentId, paymentIntentId)).get();
}

/** The timeline event of the row's debtor, recorded only when `when` holds (SQL). */
function eventWhere(db: Db, row: OnlinePaymentRow, type: DebtorEventType, detail: string, when: SQL, now: number) {
  return debtorEventWhere(
    db,
    type,
    detail,
    and(eq(debtors.id, row.debtorId), eq(debtors.ownerId, row.ownerId), when),
    now,
  );
}

/** This session's row has `status`, written at `now` (by an earlier statement of the same batch). */
const rowIs = (row: OnlinePaymentRow, status: OnlinePaymentRow["status"], now: number) =>
  sql`EXISTS (SELECT 1 FROM ${onlinePayments} WHERE ${onlinePayments.sessionId} = ${row.sessionId} AND ${onlinePayments.status} = ${status} AND ${onlinePayments.updatedAt} = ${now})`;

/** No other bank payment of the debtor is still pending (the hold is theirs too). */
const noOtherPending = (row: OnlinePaymentRow) =>
  sql`NOT EXISTS (SELECT 1 FROM ${onlinePayments} AS other WHERE other.debtor_id = ${row.debtorId} AND other.status = 'pending' AND other.session_id != ${row.sessionId})`;

export interface OnlineContext {
  env: Env;
  config: AppConfig;
  db: Db;
  now: number;
}

const scopeOf = (c: OnlineContext, ownerId: string): OwnerScope => ({ env: c.env, db: c.db, ownerId, now: c.now });

/**
 * A bank payment was started and is still being processed (checkout.session.completed, unpaid):
 * the session becomes 'pending' and the debtor's ENABLED schedules are held, once.
 */
export async function markPending(c: OnlineContext, row: OnlinePaymentRow, paymentIntentId: string | null) {
  const { db, now } = c;
  const results = (
    await commit(
      c,
      (consequences) =>
        [
          db
            .update(onlinePayments)
            .set({ status: "pending", paymentIntentId, updatedAt: now })
            // Expired too: the session was completed before it expired, and its event came late.
            .where(
              and(eq(onlinePayments.sessionId, row.sessionId), inArray(onlinePayments.status, ["open", "expired"])),
            )
            .returning({ id: onlinePayments.sessionId }),
          eventWhere(
            db,
            row,
            "payment_pending",
            `${formatMoney(row.amountCents, row.currency)} by bank, being processed`,
            rowIs(row, "pending", now),
            now,
          ),
          consequences({
            kind: "held",
            ownerId: row.ownerId,
            debtorId: row.debtorId,
            reason: "payment_pending",
            onlyIf: rowIs(row, "pending", now),
          }),
        ] as const,
    )
  ).results;
  const [changed] = results as readonly [unknown[], ...unknown[]];
  return changed.length > 0;
}

/** The bank payment failed (checkout.session.async_payment_failed): recorded, and its hold released. */
export async function markFailed(c: OnlineContext, row: OnlinePaymentRow) {
  const { db, now } = c;
  const [changed] = await db.batch([
    db
      .update(onlinePayments)
      .set({ status: "failed", updatedAt: now })
      .where(and(eq(onlinePayments.sessionId, row.sessionId), inArray(onlinePayments.status, ["open", "pending"])))
      .returning({ id: onlinePayments.sessionId }),
    eventWhere(
      db,
      row,
      "payment_failed",
      `${formatMoney(row.amountCents, row.currency)} by bank: the payment failed`,
      rowIs(row, "failed", now),
      now,
    ),
  ]);
  if (changed.length === 0) return false;
  await resumeHeld(scopeOf(c, row.ownerId), row.debtorId, "payment_pending", noOtherPending(row));
  return true;
}

/**
 * A Checkout Session that ends unpaid (checkout.session.expired: the debtor left, or Stripe's 24
 * hours ran out): an open session becomes 'expired'. Nothing was paid, nothing is held for it.
 */
export async function markExpired(c: OnlineContext, row: OnlinePaymentRow) {
  const changed = await c.db
    .update(onlinePayments)
    .set({ status: "expired", updatedAt: c.now })
    .where(and(eq(onlinePayments.sessionId, row.sessionId), eq(onlinePayments.status, "open")))
    .returning({ id: onlinePayments.sessionId });
  return changed.length > 0;
}

/** Stripe lets a Checkout Session be paid for at most 24 hours; an hour more covers a late event. */
export const CHECKOUT_LIFETIME_MS = 25 * 60 * 60_000;
/** At most this many abandoned sessions are closed a statement (the cron trigger comes back). */
const EXPIRE_BATCH = 500;

/**
 * The sweep for sessions Stripe never reported as expired (a lost event, or an endpoint that was
 * down): every session still 'open' past Stripe's lifetime can no longer be paid, so it is closed
 * as 'expired'. A payment completed before then still counts when its event comes (recordPaid and
 * markPending accept an expired session). Read from the partial index online_payments_open_idx.
 */
export async function expireAbandonedCheckouts(db: Db, now: number): Promise<number> {
  const cutoff = now - CHECKOUT_LIFETIME_MS;
  const rows = await db.all<{ session_id: string }>(sql`
    UPDATE ${onlinePayments} SET status = 'expired', updated_at = ${now}
    WHERE session_id IN (
      SELECT session_id FROM ${onlinePayments} WHERE status = 'open' AND created_at <= ${cutoff} LIMIT ${EXPIRE_BATCH}
    )
    RETURNING session_id`);
  return rows.length;
}

export type RecordOutcome = { recorded: true; paymentId: number } | { recorded: false; reason: string };

/**
 * The payment succeeded (checkout.session.completed paid, or async_payment_succeeded): recorded
 * once per `paymentIntentId` against the session's invoices, with its event and the user's notice
 * in the same batch; then the alarms follow, a hold that is no longer needed is released, the
 * user's notice and the debtor's receipt are sent. At most what is still owed is recorded (the
 * ledger's rule); the event says what was received beyond it.
 */
export async function recordPaid(
  c: OnlineContext,
  row: OnlinePaymentRow,
  paymentIntentId: string,
  total: ProviderAmount,
): Promise<RecordOutcome> {
  const { db, now } = c;
  // What was received counts only as a sane amount in the session's currency; nothing received
  // is no payment.
  const received = providerAmountCents(total.amount, total.currency, row.currency);
  if (!received.ok) return { recorded: false, reason: `amount refused: ${received.reason}` };
  if (received.cents === 0) return { recorded: false, reason: "nothing received" };
  const amountCents = received.cents;
  const known = await db
    .select({ id: payments.id })
    .from(payments)
    .where(eq(payments.providerPaymentId, paymentIntentId))
    .get();
  if (known) return { recorded: false, reason: "payment already recorded" };
  if (row.status === "paid") return { recorded: false, reason: "session already paid" };
  const paidOn = new Date(now).toISOString().slice(0, 10);
  const attempt = (cents: number, surplus: number) => {
    const received = formatMoney(amountCents, row.currency);
    const detail =
      surplus > 0
        ? `${received} by Stripe (${paymentIntentId}); ${formatMoney(surplus, row.currency)} more than was owed`
        : `${received} by Stripe (${paymentIntentId})`;
    return addPayment(
      c,
      row.ownerId,
      row.debtorId,
      {
        amount: fromCents(cents),
        paid_on: paidOn,
        note: `Paid online by Stripe (${paymentIntentId})`,
        invoice_id: row.invoiceId ?? undefined,
      },
      now,
      {
        provider: { id: paymentIntentId },
        andThen: (inserted) => [
          db
            .update(onlinePayments)
            .set({ status: "paid", paymentIntentId, receivedCents: cents, updatedAt: now })
            .where(and(eq(onlinePayments.sessionId, row.sessionId), inserted)),
          eventWhere(db, row, "paid_online", detail, inserted, now),
          noticeInsert(db, { ownerId: row.ownerId, debtorId: row.debtorId, kind: "paid_online", at: now }),
        ],
      },
    );
  };
  let written: Awaited<ReturnType<typeof attempt>>;
  try {
    written = await attempt(amountCents, 0);
    // Owed less by now (the user recorded a payment meanwhile): what is owed is recorded.
    if ("error" in written && written.error === "over-owed" && written.maxCents > 0) {
      written = await attempt(written.maxCents, amountCents - written.maxCents);
    }
  } catch (error) {
    // The unique provider id under a race: the other delivery recorded it.
    if (
      String((error as Error)?.message ?? error).includes("provider_payment_id") ||
      String((error as Error)?.cause ?? "").includes("provider_payment_id")
    ) {
      return { recorded: false, reason: "payment already recorded" };
    }
    throw error;
  }
  if ("error" in written) {
    // Nothing owed any more (or the debtor is gone): the session is closed as paid, nothing recorded.
    await db
      .update(onlinePayments)
      .set({ status: "paid", paymentIntentId, updatedAt: now })
      .where(eq(onlinePayments.sessionId, row.sessionId));
    return { recorded: false, reason: `not recorded: ${written.error}` };
  }
  const scope = scopeOf(c, row.ownerId);
  await replanDueSchedules(scope, [row.debtorId]);
  // Paid in part: a hold for this payment is not needed any more (paid in full completed them).
  await resumeHeld(scope, row.debtorId, "payment_pending", noOtherPending(row));
  await sendNotices(c.env, db, c.config, { ownerId: row.ownerId }, now);
  await sendReceipt(c, row, paymentIntentId, written.payment.amountCents, paidOn);
  return { recorded: true, paymentId: written.payment.id };
}

/**
 * The debtor's receipt, once per provider payment (its Idempotency-Key), recorded before it is sent:
 * one that could not be sent is retried by the watchdog and shown in Settings → E-mails. Never throws.
 */
async function sendReceipt(
  c: OnlineContext,
  row: OnlinePaymentRow,
  paymentIntentId: string,
  cents: number,
  paidOn: string,
) {
  try {
    const parties = await debtorParties(c.db, row.ownerId, row.debtorId, c.config);
    if (!parties) return;
    const portalUrl = await portalLink(c.db, c.config, {
      id: row.debtorId,
      ownerId: row.ownerId,
      optOutKey: parties.optOutKey,
    });
    const message: ReceiptMessage = {
      to: parties.email,
      senderName: parties.senderName,
      replyTo: parties.replyTo,
      debtorName: parties.debtorName,
      amount: formatMoney(cents, row.currency, parties.moneyLocale),
      paidOn: formatDate(paidOn, parties.locale),
      reference: paymentIntentId,
      portalUrl,
      language: parties.language,
      brand: parties.brand,
    };
    await sendRecorded(c.env, c.db, {
      ownerId: row.ownerId,
      debtorId: row.debtorId,
      key: `receipt:${paymentIntentId}`,
      email: { kind: "receipt", message },
    });
  } catch (error) {
    console.error(`[dunly] receipt for ${paymentIntentId} failed: ${(error as Error).message}`);
  }
}

/**
 * Money went back to the debtor (charge.refunded: Stripe's cumulative amount_refunded; or
 * charge.dispute.closed lost: the dispute's amount): the recorded payment is lowered by what went
 * back in total, its allocation redone, so exactly that is owed again, in one batch with its
 * timeline event and notice. The schedules stay as they are: nothing restarts by itself.
 */
export async function recordReversal(
  c: OnlineContext,
  row: OnlinePaymentRow,
  kind: "payment_refunded" | "payment_dispute_lost",
  total: ProviderAmount,
): Promise<RecordOutcome> {
  const { db, now } = c;
  const read = providerAmountCents(total.amount, total.currency, row.currency);
  if (!read.ok) return { recorded: false, reason: `amount refused: ${read.reason}` };
  const totalCents = read.cents;
  const before = kind === "payment_refunded" ? row.refundedCents : row.disputeLostCents;
  if (totalCents <= before) return { recorded: false, reason: "nothing more went back" };
  const payment = await db
    .select({ id: payments.id, amountCents: payments.amountCents })
    .from(payments)
    .where(and(eq(payments.providerPaymentId, row.paymentIntentId ?? ""), eq(payments.ownerId, row.ownerId)))
    .get();
  if (!payment) return { recorded: false, reason: "no recorded payment" };
  const refunded = kind === "payment_refunded" ? totalCents : row.refundedCents;
  const lost = kind === "payment_dispute_lost" ? totalCents : row.disputeLostCents;
  const amountCents = Math.max(0, row.receivedCents - refunded - lost);
  const back = formatMoney(totalCents - before, row.currency);
  const detail =
    kind === "payment_refunded"
      ? `${back} refunded (${row.paymentIntentId}); owed again`
      : `${back} lost in a dispute (${row.paymentIntentId}); owed again`;
  // Still as read: a concurrent delivery of the same reversal changes nothing twice.
  const unchanged = and(
    eq(onlinePayments.sessionId, row.sessionId),
    eq(onlinePayments.refundedCents, row.refundedCents),
    eq(onlinePayments.disputeLostCents, row.disputeLostCents),
  );
  const results = (
    await commit(
      c,
      (consequences) =>
        [
          db
            .update(onlinePayments)
            .set({ refundedCents: refunded, disputeLostCents: lost, updatedAt: now })
            .where(unchanged)
            .returning({ id: onlinePayments.sessionId }),
          eventWhere(
            db,
            row,
            kind,
            detail,
            sql`EXISTS (SELECT 1 FROM ${onlinePayments} WHERE ${onlinePayments.sessionId} = ${row.sessionId} AND ${onlinePayments.updatedAt} = ${now} AND ${onlinePayments.refundedCents} = ${refunded} AND ${onlinePayments.disputeLostCents} = ${lost})`,
            now,
          ),
          noticeInsert(db, { ownerId: row.ownerId, debtorId: row.debtorId, kind, at: now }),
          db.delete(paymentAllocations).where(eq(paymentAllocations.paymentId, payment.id)),
          releaseChargeAllocationsStatement(db, row.ownerId, payment.id),
          ...settleLedgerStatements(db, row.ownerId, row.debtorId, now),
          db
            .update(payments)
            .set({ amountCents })
            .where(and(eq(payments.id, payment.id), eq(payments.ownerId, row.ownerId))),
          ...allocatePaymentStatements(db, sql`p.id = ${payment.id} AND p.owner_id = ${row.ownerId}`),
          ...settleStatements(consequences, db, row.ownerId, row.debtorId, now),
        ] as const,
    )
  ).results;
  const changed = results[0];
  if (changed.length === 0) return { recorded: false, reason: "changed meanwhile" };
  await accrueAfterWrite({ db, ownerId: row.ownerId, now }, [row.debtorId]);
  await replanDueSchedules(scopeOf(c, row.ownerId), [row.debtorId]);
  await sendNotices(c.env, db, c.config, { ownerId: row.ownerId }, now);
  return { recorded: true, paymentId: payment.id };
}

/**
 * Whether the owner's debtor has a bank payment online being processed (the portal says so), in
 * `currency` when given (no second payment starts in it meanwhile: app/ledger/online/checkout.server.ts).
 */
export async function pendingOnlinePayment(db: Db, ownerId: string, debtorId: number, currency?: string) {
  return db
    .select({ amountCents: onlinePayments.amountCents, currency: onlinePayments.currency })
    .from(onlinePayments)
    .where(
      and(
        eq(onlinePayments.debtorId, debtorId),
        eq(onlinePayments.ownerId, ownerId),
        eq(onlinePayments.status, "pending"),
        currency === undefined ? undefined : eq(onlinePayments.currency, currency),
      ),
    )
    .get();
}
