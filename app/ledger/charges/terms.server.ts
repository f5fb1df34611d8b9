import { asc, eq } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { lateChargeTerms, referenceRates } from "~/db/schema";
import { isLateChargeRule, type LateChargeTerms, type ReferenceRate } from "~/domain/late-charges";

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

/** The terms and the rates, read together (one batch). */
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
