import { asc, eq } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { lateChargeTerms, referenceRates } from "~/db/schema";
import { formatDate } from "~/domain/dates";
import {
  formatRate,
  halfYearStart,
  isLateChargeRule,
  type LateChargeTerms,
  RATE_SERIES_INFO,
  type ReferenceRate,
  ruleRateOn,
  STATUTORY_RULES,
} from "~/domain/late-charges";
import { formatMoney } from "~/domain/money";

/**
 * The account's late-payment terms (late_charge_terms, one row per owner, decisions/065) and the
 * published reference rates (one small global table, read whole once per accrual).
 */

export type TermsRow = typeof lateChargeTerms.$inferSelect;

/** The owner's terms row, or undefined (never set: charges are off). */
export function termsQuery(db: Db, ownerId: string) {
  return db.select().from(lateChargeTerms).where(eq(lateChargeTerms.ownerId, ownerId));
}

/** Every reference rate, by series and date. */
export function ratesQuery(db: Db) {
  return db
    .select({ series: referenceRates.series, effectiveOn: referenceRates.effectiveOn, rateBp: referenceRates.rateBp })
    .from(referenceRates)
    .orderBy(asc(referenceRates.series), asc(referenceRates.effectiveOn));
}

/** The terms and the rates, read together (one batch): the settings tab. */
export async function readTermsAndRates(
  db: Db,
  ownerId: string,
): Promise<{ terms: TermsRow | undefined; rates: ReferenceRate[] }> {
  const [[terms], rates] = await db.batch([termsQuery(db, ownerId), ratesQuery(db)]);
  return { terms, rates };
}

/**
 * The stored terms as the late-charge rules take them; null when they cannot charge anything: an
 * unknown rule, or contract terms without a kind.
 */
export function lateChargeTermsOf(row: TermsRow | undefined): LateChargeTerms | null {
  if (!row || !isLateChargeRule(row.rule)) return null;
  if (row.rule !== "contract") return { rule: row.rule, compensation: row.compensation, contract: null };
  if (!row.contractKind) return null;
  return {
    rule: "contract",
    compensation: false,
    contract: {
      kind: row.contractKind,
      feeCents: row.contractFeeCents,
      feeCurrency: row.contractFeeCurrency,
      rateBp: row.contractRateBp,
      graceDays: row.contractGraceDays,
      capBp: row.contractCapBp,
    },
  };
}

/**
 * Whether a debtor is charged: a company, and their own setting 'on', or not 'off' while the account's
 * terms are enabled (the contract's rule).
 */
export function debtorCharged(
  debtor: { kind: "person" | "company"; lateCharges: "on" | "off" | null },
  terms: Pick<TermsRow, "enabled"> | undefined,
) {
  if (debtor.kind !== "company" || !terms) return false;
  return debtor.lateCharges === "on" || (terms.enabled && debtor.lateCharges !== "off");
}

/** The terms as the settings form saves them (app/schemas/late-charges.ts, already checked). */
export interface TermsInput {
  enabled: boolean;
  rule: string;
  compensation: boolean;
  contract_kind?: "fixed" | "percent_once" | "percent_monthly";
  contract_fee?: number;
  contract_fee_currency?: string;
  contract_rate?: number;
  contract_grace_days: number;
  contract_cap?: number;
  payment_order: "principal_first" | "charges_first";
}

const hundredthsOf = (x: number | undefined) => (x === undefined ? null : Math.round(x * 100));

/** The owner's terms written (one row per account); the contract's fields kept only as its kind uses them. */
export async function saveTerms(db: Db, ownerId: string, input: TermsInput, now: number) {
  const contract = input.rule === "contract" ? input.contract_kind : undefined;
  const values = {
    enabled: input.enabled,
    rule: input.rule,
    compensation: input.compensation,
    contractKind: contract ?? null,
    contractFeeCents: contract === "fixed" ? hundredthsOf(input.contract_fee) : null,
    contractFeeCurrency: contract === "fixed" ? (input.contract_fee_currency ?? null) : null,
    contractRateBp: contract && contract !== "fixed" ? hundredthsOf(input.contract_rate) : null,
    contractGraceDays: contract ? input.contract_grace_days : 0,
    contractCapBp: contract ? hundredthsOf(input.contract_cap) : null,
    paymentOrder: input.payment_order,
    updatedAt: now,
  };
  await db
    .insert(lateChargeTerms)
    .values({ ownerId, ...values })
    .onConflictDoUpdate({ target: lateChargeTerms.ownerId, set: values });
}

/**
 * Each statutory rule in words for the settings tab, from the rates in force `today`: "United
 * Kingdom: Bank of England Bank Rate 3.75% + 8.00% = 11.75% a year for debts late from 1 Jul 2026;
 * £40.00–£100.00 compensation per invoice, in GBP only". A rule whose rate is not in the table says so.
 */
export function ruleExplanations(rates: readonly ReferenceRate[], today: string, locale: string) {
  const out: Record<string, string> = {};
  for (const rule of STATUTORY_RULES) {
    const from = halfYearStart(today);
    const rate = ruleRateOn(rule, rates, from);
    const money = (cents: number) => formatMoney(cents, rule.currency, locale);
    const bands = rule.compensation.map((b) => b.cents);
    const low = Math.min(...bands);
    const high = Math.max(...bands);
    const compensation = `${low === high ? money(low) : `${money(low)}–${money(high)}`} compensation per invoice`;
    const series = RATE_SERIES_INFO[rule.series].name;
    const words =
      "error" in rate
        ? `${series} + ${formatRate(rule.marginBp, "en")} a year (the reference rate for ${formatDate(rate.on, locale)} is not in Dunly's table yet: nothing is charged until it is)`
        : `${series} ${formatRate(rate.referenceBp, "en")} + ${formatRate(rule.marginBp, "en")} = ${formatRate(rate.rateBp, "en")} a year ${rule.fixing === "fixed_at_start" ? "for debts late from" : "from"} ${formatDate(from, locale)}${rule.fixing === "half_year" ? " (set again each 1 January and 1 July)" : ""}`;
    out[rule.id] = `${rule.country}: ${words}; ${compensation}, in ${rule.currency} only`;
  }
  return out;
}
