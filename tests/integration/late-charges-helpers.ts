import { env } from "cloudflare:workers";
import { RATES } from "~/domain/late-charges/test-rates";
import { makeDebtor, makeUser } from "./fixtures";

/**
 * Late-payment charges in the tests (decisions/065): charge rows made straight in D1, the account's
 * terms, and the rows read back as D1 stores them.
 */

export interface ChargeFields {
  kind?: "interest" | "compensation" | "fee";
  amountCents: number;
  currency?: string;
  paidCents?: number;
  accruedThrough?: string;
  basis?: unknown;
}

/** A charge on the owner's invoice, as a raw row (its debtor is the invoice's). */
export async function makeCharge(ownerId: string, invoiceId: number, f: ChargeFields) {
  const row = await env.DB.prepare(
    `INSERT INTO charges (owner_id, debtor_id, invoice_id, kind, currency, amount_cents, paid_cents, basis, accrued_through)
     SELECT owner_id, debtor_id, id, ?, ?, ?, ?, ?, ? FROM invoices WHERE id = ? AND owner_id = ? RETURNING id`,
  )
    .bind(
      f.kind ?? "interest",
      f.currency ?? "USD",
      f.amountCents,
      f.paidCents ?? 0,
      JSON.stringify(f.basis ?? { test: true }),
      f.accruedThrough ?? "2026-11-25",
      invoiceId,
      ownerId,
    )
    .first<{ id: number }>();
  return row!.id;
}

export interface TermsFields {
  enabled?: boolean;
  rule?: string;
  compensation?: boolean;
  paymentOrder?: "principal_first" | "charges_first";
  contractKind?: "fixed" | "percent_once" | "percent_monthly" | null;
  contractFeeCents?: number | null;
  contractFeeCurrency?: string | null;
  contractRateBp?: number | null;
  contractGraceDays?: number;
  contractCapBp?: number | null;
}

/** The account's late-charge terms, written straight in D1 (replacing any). */
export async function setTerms(ownerId: string, f: TermsFields = {}) {
  await env.DB.prepare(
    `INSERT OR REPLACE INTO late_charge_terms (owner_id, enabled, rule, compensation, contract_kind, contract_fee_cents,
       contract_fee_currency, contract_rate_bp, contract_grace_days, contract_cap_bp, payment_order)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  )
    .bind(
      ownerId,
      f.enabled === false ? 0 : 1,
      f.rule ?? "gb",
      f.compensation === false ? 0 : 1,
      f.contractKind ?? null,
      f.contractFeeCents ?? null,
      f.contractFeeCurrency ?? null,
      f.contractRateBp ?? null,
      f.contractGraceDays ?? 0,
      f.contractCapBp ?? null,
      f.paymentOrder ?? "principal_first",
    )
    .run();
}

export interface ChargeRow {
  id: number;
  invoice_id: number;
  kind: string;
  currency: string;
  amount_cents: number;
  paid_cents: number;
  basis: string;
  accrued_through: string;
  waived_at: number | null;
  waived_by: string | null;
  waived_cents: number | null;
}

/** The debtor's charges, by invoice then kind. */
export async function chargesOf(debtorId: number) {
  return (
    await env.DB.prepare(
      "SELECT id, invoice_id, kind, currency, amount_cents, paid_cents, basis, accrued_through, waived_at, waived_by, waived_cents FROM charges WHERE debtor_id = ? ORDER BY invoice_id, kind",
    )
      .bind(debtorId)
      .all<ChargeRow>()
  ).results;
}

/** What payment `paymentId` paid on charges, by charge. */
export async function chargeAllocationsOf(paymentId: number) {
  return (
    await env.DB.prepare(
      "SELECT charge_id, amount_cents FROM charge_allocations WHERE payment_id = ? ORDER BY charge_id",
    )
      .bind(paymentId)
      .all<{ charge_id: number; amount_cents: number }>()
  ).results;
}

/** The debtor's invoices, by due date. */
export async function invoiceRowsOf(debtorId: number) {
  return (
    await env.DB.prepare(
      "SELECT id, number, amount_cents, paid_cents, status, due_on FROM invoices WHERE debtor_id = ? ORDER BY due_on, id",
    )
      .bind(debtorId)
      .all<{
        id: number;
        number: string | null;
        amount_cents: number;
        paid_cents: number;
        status: string;
        due_on: string;
      }>()
  ).results;
}

/** Makes the debtor a company (only companies are charged). */
export async function makeCompany(debtorId: number) {
  await env.DB.prepare("UPDATE debtors SET kind = 'company' WHERE id = ?").bind(debtorId).run();
}

/**
 * The published reference rates the rules' tests use, in the global table: the seed migration
 * (0045) holds the same and more (kept as they are).
 */
export async function seedRates() {
  await env.DB.batch(
    RATES.map((r) =>
      env.DB.prepare(
        "INSERT OR IGNORE INTO reference_rates (series, effective_on, rate_bp, source) VALUES (?, ?, ?, 'test')",
      ).bind(r.series, r.effectiveOn, r.rateBp),
    ),
  );
}

/**
 * A company debtor of a new user with UK terms on (compensation included), owing one £4,000.00
 * invoice due 30 Sep 2026 (interest from 1 Oct at the seeded Bank Rate of 30 June 2026, 3.75%, + 8% = 11.75% a year).
 */
export async function ukCompanyOwing(terms: TermsFields = {}) {
  await seedRates();
  const user = await makeUser();
  const debtor = await makeDebtor(user.id, { debtCents: 400_000, currency: "GBP" });
  await env.DB.prepare("UPDATE invoices SET due_on = '2026-09-30', issued_on = '2026-08-31' WHERE id = ?")
    .bind(debtor.invoiceId)
    .run();
  await makeCompany(debtor.id);
  await setTerms(user.id, { rule: "gb", ...terms });
  return { user, debtor };
}
