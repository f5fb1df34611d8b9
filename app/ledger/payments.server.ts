import { and, count, desc, eq, inArray, isNotNull, or, type SQL, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { hasDisputedInvoice, hasOpenInvoice, OWED_STATUSES } from "~/db/owed";
import { debtors, invoices, paymentAllocations, payments, schedules } from "~/db/schema";
import { MAX_PAYMENTS_PER_DEBTOR } from "~/domain/account-caps";
import { fromCents, toCents } from "~/domain/money";
import type { DataScope } from "~/platform/scope.server";
import { type Consequences, commit, resumableWhere } from "~/reminders/index.server";
import type { PaymentInput } from "~/schemas/payment";
import { accrueAfterWrite } from "./charges/accrual.server";
import { chargesOwedSql, releaseChargeAllocationsStatement } from "./charges/ledger-sql.server";
import {
  ALLOCATE_STATEMENTS,
  allocatePaymentStatements,
  availableSql,
  commitLedgerWrite,
  settleLedgerStatements,
} from "./ledger.server";
import { completePlansStatements } from "./plans/plans.server";
import {
  type BooksOutcome,
  readBooksOutcome,
  writebackOutboxStatement,
  writebackOutcomeQuery,
} from "./writeback-outbox.server";

/**
 * Payments: what a debtor paid, by date, each allocated to invoices
 * (app/ledger/ledger.server.ts). The ledger is settled in the same batch (one D1 transaction) as
 * every payment write, and so is the debtor's status: 'paid' once no invoice is open or disputed,
 * 'active' again when a paid debtor owes again. Paid in
 * full, every live schedule of theirs completes (stopped_reason 'paid'); owing again, nothing
 * restarts by itself: the user resumes the stopped schedules (resumeStoppedSchedules in
 * the lifecycle in app/reminders/). Every
 * function is scoped to the owner: another user's debtor or payment looks missing.
 */

export type PaymentRow = Pick<
  typeof payments.$inferSelect,
  "id" | "debtorId" | "amountCents" | "currency" | "invoiceId" | "paidOn" | "note" | "createdAt"
>;

const paymentColumns = {
  id: payments.id,
  debtorId: payments.debtorId,
  amountCents: payments.amountCents,
  currency: payments.currency,
  invoiceId: payments.invoiceId,
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

/** What a payment write did: the payment, the debtor after it, and the schedules it completed (already disarmed). */
export interface PaymentWrite {
  payment: PaymentRow;
  debtor: DebtorBalance;
  completedScheduleIds: string[];
  /**
   * A new payment on invoices synced from an accounting tool: whether Dunly writes it back there
   * (decisions/063) or the user should record it there too. Absent for edits, deletes and other payments.
   */
  books?: BooksOutcome | null;
}

/** Why a payment write was refused: not the owner's, more than is owed, or too many payments. */
export type PaymentWriteError =
  | { error: "not-found" }
  | { error: "invoice-not-found" }
  | { error: "over-owed"; maxCents: number; currency: string }
  | { error: "too-many" };

// Balance: statements shared by every write that changes what a debtor owes ---------------------

/** The owner's debtor `debtorId` (a condition). */
const ownedDebtor = (ownerId: string, debtorId: number) => and(eq(debtors.ownerId, ownerId), eq(debtors.id, debtorId));

/**
 * After a change to what the debtor paid or owes, in the same batch: the ledger settled
 * (app/ledger/ledger.server.ts: invoices, the debtor's sums and status), every ENABLED or DISABLED
 * schedule completed with stopped_reason 'paid' when nothing is owed any more, then the debtor as
 * it is now and how many of their schedules may resume. Returns the statements; `readSettled`
 * reads their results.
 */
export function settleStatements(consequences: Consequences, db: Db, ownerId: string, debtorId: number, now: number) {
  return [
    ...settleLedgerStatements(db, ownerId, debtorId, now),
    consequences({ kind: "paid", ownerId, debtorId }),
    // Paid in full, a pending promise to pay is kept and ends.
    endPromiseWhenPaidStatement(db, ownerId, debtorId, now),
    balanceQuery(db, ownerId, debtorId),
    db.select({ n: count() }).from(schedules).where(resumableWhere(ownerId, debtorId)),
    // A payment plan the ledger now covers in full completes in the write that paid it (decisions/066).
    ...completePlansStatements(db, ownerId, debtorId, now, new Date(now).toISOString().slice(0, 10)),
  ] as const;
}

/** How many statements settleStatements makes. */
export const SETTLE_STATEMENTS = 11;

type SettledResults = [
  unknown,
  unknown,
  unknown,
  unknown,
  { id: string }[],
  unknown,
  Omit<DebtorBalance, "resumable">[],
  { n: number }[],
  ...unknown[],
];

/** The debtor after the settle statements, and the schedules they completed; undefined when the debtor is gone. */
export function readSettled(results: readonly unknown[]) {
  const [, , , , completed, , [debtor], [resumable]] = results as SettledResults;
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
      paymentCurrency: payments.currency,
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
 * The invoice a payment is for, when chosen: the owner's, of this debtor, open or disputed, or paid
 * with late-payment charges still owed on it (decisions/065); with its currency.
 */
async function chosenInvoice(db: Db, ownerId: string, debtorId: number, invoiceId: number | undefined) {
  if (invoiceId === undefined) return null;
  const row = await db
    .select({ id: invoices.id, currency: invoices.currency })
    .from(invoices)
    .where(
      and(
        eq(invoices.ownerId, ownerId),
        eq(invoices.debtorId, debtorId),
        eq(invoices.id, invoiceId),
        or(
          inArray(invoices.status, [...OWED_STATUSES]),
          and(eq(invoices.status, "paid"), sql`${chargesOwedSql(debtorId, sql`${invoices.currency}`, invoiceId)} > 0`),
        ),
      ),
    )
    .get();
  return row ?? "missing";
}

/** A ledger CHECK that fired under a race: answered as the amount being more than is owed now. */
async function overOwedNow(db: Db, ownerId: string, debtorId: number, ownAmountCents: number) {
  const listed = await listPayments(db, ownerId, debtorId);
  if (!listed) return { error: "not-found" } as const;
  return refusal(db, debtorId, listed.debtor, ownAmountCents);
}

/**
 * Records a payment of the owner's debtor and allocates it (app/ledger/ledger.server.ts): to the
 * chosen invoice, or to the open invoices in the debtor's currency, oldest due date first. At most
 * what is still owed there (checked in the INSERT itself, and by the ledger's CHECK, so two
 * concurrent payments cannot overpay), and at most MAX_PAYMENTS_PER_DEBTOR payments. The caller
 * disarms the alarms of `completedScheduleIds` (app/ledger/payment-entity.server.ts).
 *
 * `also` joins another change to the same batch (confirming an "I've paid", app/responses/paid-claims.server.ts):
 * `onlyIf`, a further condition of the INSERT, and `andThen(inserted)`, statements run after the
 * ledger is settled, given a condition that holds only when this payment was inserted. `provider`:
 * a payment online (decisions/018), source 'stripe' with the provider's payment id (unique), or
 * what an accounting tool says was paid (decisions/060, 061), source 'xero' or 'quickbooks'.
 */
export async function addPayment(
  { env, db }: DataScope,
  ownerId: string,
  debtorId: number,
  input: PaymentInput,
  now = Date.now(),
  also?: {
    onlyIf?: SQL;
    andThen?: (inserted: SQL) => BatchItem[];
    provider?: { id: string; source?: "stripe" | "xero" | "quickbooks" };
  },
): Promise<PaymentWrite | PaymentWriteError> {
  const amountCents = toCents(input.amount);
  const chosen = await chosenInvoice(db, ownerId, debtorId, input.invoice_id);
  if (chosen === "missing") return { error: "invoice-not-found" };
  const currency = chosen ? sql<string>`${chosen.currency}` : debtors.currency;
  const written = await commitLedgerWrite(
    { env, db, now },
    (consequences) => [
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
              currency: sql<string>`${currency}`.as("currency"),
              invoiceId: sql<number | null>`${chosen?.id ?? null}`.as("invoice_id"),
              paidOn: sql<string>`${input.paid_on}`.as("paid_on"),
              note: sql<string>`${input.note ?? ""}`.as("note"),
              createdAt: sql<number>`${now}`.as("created_at"),
              source: sql<
                "manual" | "stripe" | "xero" | "quickbooks"
              >`${also?.provider ? (also.provider.source ?? "stripe") : "manual"}`.as("source"),
              providerPaymentId: sql<string | null>`${also?.provider?.id ?? null}`.as("provider_payment_id"),
            })
            .from(debtors)
            .where(
              and(
                ownedDebtor(ownerId, debtorId),
                sql`${availableSql(debtorId, chosen ? chosen.currency : sql`${debtors.currency}`, chosen?.id ?? null)} >= ${amountCents}`,
                sql`(SELECT count(*) FROM ${payments} WHERE ${payments.debtorId} = ${debtorId}) < ${MAX_PAYMENTS_PER_DEBTOR}`,
                also?.onlyIf,
              ),
            ),
        )
        .returning(paymentColumns),
      // The payment just inserted: the debtor's newest, made now, not yet allocated.
      ...allocatePaymentStatements(db, justInserted(ownerId, debtorId, now)),
      // Written back to the accounting tool when the account asks (decisions/063): queued in this batch.
      writebackOutboxStatement(db, ownerId, justInserted(ownerId, debtorId, now), now),
      writebackOutcomeQuery(db, ownerId, insertedId(ownerId, debtorId, now)),
      ...settleStatements(consequences, db, ownerId, debtorId, now),
      ...(also?.andThen?.(insertedNow(ownerId, debtorId, now)) ?? []),
    ],
    {
      overPaid: () => overOwedNow(db, ownerId, debtorId, 0),
    },
  );
  if ("refused" in written) return written.refused;
  const { results } = written;
  const settledAt = 3 + ALLOCATE_STATEMENTS;
  const after = readSettled(results.slice(settledAt, settledAt + SETTLE_STATEMENTS));
  if (!after) return { error: "not-found" };
  const [payment] = results[0] as PaymentRow[];
  if (!payment) return refusal(db, debtorId, after.debtor, 0, chosen?.id ?? null);
  // What paid the principal, and when, changed: the late-payment charges follow (decisions/065).
  await accrueAfterWrite({ db, ownerId, now }, [debtorId]);
  return { payment, ...after, books: readBooksOutcome(results[settledAt - 1]) };
}

/** The id of the payment addPayment inserts: the debtor's newest, made `now` (null when none was). */
const insertedId = (ownerId: string, debtorId: number, now: number) =>
  sql`(SELECT max(id) FROM payments WHERE debtor_id = ${debtorId} AND owner_id = ${ownerId} AND created_at = ${now})`;

/** That payment, as a condition on `p` (payments AS p). */
const justInserted = (ownerId: string, debtorId: number, now: number) =>
  sql`p.id = (SELECT max(id) FROM payments WHERE debtor_id = ${debtorId} AND owner_id = ${ownerId}) AND p.created_at = ${now}`;

export type BatchItem = Parameters<Db["batch"]>[0][number];

/** Holds, later in addPayment's batch, when the payment it inserts (the debtor's, made `now`) exists. */
const insertedNow = (ownerId: string, debtorId: number, now: number) =>
  sql`EXISTS (SELECT 1 FROM ${payments} WHERE ${payments.debtorId} = ${debtorId} AND ${payments.ownerId} = ${ownerId} AND ${payments.createdAt} = ${now})`;

/** Why an add or edit that wrote nothing was refused, for a debtor that exists. */
async function refusal(
  db: Db,
  debtorId: number,
  debtor: DebtorBalance,
  ownAmountCents: number,
  invoiceId: number | null = null,
): Promise<PaymentWriteError> {
  if (ownAmountCents === 0) {
    const [{ n } = { n: 0 }] = await db.select({ n: count() }).from(payments).where(eq(payments.debtorId, debtorId));
    if (n >= MAX_PAYMENTS_PER_DEBTOR) return { error: "too-many" };
  }
  const chosen =
    invoiceId === null
      ? undefined
      : await db
          .select({ left: availableSql(debtorId, sql`${invoices.currency}`, invoiceId), currency: invoices.currency })
          .from(invoices)
          .where(eq(invoices.id, invoiceId))
          .get();
  const [{ open } = { open: 0 }] = chosen
    ? [{ open: chosen.left }]
    : await db
        .select({ open: availableSql(debtorId, debtor.currency, null) })
        .from(debtors)
        .where(eq(debtors.id, debtorId));
  return {
    error: "over-owed",
    maxCents: Math.max(0, open) + ownAmountCents,
    currency: chosen?.currency ?? debtor.currency,
  };
}

/**
 * Changes the owner's payment: what it paid is released, then its new amount is allocated as a
 * new payment's would be (to its chosen invoice, or oldest due first), at most what is owed once
 * its old allocation is released (checked in the UPDATE itself). A refused amount leaves the
 * payment as it was, allocated again the same way. The lifecycle disarms the schedules it completed.
 */
export async function editPayment(
  { env, db }: DataScope,
  ownerId: string,
  paymentId: number,
  input: PaymentInput,
  now = Date.now(),
): Promise<PaymentWrite | PaymentWriteError> {
  const existing = await getPaymentWithDebtor(db, ownerId, paymentId);
  if (!existing) return { error: "not-found" };
  const amountCents = toCents(input.amount);
  const invoiceId = existing.invoiceId;
  const written = await commitLedgerWrite(
    { env, db, now },
    (consequences) => [
      db.delete(paymentAllocations).where(eq(paymentAllocations.paymentId, paymentId)),
      releaseChargeAllocationsStatement(db, ownerId, paymentId),
      ...settleLedgerStatements(db, ownerId, existing.debtorId, now),
      db
        .update(payments)
        .set({ amountCents, paidOn: input.paid_on, note: input.note ?? "" })
        .where(
          and(
            eq(payments.ownerId, ownerId),
            eq(payments.id, paymentId),
            sql`${availableSql(existing.debtorId, existing.paymentCurrency, invoiceId)} >= ${amountCents}`,
          ),
        )
        .returning(paymentColumns),
      ...allocatePaymentStatements(db, sql`p.id = ${paymentId} AND p.owner_id = ${ownerId}`),
      ...settleStatements(consequences, db, ownerId, existing.debtorId, now),
    ],
    {
      overPaid: () => overOwedNow(db, ownerId, existing.debtorId, existing.amountCents),
    },
  );
  if ("refused" in written) return written.refused;
  const { results } = written;
  // [release ×2, settle ledger ×4, update, allocate ×3, settle …]
  const updatedAt = 6;
  const after = readSettled(results.slice(updatedAt + 1 + ALLOCATE_STATEMENTS));
  if (!after) return { error: "not-found" };
  const [payment] = results[updatedAt] as PaymentRow[];
  if (!payment) {
    // Deleted meanwhile, or more than is owed.
    const still = await getPaymentWithDebtor(db, ownerId, paymentId);
    return still ? refusal(db, existing.debtorId, after.debtor, still.amountCents, invoiceId) : { error: "not-found" };
  }
  await accrueAfterWrite({ db, ownerId, now }, [existing.debtorId]);
  return { payment, ...after };
}

/** Deletes the owner's payment: exactly what it paid is owed again, but no schedule restarts by itself. */
export async function deletePayment(
  { env, db }: DataScope,
  ownerId: string,
  paymentId: number,
  now = Date.now(),
): Promise<PaymentWrite | { error: "not-found" }> {
  const existing = await getPaymentWithDebtor(db, ownerId, paymentId);
  if (!existing) return { error: "not-found" };
  const [, , deleted, ...settled] = (
    await commit(
      { env, db, now },
      (consequences) =>
        [
          releaseChargeAllocationsStatement(db, ownerId, paymentId),
          db
            .delete(paymentAllocations)
            .where(
              sql`${paymentAllocations.paymentId} IN (SELECT ${payments.id} FROM ${payments} WHERE ${payments.id} = ${paymentId} AND ${payments.ownerId} = ${ownerId})`,
            ),
          db
            .delete(payments)
            .where(and(eq(payments.ownerId, ownerId), eq(payments.id, paymentId)))
            .returning(paymentColumns),
          ...settleStatements(consequences, db, ownerId, existing.debtorId, now),
        ] as const,
    )
  ).results;
  const after = readSettled(settled);
  const [payment] = deleted;
  if (!after || !payment) return { error: "not-found" };
  await accrueAfterWrite({ db, ownerId, now }, [existing.debtorId]);
  return { payment, ...after };
}

/**
 * The payments recorded on the owner's invoice from its accounting tool (source 'xero'), newest
 * first: what the sync may take back when the books no longer have them (decisions/062). Never a
 * payment the user recorded, nor one paid online.
 */
export async function syncedPaymentsOn(db: Db, ownerId: string, debtorId: number, invoiceId: number) {
  return db
    .select({ id: payments.id, amountCents: payments.amountCents })
    .from(payments)
    .where(
      and(
        eq(payments.debtorId, debtorId),
        eq(payments.ownerId, ownerId),
        eq(payments.invoiceId, invoiceId),
        eq(payments.source, "xero"),
      ),
    )
    .orderBy(desc(payments.id));
}

// Resuming ----------------------------------------------------------------------------------------

// The JSON API's shapes ----------------------------------------------------------------------------

/** A payment as the API answers it (snake_case, a decimal amount). */
export function paymentToJson(p: PaymentRow) {
  return {
    id: p.id,
    debtor_id: p.debtorId,
    amount: fromCents(p.amountCents),
    currency: p.currency,
    invoice_id: p.invoiceId,
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

/**
 * For the batch of a payment that pays the debtor in full (app/ledger/ledger.server.ts): a pending
 * promise simply ends (nothing open or disputed is left, so there is nothing to break). Without it
 * the watchdog ends it the same way on its date.
 */
export function endPromiseWhenPaidStatement(db: Db, ownerId: string, debtorId: number, now: number) {
  return db
    .update(debtors)
    .set({ promisedOn: null, promiseEndsAt: null, updatedAt: now })
    .where(
      and(
        and(eq(debtors.ownerId, ownerId), eq(debtors.id, debtorId)),
        isNotNull(debtors.promisedOn),
        sql`NOT ${hasOpenInvoice(debtorId)}`,
        sql`NOT ${hasDisputedInvoice(debtorId)}`,
      ),
    );
}
