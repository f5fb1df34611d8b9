import { and, count, desc, eq, type SQL, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { debtors, payments, schedules } from "~/db/schema";
import { MAX_PAYMENTS_PER_DEBTOR } from "~/domain/account-caps";
import { fromCents, toCents } from "~/domain/money";
import { completeWhenPaidStatement, resumableWhere } from "~/reminders/lifecycle.server";
import type { PaymentInput } from "~/schemas/payment";

/**
 * Payments (docs/architecture.md §10): what a debtor paid, by date. The debtor's paid_cents is the sum of
 * their payments, kept in the same batch (one D1 transaction) as every payment write, and so is
 * their status: 'paid' once nothing is owed, 'active' again when a paid debtor owes again. Paid in
 * full, every live schedule of theirs completes (stopped_reason 'paid'); owing again, nothing
 * restarts by itself: the user resumes the stopped schedules (resumeStoppedSchedules in
 * app/reminders/lifecycle.server.ts). Every
 * function is scoped to the owner: another user's debtor or payment looks missing.
 */

export type PaymentRow = Pick<
  typeof payments.$inferSelect,
  "id" | "debtorId" | "amountCents" | "paidOn" | "note" | "createdAt"
>;

const paymentColumns = {
  id: payments.id,
  debtorId: payments.debtorId,
  amountCents: payments.amountCents,
  paidOn: payments.paidOn,
  note: payments.note,
  createdAt: payments.createdAt,
};

/** The debtor as a payment write leaves it: balance, status and how many stopped schedules may resume. */
export interface DebtorBalance {
  id: number;
  debtCents: number;
  paidCents: number;
  currency: string;
  status: "active" | "paid" | "opted_out" | "bouncing";
  /** Stopped schedules of the debtor the user may resume (see resumableSchedules). */
  resumable: number;
}

/** What a payment write did: the payment, the debtor after it, and the schedules it completed (to disarm). */
export interface PaymentWrite {
  payment: PaymentRow;
  debtor: DebtorBalance;
  completedScheduleIds: string[];
}

/** Why a payment write was refused: not the owner's, more than is owed, or too many payments. */
export type PaymentWriteError =
  | { error: "not-found" }
  | { error: "over-owed"; maxCents: number; currency: string }
  | { error: "too-many" };

// Balance: statements shared by every write that changes what a debtor owes ---------------------

const paidSum = (debtorId: number) =>
  sql<number>`(SELECT coalesce(sum(${payments.amountCents}), 0) FROM ${payments} WHERE ${payments.debtorId} = ${debtorId})`;

/**
 * The status for a debtor whose paid amount is `paid`: 'paid' when it covers the debt, 'active'
 * otherwise; an 'opted_out' or 'bouncing' debtor keeps that status (their schedules still complete
 * when paid in full).
 */
const statusFor = (paid: SQL | typeof debtors.paidCents) =>
  sql<
    DebtorBalance["status"]
  >`CASE WHEN ${debtors.status} IN ('active', 'paid') THEN (CASE WHEN ${paid} >= ${debtors.debtCents} THEN 'paid' ELSE 'active' END) ELSE ${debtors.status} END`;

/** The owner's debtor `debtorId` (a condition). */
const ownedDebtor = (ownerId: string, debtorId: number) => and(eq(debtors.ownerId, ownerId), eq(debtors.id, debtorId));

/**
 * After a change to what the debtor paid or owes, in the same batch: paid_cents (recomputed from the
 * payments when `recomputePaid`) and status, every ENABLED or DISABLED schedule completed with
 * stopped_reason 'paid' when nothing is owed any more, then the debtor as it is now and how many of
 * their schedules may resume. Returns the statements; `readSettled` reads their results.
 */
export function settleStatements(
  db: Db,
  ownerId: string,
  debtorId: number,
  now: number,
  { recomputePaid }: { recomputePaid: boolean },
) {
  const paid = recomputePaid ? paidSum(debtorId) : debtors.paidCents;
  return [
    db
      .update(debtors)
      .set(recomputePaid ? { paidCents: paid, status: statusFor(paid), updatedAt: now } : { status: statusFor(paid) })
      .where(ownedDebtor(ownerId, debtorId)),
    completeWhenPaidStatement(db, ownerId, debtorId, now),
    balanceQuery(db, ownerId, debtorId),
    db.select({ n: count() }).from(schedules).where(resumableWhere(ownerId, debtorId)),
  ] as const;
}

type SettledResults = [unknown, { id: string }[], Omit<DebtorBalance, "resumable">[], { n: number }[]];

/** The debtor after the settle statements, and the schedules they completed; undefined when the debtor is gone. */
function readSettled([, completed, [debtor], [resumable]]: SettledResults) {
  if (!debtor) return undefined;
  return {
    debtor: { ...debtor, resumable: resumable?.n ?? 0 },
    completedScheduleIds: completed.map((s) => s.id),
  };
}

/** The owner's debtor's balance row (debt, paid, currency, status). */
function balanceQuery(db: Db, ownerId: string, debtorId: number) {
  return db
    .select({
      id: debtors.id,
      debtCents: debtors.debtCents,
      paidCents: debtors.paidCents,
      currency: debtors.currency,
      status: debtors.status,
    })
    .from(debtors)
    .where(ownedDebtor(ownerId, debtorId));
}

// Reads ------------------------------------------------------------------------------------------

/**
 * The owner's debtor's payments, newest first (by date, then as recorded), with the debtor's
 * balance; undefined when the debtor is not the owner's. One batch; the payments come through
 * their index (debtor_id, paid_on).
 */
export async function listPayments(db: Db, ownerId: string, debtorId: number) {
  const [[debtor], rows, [resumable]] = await db.batch([
    balanceQuery(db, ownerId, debtorId),
    db
      .select(paymentColumns)
      .from(payments)
      .where(and(eq(payments.debtorId, debtorId), eq(payments.ownerId, ownerId)))
      .orderBy(desc(payments.paidOn), desc(payments.id))
      .limit(MAX_PAYMENTS_PER_DEBTOR),
    db.select({ n: count() }).from(schedules).where(resumableWhere(ownerId, debtorId)),
  ]);
  if (!debtor) return undefined;
  return { debtor: { ...debtor, resumable: resumable?.n ?? 0 } satisfies DebtorBalance, payments: rows };
}

/** The owner's payment with its debtor's balance, or undefined. */
async function getPaymentWithDebtor(db: Db, ownerId: string, paymentId: number) {
  return db
    .select({
      ...paymentColumns,
      debtCents: debtors.debtCents,
      debtorPaidCents: debtors.paidCents,
      currency: debtors.currency,
    })
    .from(payments)
    .innerJoin(debtors, eq(debtors.id, payments.debtorId))
    .where(and(eq(payments.ownerId, ownerId), eq(payments.id, paymentId), eq(debtors.ownerId, ownerId)))
    .get();
}

// Writes -----------------------------------------------------------------------------------------

/**
 * Records a payment of the owner's debtor: at most what is still owed (checked in the INSERT
 * itself, so two concurrent payments cannot overpay), and at most MAX_PAYMENTS_PER_DEBTOR of them.
 * The caller disarms the alarms of `completedScheduleIds` (app/entities/payments.server.ts).
 */
export async function addPayment(
  db: Db,
  ownerId: string,
  debtorId: number,
  input: PaymentInput,
  now = Date.now(),
): Promise<PaymentWrite | PaymentWriteError> {
  const amountCents = toCents(input.amount);
  const [inserted, ...settled] = await db.batch([
    db
      .insert(payments)
      .select(
        db
          // Every column, in the table's order (INSERT … SELECT lists them all); id: the next one.
          .select({
            id: sql<number>`null`.as("id"),
            ownerId: debtors.ownerId,
            debtorId: debtors.id,
            amountCents: sql<number>`${amountCents}`.as("amount_cents"),
            paidOn: sql<string>`${input.paid_on}`.as("paid_on"),
            note: sql<string>`${input.note ?? ""}`.as("note"),
            createdAt: sql<number>`${now}`.as("created_at"),
          })
          .from(debtors)
          .where(
            and(
              ownedDebtor(ownerId, debtorId),
              sql`${debtors.debtCents} - ${debtors.paidCents} >= ${amountCents}`,
              sql`(SELECT count(*) FROM ${payments} WHERE ${payments.debtorId} = ${debtorId}) < ${MAX_PAYMENTS_PER_DEBTOR}`,
            ),
          ),
      )
      .returning(paymentColumns),
    ...settleStatements(db, ownerId, debtorId, now, { recomputePaid: true }),
  ]);
  const after = readSettled(settled as unknown as SettledResults);
  if (!after) return { error: "not-found" };
  const [payment] = inserted;
  if (!payment) return refusal(db, debtorId, after.debtor, 0);
  return { payment, ...after };
}

/** Why an add or edit that wrote nothing was refused, for a debtor that exists. */
async function refusal(
  db: Db,
  debtorId: number,
  debtor: DebtorBalance,
  ownAmountCents: number,
): Promise<PaymentWriteError> {
  if (ownAmountCents === 0) {
    const [{ n } = { n: 0 }] = await db.select({ n: count() }).from(payments).where(eq(payments.debtorId, debtorId));
    if (n >= MAX_PAYMENTS_PER_DEBTOR) return { error: "too-many" };
  }
  return {
    error: "over-owed",
    maxCents: Math.max(0, debtor.debtCents - debtor.paidCents) + ownAmountCents,
    currency: debtor.currency,
  };
}

/**
 * Changes the owner's payment: its new amount may be at most what is owed plus its old amount
 * (checked in the UPDATE itself). The caller disarms the alarms of `completedScheduleIds`.
 */
export async function editPayment(
  db: Db,
  ownerId: string,
  paymentId: number,
  input: PaymentInput,
  now = Date.now(),
): Promise<PaymentWrite | PaymentWriteError> {
  const existing = await getPaymentWithDebtor(db, ownerId, paymentId);
  if (!existing) return { error: "not-found" };
  const amountCents = toCents(input.amount);
  const [updated, ...settled] = await db.batch([
    db
      .update(payments)
      .set({ amountCents, paidOn: input.paid_on, note: input.note ?? "" })
      .where(
        and(
          eq(payments.ownerId, ownerId),
          eq(payments.id, paymentId),
          sql`(SELECT ${debtors.debtCents} - ${debtors.paidCents} FROM ${debtors} WHERE ${debtors.id} = ${payments.debtorId} AND ${debtors.ownerId} = ${ownerId}) + ${payments.amountCents} >= ${amountCents}`,
        ),
      )
      .returning(paymentColumns),
    ...settleStatements(db, ownerId, existing.debtorId, now, { recomputePaid: true }),
  ]);
  const after = readSettled(settled as unknown as SettledResults);
  if (!after) return { error: "not-found" };
  const [payment] = updated;
  if (!payment) {
    // Deleted meanwhile, or the balance changed under it.
    const still = await getPaymentWithDebtor(db, ownerId, paymentId);
    return still ? refusal(db, existing.debtorId, after.debtor, still.amountCents) : { error: "not-found" };
  }
  return { payment, ...after };
}

/** Deletes the owner's payment; the debt may be owed again, but no schedule restarts by itself. */
export async function deletePayment(
  db: Db,
  ownerId: string,
  paymentId: number,
  now = Date.now(),
): Promise<PaymentWrite | { error: "not-found" }> {
  const existing = await getPaymentWithDebtor(db, ownerId, paymentId);
  if (!existing) return { error: "not-found" };
  const [deleted, ...settled] = await db.batch([
    db
      .delete(payments)
      .where(and(eq(payments.ownerId, ownerId), eq(payments.id, paymentId)))
      .returning(paymentColumns),
    ...settleStatements(db, ownerId, existing.debtorId, now, { recomputePaid: true }),
  ]);
  const after = readSettled(settled as unknown as SettledResults);
  const [payment] = deleted;
  if (!after || !payment) return { error: "not-found" };
  return { payment, ...after };
}

// Resuming ----------------------------------------------------------------------------------------

// The JSON API's shapes ----------------------------------------------------------------------------

/** A payment as the API answers it (snake_case, a decimal amount). */
export function paymentToJson(p: PaymentRow) {
  return {
    id: p.id,
    debtor_id: p.debtorId,
    amount: fromCents(p.amountCents),
    paid_on: p.paidOn,
    note: p.note,
    created_at: p.createdAt,
  };
}

/** The debtor's balance as the API answers it after a payment write. */
export function balanceToJson(d: DebtorBalance) {
  return {
    id: d.id,
    debt: fromCents(d.debtCents),
    paid: fromCents(d.paidCents),
    owed: fromCents(Math.max(0, d.debtCents - d.paidCents)),
    currency: d.currency,
    status: d.status,
    resumable_schedules: d.resumable,
  };
}
