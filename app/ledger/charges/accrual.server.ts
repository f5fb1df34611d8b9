import { and, eq, inArray, sql } from "drizzle-orm";
import { chunk, IDS_PER_STATEMENT, unique } from "~/db/chunk";
import type { Db } from "~/db/client.server";
import { chargePauses, charges, debtors, invoices, lateChargeTerms, paymentAllocations, payments } from "~/db/schema";
import { type ComputedCharge, computeCharges, type InvoiceHistory, type ReferenceRate } from "~/domain/late-charges";
import { pauseDay } from "./pauses.server";
import { debtorCharged, lateChargeTermsOf, ratesQuery, type TermsRow, termsQuery } from "./terms.server";

/**
 * Accruing late-payment charges (decisions/065). The charges of an invoice are a function of its
 * history (amount, due date, what paid its principal and when, the pauses), the account's terms and
 * the reference rates: `accrueCharges` reads those for the owner's debtors, asks the rules
 * (app/domain/late-charges, computeCharges) and upserts one `charges` row per invoice and kind,
 * with its basis and the day it is accrued through. It never writes a charge below what was paid
 * on it, and leaves a waived charge as it is. A charge that no longer applies (the debtor is a
 * person, charges were turned off for them, the invoice was voided or is no longer late) goes when
 * nothing was paid on it, and is cut to what was paid otherwise; turned on again, it is accrued
 * again from the invoice's history.
 *
 * Cost: per 50 debtors, one batch of five reads (debtors, invoices, allocations, pauses, charges);
 * per 100 of their invoices, one batch of three writes, each binding one JSON array (json_each),
 * so D1's 100 bound values are never reached. The terms and the rates are read once per call.
 */

/** Invoices written per batch (three statements, each one JSON array). */
const INVOICES_PER_WRITE = 100;

type ChargeKind = ComputedCharge["kind"];

/** What an accrual did: the invoices accrued, the charges written, and the rates it lacked. */
export interface AccrualOutcome {
  invoices: number;
  written: number;
  missingRates: { series: string; on: string }[];
}

/** What the accrual needs: the database, the owner it acts for, and the time (for updated_at). */
export interface AccrualScope {
  db: Db;
  ownerId: string;
  now: number;
}

interface InvoiceRead {
  id: number;
  debtorId: number;
  currency: string;
  amountCents: number;
  paidCents: number;
  dueOn: string;
  status: "open" | "paid" | "void" | "disputed";
}

interface ChargeRead {
  id: number;
  invoiceId: number;
  kind: ChargeKind;
  paidCents: number;
  basis: string;
  waivedAt: number | null;
}

/** One charge row to upsert, with the invoice as it was read (written only if it is still so). */
interface UpsertRow {
  i: number;
  k: ChargeKind;
  c: string;
  a: number;
  b: string;
  amt: number;
  paid: number;
  due: string;
  st: string;
}

/**
 * Accrues the charges of the owner's debtors `debtorIds` through `throughOn` (YYYY-MM-DD,
 * inclusive). Only their invoices due before `throughOn`, or with charges already, are read.
 */
export async function accrueCharges(
  scope: AccrualScope,
  debtorIds: readonly number[],
  throughOn: string,
): Promise<AccrualOutcome> {
  const outcome: AccrualOutcome = { invoices: 0, written: 0, missingRates: [] };
  const ids = unique(debtorIds);
  if (ids.length === 0) return outcome;
  // The terms first: an account that never set any (most: every ledger write asks) has no charges
  // to accrue or take back, and nothing more is read. Then the rates, the whole small table.
  const [terms] = await termsQuery(scope.db, scope.ownerId);
  if (!terms) return outcome;
  const rates = await ratesQuery(scope.db);
  for (const slice of chunk(ids, IDS_PER_STATEMENT)) {
    await accrueSlice(scope, slice, throughOn, terms, rates, outcome);
  }
  return outcome;
}

async function accrueSlice(
  { db, ownerId, now }: AccrualScope,
  debtorIds: number[],
  throughOn: string,
  terms: TermsRow | undefined,
  rates: readonly ReferenceRate[],
  outcome: AccrualOutcome,
) {
  const [debtorRows, invoiceRows, allocationRows, pauseRows, chargeRows] = await db.batch([
    db
      .select({ id: debtors.id, kind: debtors.kind, lateCharges: debtors.lateCharges })
      .from(debtors)
      .where(and(eq(debtors.ownerId, ownerId), inArray(debtors.id, debtorIds))),
    db
      .select({
        id: invoices.id,
        debtorId: invoices.debtorId,
        currency: invoices.currency,
        amountCents: invoices.amountCents,
        paidCents: invoices.paidCents,
        dueOn: invoices.dueOn,
        status: invoices.status,
      })
      .from(invoices)
      .where(
        and(
          eq(invoices.ownerId, ownerId),
          inArray(invoices.debtorId, debtorIds),
          sql`(${invoices.dueOn} < ${throughOn} OR EXISTS (SELECT 1 FROM charges AS c WHERE c.invoice_id = "invoices"."id"))`,
        ),
      ),
    db
      .select({ invoiceId: paymentAllocations.invoiceId, on: payments.paidOn, cents: paymentAllocations.amountCents })
      .from(paymentAllocations)
      .innerJoin(payments, eq(payments.id, paymentAllocations.paymentId))
      .where(and(eq(payments.ownerId, ownerId), inArray(payments.debtorId, debtorIds))),
    db
      .select({ invoiceId: chargePauses.invoiceId, fromOn: chargePauses.fromOn, toOn: chargePauses.toOn })
      .from(chargePauses)
      .innerJoin(invoices, eq(invoices.id, chargePauses.invoiceId))
      .where(and(eq(chargePauses.ownerId, ownerId), inArray(invoices.debtorId, debtorIds))),
    db
      .select({
        id: charges.id,
        invoiceId: charges.invoiceId,
        kind: charges.kind,
        paidCents: charges.paidCents,
        basis: charges.basis,
        waivedAt: charges.waivedAt,
      })
      .from(charges)
      .where(and(eq(charges.ownerId, ownerId), inArray(charges.debtorId, debtorIds))),
  ]);
  const lateTerms = lateChargeTermsOf(terms);
  const charged = new Map(debtorRows.map((d) => [d.id, lateTerms !== null && debtorCharged(d, terms)]));
  const paidBy = groupBy(allocationRows, (a) => a.invoiceId);
  const pausedBy = groupBy(pauseRows, (p) => p.invoiceId);
  const chargesBy = groupBy(chargeRows as ChargeRead[], (c) => c.invoiceId);

  const upserts: UpsertRow[] = [];
  const gone: { id: number; invoiceId: number }[] = [];
  const accrued: number[] = [];
  for (const invoice of invoiceRows as InvoiceRead[]) {
    let computed: ComputedCharge[] = [];
    if (lateTerms && charged.get(invoice.debtorId) && invoice.status !== "void" && invoice.dueOn < throughOn) {
      const history: InvoiceHistory = {
        currency: invoice.currency,
        amountCents: invoice.amountCents,
        dueOn: invoice.dueOn,
        payments: (paidBy.get(invoice.id) ?? []).map((p) => ({ on: p.on, cents: p.cents })),
        pauses: (pausedBy.get(invoice.id) ?? []).map((p) => ({ fromOn: p.fromOn, toOn: p.toOn })),
      };
      const result = computeCharges(lateTerms, history, throughOn, rates);
      if ("error" in result) {
        // A reference rate not yet published or entered: the charges stay as they were until it is.
        outcome.missingRates.push({ series: result.series, on: result.on });
        accrued.push(invoice.id);
        continue;
      }
      computed = result.charges;
    }
    accrued.push(invoice.id);
    const fingerprint = {
      amt: invoice.amountCents,
      paid: invoice.paidCents,
      due: invoice.dueOn,
      st: invoice.status,
    };
    const existing = chargesBy.get(invoice.id) ?? [];
    const kinds = new Set<ChargeKind>();
    for (const charge of computed) {
      if (charge.cents <= 0) continue;
      kinds.add(charge.kind);
      upserts.push({
        i: invoice.id,
        k: charge.kind,
        c: invoice.currency,
        a: Math.max(0, Math.round(charge.cents)),
        b: JSON.stringify(charge.basis),
        ...fingerprint,
      });
    }
    for (const charge of existing) {
      if (kinds.has(charge.kind) || charge.waivedAt !== null) continue;
      if (charge.paidCents === 0) gone.push({ id: charge.id, invoiceId: invoice.id });
      // Paid in part: it stays at what was paid (the upsert never goes below it).
      else upserts.push({ i: invoice.id, k: charge.kind, c: invoice.currency, a: 0, b: charge.basis, ...fingerprint });
    }
  }
  for (let at = 0; at < accrued.length; at += INVOICES_PER_WRITE) {
    const slice = new Set(accrued.slice(at, at + INVOICES_PER_WRITE));
    const rows = upserts.filter((u) => slice.has(u.i));
    const goneIds = gone.filter((g) => slice.has(g.invoiceId)).map((g) => g.id);
    await db.batch([
      upsertChargesStatement(db, ownerId, rows, throughOn, now),
      deleteChargesStatement(db, ownerId, goneIds, throughOn),
      db
        .update(invoices)
        .set({ chargesThrough: throughOn })
        .where(
          and(
            eq(invoices.ownerId, ownerId),
            sql`${invoices.id} IN (SELECT value FROM json_each(${JSON.stringify([...slice])}))`,
          ),
        ),
    ]);
    outcome.written += rows.length + goneIds.length;
  }
  outcome.invoices += accrued.length;
}

/**
 * The charges `rows` (one JSON array) upserted by (invoice_id, kind): only for the owner's invoices
 * still as they were read (amount, paid, due date, status: a write that changed one meanwhile is
 * followed by its own accrual), never below what was paid on a charge, never on a waived one, and
 * never back to an earlier day.
 */
function upsertChargesStatement(db: Db, ownerId: string, rows: UpsertRow[], throughOn: string, now: number) {
  const field = (name: keyof UpsertRow) => sql.raw(`json_extract(j.value, '$.${name}')`);
  return db
    .insert(charges)
    .select(
      sql`SELECT null, i.owner_id, i.debtor_id, i.id, ${field("k")}, ${field("c")}, ${field("a")}, 0, ${field("b")}, ${throughOn}, null, null, null, ${now}, ${now}
  FROM json_each(${JSON.stringify(rows)}) AS j
  JOIN invoices AS i ON i.id = ${field("i")} AND i.owner_id = ${ownerId} AND i.amount_cents = ${field("amt")}
    AND i.paid_cents = ${field("paid")} AND i.due_on = ${field("due")} AND i.status = ${field("st")}
  WHERE true`,
    )
    .onConflictDoUpdate({
      target: [charges.invoiceId, charges.kind],
      set: {
        amountCents: sql`max(excluded.amount_cents, ${charges.paidCents})`,
        basis: sql`excluded.basis`,
        accruedThrough: sql`excluded.accrued_through`,
        updatedAt: now,
      },
      setWhere: sql`${charges.waivedAt} IS NULL AND ${charges.accruedThrough} <= excluded.accrued_through`,
    });
}

/**
 * The owner's charges `ids` deleted, if still unpaid, unwaived and unallocated, and not accrued
 * through a later day than this accrual's (which then knows better).
 */
function deleteChargesStatement(db: Db, ownerId: string, ids: number[], throughOn: string) {
  return db
    .delete(charges)
    .where(
      and(
        eq(charges.ownerId, ownerId),
        sql`${charges.id} IN (SELECT value FROM json_each(${JSON.stringify(ids)}))`,
        eq(charges.paidCents, 0),
        sql`${charges.waivedAt} IS NULL`,
        sql`${charges.accruedThrough} <= ${throughOn}`,
        sql`NOT EXISTS (SELECT 1 FROM charge_allocations AS ca WHERE ca.charge_id = "charges"."id")`,
      ),
    );
}

function groupBy<T, K>(rows: readonly T[], key: (row: T) => K): Map<K, T[]> {
  const map = new Map<K, T[]>();
  for (const row of rows) {
    const k = key(row);
    const list = map.get(k);
    if (list) list.push(row);
    else map.set(k, [row]);
  }
  return map;
}

/**
 * After a committed ledger write (a payment, an invoice, a dispute, a sync): the owner's debtors'
 * charges accrued through today again. The write stands whatever happens here: a failure is logged,
 * and the watchdog's daily accrual puts it right.
 */
export async function accrueAfterWrite(scope: AccrualScope, debtorIds: readonly number[]) {
  try {
    return await accrueCharges(scope, debtorIds, pauseDay(scope.now));
  } catch (error) {
    console.error("[dunly] could not accrue late-payment charges", error);
    return undefined;
  }
}

/** How long after an account's terms changed the watchdog looks for its charges that may no longer apply. */
const TERMS_CHANGED_WITHIN_MS = 24 * 60 * 60 * 1000;

/** Invoices the watchdog accrues per run (the rest wait five minutes): a bounded cost per run. */
export const DAILY_ACCRUAL_PER_RUN = 300;

/**
 * The watchdog's daily accrual: up to `limit` invoices not yet accrued through today (UTC), of
 * company debtors charged under their account's terms, open or disputed and past due, are accrued
 * through today, by owner. Driven from the accounts with terms (late_charge_terms, one row per
 * account that ever opened the tab), through their debtors (owner-first index) to the invoices
 * (invoices_debtor_idx); an invoice done today is not read again. Then, with room left, invoices
 * holding charges not accrued since their account's terms changed. Returns what it accrued.
 */
export async function runDailyAccrual(db: Db, now: number, limit = DAILY_ACCRUAL_PER_RUN) {
  const today = pauseDay(now);
  const due = await db
    .select({ ownerId: invoices.ownerId, debtorId: invoices.debtorId })
    .from(invoices)
    .innerJoin(debtors, eq(debtors.id, invoices.debtorId))
    .innerJoin(sql`late_charge_terms AS t`, sql`t.owner_id = ${debtors.ownerId}`)
    .where(
      and(
        eq(debtors.kind, "company"),
        sql`(${debtors.lateCharges} = 'on' OR (t.enabled = 1 AND ${debtors.lateCharges} IS NULL))`,
        inArray(invoices.status, ["open", "disputed"]),
        sql`${invoices.dueOn} < ${today}`,
        sql`(${invoices.chargesThrough} IS NULL OR ${invoices.chargesThrough} < ${today})`,
      ),
    )
    .limit(limit);
  // And, of the accounts whose terms changed in the last day (accrueAccount), invoices holding
  // charges not accrued since: charges that may no longer apply, whoever the debtor is now. Read
  // through those accounts' own charges (charges_owner_debtor_idx), never the whole table.
  const stale =
    due.length < limit
      ? await db
          .selectDistinct({ ownerId: charges.ownerId, debtorId: charges.debtorId })
          .from(lateChargeTerms)
          .innerJoin(charges, eq(charges.ownerId, lateChargeTerms.ownerId))
          .innerJoin(invoices, eq(invoices.id, charges.invoiceId))
          .where(
            and(
              sql`${lateChargeTerms.updatedAt} > ${now - TERMS_CHANGED_WITHIN_MS}`,
              sql`${invoices.chargesThrough} IS NULL`,
              sql`${charges.waivedAt} IS NULL`,
            ),
          )
          .limit(limit - due.length)
      : [];
  const byOwner = groupBy([...due, ...stale], (d) => d.ownerId);
  const total: AccrualOutcome = { invoices: 0, written: 0, missingRates: [] };
  for (const [ownerId, rows] of byOwner) {
    const out = await accrueCharges(
      { db, ownerId, now },
      rows.map((r) => r.debtorId),
      today,
    );
    total.invoices += out.invoices;
    total.written += out.written;
    total.missingRates.push(...out.missingRates);
  }
  return total;
}

/** Debtors accrued at once when the account's terms change; the watchdog takes the rest within minutes. */
export const TERMS_CHANGE_DEBTORS = 200;

/**
 * After the account's terms changed: every invoice of the account is to be accrued again (its
 * charges_through cleared, one statement), the first TERMS_CHANGE_DEBTORS company debtors with a
 * late invoice or a charge are accrued now, and the watchdog's daily accrual takes the rest (it reads
 * invoices never accrued that hold charges, so charges that no longer apply go too).
 */
export async function accrueAccount(scope: AccrualScope) {
  const { db, ownerId } = scope;
  const today = pauseDay(scope.now);
  const [, rows] = await db.batch([
    db
      .update(invoices)
      .set({ chargesThrough: null })
      .where(and(eq(invoices.ownerId, ownerId), sql`${invoices.chargesThrough} IS NOT NULL`)),
    db
      .select({ id: debtors.id })
      .from(debtors)
      .where(
        and(
          eq(debtors.ownerId, ownerId),
          // Qualified by hand: in a one-table select drizzle writes a column unqualified, which the
          // subquery's own table would take.
          sql`(EXISTS (SELECT 1 FROM charges AS c WHERE c.debtor_id = "debtors"."id") OR ("debtors"."kind" = 'company' AND EXISTS (SELECT 1 FROM invoices AS i WHERE i.debtor_id = "debtors"."id" AND i.status IN ('open', 'disputed') AND i.due_on < ${today})))`,
        ),
      )
      .limit(TERMS_CHANGE_DEBTORS),
  ]);
  return accrueCharges(
    scope,
    rows.map((r) => r.id),
    today,
  );
}
