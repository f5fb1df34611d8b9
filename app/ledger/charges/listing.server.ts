import { and, asc, eq } from "drizzle-orm";
import { bindParam, OWNER_ID, preparedQuery } from "~/db/prepared.server";
import { charges } from "~/db/schema";
import { formatDate } from "~/domain/dates";
import { type ChargeBasis, chargeLabel, describeCharge, isChargeBasis } from "~/domain/late-charges";
import { formatMoney } from "~/domain/money";

/**
 * The debtor page's late-payment charges (decisions/065): each invoice's charge lines with what was
 * paid, whether and by whom it was waived, and how it was computed in words (describeCharge, in the
 * user's language 'en', money and dates in the user's formats).
 */

/** The owner's debtor's charges, for the page's batch (prepared once per isolate): bound with the owner and `debtorId`. */
export const debtorChargesQuery = preparedQuery((db) =>
  db
    .select({
      id: charges.id,
      invoiceId: charges.invoiceId,
      kind: charges.kind,
      currency: charges.currency,
      amountCents: charges.amountCents,
      paidCents: charges.paidCents,
      basis: charges.basis,
      accruedThrough: charges.accruedThrough,
      waivedAt: charges.waivedAt,
      waivedBy: charges.waivedBy,
      waivedCents: charges.waivedCents,
    })
    .from(charges)
    .where(and(eq(charges.ownerId, OWNER_ID), eq(charges.debtorId, bindParam("debtorId"))))
    .orderBy(asc(charges.invoiceId), asc(charges.id))
    .limit(1500),
);

export type ChargeRowRead = {
  id: number;
  invoiceId: number;
  kind: "interest" | "compensation" | "fee";
  currency: string;
  amountCents: number;
  paidCents: number;
  basis: string;
  accruedThrough: string;
  waivedAt: number | null;
  waivedBy: string | null;
  waivedCents: number | null;
};

/** A charge line as the debtor page shows it (client-safe JSON). */
export interface ChargeView {
  id: number;
  invoiceId: number;
  kind: "interest" | "compensation" | "fee";
  label: string;
  /** How it was computed, in words. */
  basis: string;
  currency: string;
  amountCents: number;
  paidCents: number;
  /** What is still owed on it: 0 once paid or waived. */
  owedCents: number;
  accruedThrough: string;
  waived: { at: number; by: string; cents: number } | null;
}

/** A charge's label when its stored basis cannot be read. */
const FALLBACK_LABELS = { interest: "Interest", compensation: "Compensation", fee: "Late fee" } as const;

/** The rows as the page shows them; a charge with nothing charged and nothing waived is left out. */
export function chargeViews(rows: readonly ChargeRowRead[], locale: string): ChargeView[] {
  const format = {
    money: (cents: number, currency: string) => formatMoney(cents, currency, locale),
    date: (d: string) => formatDate(d, locale),
  };
  return rows
    .filter((r) => r.amountCents > 0)
    .map((r) => {
      let basis: ChargeBasis | null = null;
      try {
        const parsed: unknown = JSON.parse(r.basis);
        basis = isChargeBasis(parsed) ? parsed : null;
      } catch {
        basis = null;
      }
      return {
        id: r.id,
        invoiceId: r.invoiceId,
        kind: r.kind,
        label: basis ? chargeLabel(r.kind, basis, "en") : FALLBACK_LABELS[r.kind],
        basis: basis ? describeCharge(r.kind, basis, "en", format) : "",
        currency: r.currency,
        amountCents: r.amountCents,
        paidCents: r.paidCents,
        owedCents: r.waivedAt === null ? Math.max(0, r.amountCents - r.paidCents) : 0,
        accruedThrough: r.accruedThrough,
        waived: r.waivedAt === null ? null : { at: r.waivedAt, by: r.waivedBy ?? "", cents: r.waivedCents ?? 0 },
      };
    });
}
