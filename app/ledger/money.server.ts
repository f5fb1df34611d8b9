import { and, asc, eq, gte, isNull, lte, ne, type SQL, sql } from "drizzle-orm";
import type { Bindable, Db } from "~/db/client.server";
import { bindParam, OWNER_ID, preparedQuery, runBound } from "~/db/prepared.server";
import { charges, debtors, invoiceOwedDays, invoices, payments, users } from "~/db/schema";
import {
  type AgingBounds,
  type AgingRow,
  type AgingSums,
  agingBounds,
  agingRowsOf,
  averageDaysLate,
  chargesCollectedOf,
  collectedOf,
  type PaymentSums,
  type PaymentWindow,
  paymentWindow,
} from "~/domain/aging";

/**
 * The money figures of the dashboard and the report: three
 * statements over the account's own rows, each through an index that starts with the owner
 * (invoice_owed_days' key, invoices_owner_owed_idx, payments_owner_paid_idx), with the user's dates bound as
 * "YYYY-MM-DD" text (app/domain/aging.ts computes them from the user's today).
 */

/** An invoice still owed: open, or disputed until the user resolves it (the partial index's condition, word for word). */
const owed = sql`${invoices.status} IN ('open', 'disputed')`;
const balance = sql`(${invoices.amountCents} - ${invoices.paidCents})`;

type Bounds<T> = { [K in keyof T]: Bindable<string> };

/**
 * The account's owed invoices summed per currency and aging bucket (cents), with their count:
 * one row per currency. Outstanding and overdue are sums of the buckets (agingRowsOf). Read from
 * `invoice_owed_days` (one row per due date and currency, kept by triggers: docs/decisions/028), not
 * from the invoices themselves: the seeded account's 2,400 owed invoices are 530 such rows.
 */
export function agingQuery(db: Db, ownerId: Bindable<string>, b: Bounds<AgingBounds>) {
  // Each column named: D1 returns a batch's rows as objects keyed by column name, and unnamed
  // expressions that differ only in their bound values would share one.
  const bucket = (name: string, from: Bindable<string> | null, before: Bindable<string> | null) => {
    const conditions = [
      from === null ? null : sql`${invoiceOwedDays.dueOn} >= ${from}`,
      before === null ? null : sql`${invoiceOwedDays.dueOn} < ${before}`,
    ].filter((c) => c !== null);
    return sql<number>`coalesce(sum(CASE WHEN ${sql.join(conditions, sql` AND `)} THEN ${invoiceOwedDays.balanceCents} ELSE 0 END), 0)`.as(
      name,
    );
  };
  return db
    .select({
      currency: invoiceOwedDays.currency,
      invoices: sql<number>`sum(${invoiceOwedDays.invoices})`.as("invoices"),
      notYetDue: bucket("not_yet_due", b.today, null),
      days1to30: bucket("days_1_30", b.overdue30, b.today),
      days31to60: bucket("days_31_60", b.overdue60, b.overdue30),
      days61to90: bucket("days_61_90", b.overdue90, b.overdue60),
      over90: bucket("over_90", null, b.overdue90),
    })
    .from(invoiceOwedDays)
    .where(eq(invoiceOwedDays.ownerId, ownerId))
    .groupBy(invoiceOwedDays.currency);
}

/**
 * The account's late-payment charges still owed (decisions/065, 067), summed per currency and aging
 * bucket of their invoice's due date, with how many (as `invoices`, agingRowsOf's shape): apart from
 * the invoices' principal, which agingQuery sums. A waived charge owes nothing; a void invoice's
 * charges are not owed. Through charges_owner_currency_idx (owner, currency, amount, paid).
 */
export function chargeAgingQuery(db: Db, ownerId: Bindable<string>, b: Bounds<AgingBounds>) {
  const owedCharge = sql`(${charges.amountCents} - ${charges.paidCents})`;
  const bucket = (name: string, from: Bindable<string> | null, before: Bindable<string> | null) => {
    const conditions: SQL[] = [];
    if (from !== null) conditions.push(sql`${invoices.dueOn} >= ${from}`);
    if (before !== null) conditions.push(sql`${invoices.dueOn} < ${before}`);
    return sql<number>`coalesce(sum(CASE WHEN ${sql.join(conditions, sql` AND `)} THEN ${owedCharge} ELSE 0 END), 0)`.as(
      name,
    );
  };
  return db
    .select({
      currency: sql<string>`${charges.currency}`.as("currency"),
      invoices: sql<number>`count(*)`.as("invoices"),
      notYetDue: bucket("not_yet_due", b.today, null),
      days1to30: bucket("days_1_30", b.overdue30, b.today),
      days31to60: bucket("days_31_60", b.overdue60, b.overdue30),
      days61to90: bucket("days_61_90", b.overdue90, b.overdue60),
      over90: bucket("over_90", null, b.overdue90),
    })
    .from(charges)
    .innerJoin(invoices, eq(invoices.id, charges.invoiceId))
    .where(
      and(
        eq(charges.ownerId, ownerId),
        isNull(charges.waivedAt),
        sql`${charges.amountCents} > ${charges.paidCents}`,
        ne(invoices.status, "void"),
      ),
    )
    .groupBy(charges.currency);
}

/** The JSON of an aging query's rows (agingQuery's or chargeAgingQuery's), for a one-row statement. */
function agingJson(query: ReturnType<typeof agingQuery> | ReturnType<typeof chargeAgingQuery>) {
  return sql<string>`(SELECT json_group_array(json_object('currency', t.currency, 'invoices', t.invoices, 'notYetDue', t.not_yet_due, 'days1to30', t.days_1_30, 'days31to60', t.days_31_60, 'days61to90', t.days_61_90, 'over90', t.over_90)) FROM (${query}) AS t)`;
}

/** How many of the oldest debts the dashboard lists. */
export const OLDEST_DEBTS = 5;

/** The account's owed invoices with the earliest due dates (then the oldest rows), with their debtor's name. */
export function oldestDebtsQuery(db: Db, ownerId: Bindable<string>, limit = OLDEST_DEBTS) {
  return db
    .select({
      id: invoices.id,
      debtorId: invoices.debtorId,
      fullName: debtors.fullName,
      number: invoices.number,
      currency: invoices.currency,
      dueOn: invoices.dueOn,
      status: invoices.status,
      balanceCents: sql<number>`${balance}`.as("balance_cents"),
    })
    .from(invoices)
    .innerJoin(debtors, eq(debtors.id, invoices.debtorId))
    .where(and(eq(invoices.ownerId, ownerId), owed))
    .orderBy(asc(invoices.dueOn), asc(invoices.id))
    .limit(limit);
}

/**
 * The account's payments dated from `windowStart` to `today`, per currency: what was paid from
 * `monthStart` on (collected this month), and the allocations of the window's payments with their
 * days late summed (the payment's date minus the due date of the invoice it paid, an early or
 * on-time payment counting 0; each payment's allocations read through their primary key).
 */
export function paymentFiguresQuery(db: Db, ownerId: Bindable<string>, w: Bounds<PaymentWindow>) {
  return db
    .select({
      currency: payments.currency,
      collectedCents:
        sql<number>`coalesce(sum(CASE WHEN ${payments.paidOn} >= ${w.monthStart} THEN ${payments.amountCents} ELSE 0 END), 0)`.as(
          "collected_cents",
        ),
      // What the month's payments paid on late-payment charges (charge_allocations, decisions/065):
      // the charges collected, apart from the invoices' principal.
      chargesCollectedCents:
        sql<number>`coalesce(sum(CASE WHEN ${payments.paidOn} >= ${w.monthStart} THEN (SELECT coalesce(sum(ca.amount_cents), 0) FROM charge_allocations AS ca WHERE ca.payment_id = payments.id) ELSE 0 END), 0)`.as(
          "charges_collected_cents",
        ),
      allocations:
        sql<number>`coalesce(sum((SELECT count(*) FROM payment_allocations AS a WHERE a.payment_id = payments.id)), 0)`.as(
          "allocations",
        ),
      daysLate:
        sql<number>`coalesce(sum((SELECT sum(max(0, julianday(payments.paid_on) - julianday(i.due_on))) FROM payment_allocations AS a JOIN invoices AS i ON i.id = a.invoice_id WHERE a.payment_id = payments.id)), 0)`.as(
          "days_late",
        ),
    })
    .from(payments)
    .where(and(eq(payments.ownerId, ownerId), gte(payments.paidOn, w.windowStart), lte(payments.paidOn, w.today)))
    .groupBy(payments.currency);
}

/**
 * The three as one statement (each statement of a batch costs the Worker more than these
 * few rows): one row of three JSON arrays, read from the owner's users row (always there).
 */
function moneyQuery(db: Db, ownerId: Bindable<string>, b: Bounds<AgingBounds>, w: Bounds<PaymentWindow>) {
  const aging = agingQuery(db, ownerId, b);
  const oldest = oldestDebtsQuery(db, ownerId);
  const paid = paymentFiguresQuery(db, ownerId, w);
  return db
    .select({
      aging: agingJson(aging).as("aging"),
      charges: agingJson(chargeAgingQuery(db, ownerId, b)).as("charges"),
      oldest:
        sql<string>`(SELECT json_group_array(json_object('id', o.id, 'debtorId', o.debtor_id, 'fullName', o.full_name, 'number', o.number, 'currency', o.currency, 'dueOn', o.due_on, 'status', o.status, 'balanceCents', o.balance_cents)) FROM (${oldest}) AS o)`.as(
          "oldest",
        ),
      paid: sql<string>`(SELECT json_group_array(json_object('currency', p.currency, 'collectedCents', p.collected_cents, 'chargesCollectedCents', p.charges_collected_cents, 'allocations', p.allocations, 'daysLate', p.days_late)) FROM (${paid}) AS p)`.as(
        "paid",
      ),
    })
    .from(users)
    .where(eq(users.id, ownerId));
}

/** Built once per isolate (app/db/prepared.server.ts): only the owner and the dates are bound. */
const MONEY = {
  all: preparedQuery((db) =>
    moneyQuery(
      db,
      OWNER_ID,
      {
        today: bindParam("today"),
        overdue30: bindParam("overdue30"),
        overdue60: bindParam("overdue60"),
        overdue90: bindParam("overdue90"),
      },
      {
        today: bindParam("today"),
        monthStart: bindParam("monthStart"),
        windowStart: bindParam("windowStart"),
      },
    ),
  ),
  aging: preparedQuery((db) => {
    const b = {
      today: bindParam("today"),
      overdue30: bindParam("overdue30"),
      overdue60: bindParam("overdue60"),
      overdue90: bindParam("overdue90"),
    };
    // One row of two JSON arrays: the invoices' aging and the charges' (one statement, as before).
    return db
      .select({
        aging: agingJson(agingQuery(db, OWNER_ID, b)).as("aging"),
        charges: agingJson(chargeAgingQuery(db, OWNER_ID, b)).as("charges"),
      })
      .from(users)
      .where(eq(users.id, OWNER_ID));
  }),
};

/**
 * The aging statement alone, prepared, for the user's `today` (the report's batch and its CSV): the
 * invoices' and the charges' aging in one row; agingReportOf reads it.
 */
export function agingStatement(db: Db, ownerId: string, today: string) {
  return MONEY.aging(db, { ownerId, ...agingBounds(today) });
}

/** The invoices' aging and, apart, the charges' from agingStatement's row (none: nothing owed). */
export function agingReportOf(rows: readonly { aging: string; charges: string }[] | null): {
  aging: AgingRow[];
  charges: AgingRow[];
} {
  const [row] = rows ?? [];
  return {
    aging: agingRowsOf(jsonArray<AgingSums>(row?.aging)),
    charges: agingRowsOf(jsonArray<AgingSums>(row?.charges)),
  };
}

/** The money statement for the user's `today`, to go in a page's batch (runBatch); moneyOf reads its row. */
export function moneyStatement(db: Db, ownerId: string, today: string) {
  return MONEY.all(db, { ownerId, ...agingBounds(today), ...paymentWindow(today) });
}

/** A JSON array column of moneyStatement's row ([] when absent or damaged). */
function jsonArray<T>(json: string | null | undefined): T[] {
  if (!json) return [];
  try {
    const value: unknown = JSON.parse(json);
    return Array.isArray(value) ? (value as T[]) : [];
  } catch {
    return [];
  }
}

export type OldestDebt = Awaited<ReturnType<typeof oldestDebtsQuery>>[number];

/** What the money section shows. */
export interface Money {
  /** The user's today, "YYYY-MM-DD": what the buckets and the days overdue count from. */
  today: string;
  aging: AgingRow[];
  oldest: OldestDebt[];
  /** The payments of the month less what they paid on charges: the invoices' principal collected. */
  collected: { currency: string; cents: number }[];
  /**
   * Late-payment charges still owed, per currency and bucket of their invoice's due date
   * (`invoices`: how many charges); apart from `aging`, the principal (decisions/067).
   */
  charges: AgingRow[];
  /** What the month's payments paid on charges, per currency. */
  chargesCollected: { currency: string; cents: number }[];
  /** Per allocation, on-time and early payments counting 0; null: no payment in the window. */
  averageDaysLate: number | null;
}

/** The section from moneyStatement's rows (none: the owner is gone, or it failed to load: nothing shown). */
export function moneyOf(
  today: string,
  rows: readonly { aging: string; charges?: string; oldest: string; paid: string }[] | null,
): Money {
  const [row] = rows ?? [];
  const aging = jsonArray<AgingSums>(row?.aging);
  const oldest = jsonArray<OldestDebt>(row?.oldest);
  const paid = jsonArray<PaymentSums>(row?.paid);
  return {
    today,
    aging: agingRowsOf(aging ?? []),
    oldest: (oldest ?? []).map((o) => ({ ...o, balanceCents: Number(o.balanceCents) })),
    collected: collectedOf(paid ?? []),
    charges: agingRowsOf(jsonArray<AgingSums>(row?.charges)),
    chargesCollected: chargesCollectedOf(paid ?? []),
    averageDaysLate: averageDaysLate(paid ?? []),
  };
}

/** The money figures on the user's `today` in one round trip (the tests'; the dashboard batches moneyStatement). */
export async function loadMoney(db: Db, ownerId: string, today: string): Promise<Money> {
  return moneyOf(today, await runBound(moneyStatement(db, ownerId, today)));
}
