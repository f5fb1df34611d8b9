import { addDays, addMonths, dayNumber, isoDay } from "./days";
import { fixingDate, rateInForce, ruleRateBp } from "./rates";
import { type Exact, minorUnitCents, roundDown, roundHalfUp } from "./rounding";
import {
  type ContractKind,
  type ContractTerms,
  compensationFor,
  type Fixing,
  type LateChargeTerms,
  type RateSeries,
  type ReferenceRate,
  type StatutoryRule,
  type StatutoryRuleId,
  statutoryRule,
} from "./rules";

/** An invoice as the maths needs it: its amount, due date, what paid its principal and when, its pauses. */
export interface InvoiceHistory {
  currency: string;
  amountCents: number;
  /** YYYY-MM-DD */
  dueOn: string;
  /** What paid its principal, by the payment's paid_on: from that day on, that much bears no interest. */
  payments: readonly { on: string; cents: number }[];
  /** charge_pauses: no interest from fromOn (inclusive) to toOn (exclusive; null: still paused). */
  pauses: readonly { fromOn: string; toOn: string | null }[];
}

/** Days at one yearly rate on one principal, both ends inclusive. */
export interface RatePeriod {
  from: string;
  to: string;
  days: number;
  principalCents: number;
  /** The yearly rate applied: reference + margin (rounded where the law says). */
  rateBp: number;
  /** The reference rate it came from, and the day it was fixed on. */
  referenceBp: number;
  fixedOn: string;
}

/** Months a monthly percentage charged on one principal: `months` months, the first starting `from`. */
export interface MonthRun {
  from: string;
  months: number;
  principalCents: number;
}

/**
 * How a charge was computed, stored as JSON in charges.basis and put in words by describeCharge.
 * `v` is the shape's version.
 */
export type ChargeBasis =
  | {
      v: 1;
      type: "statutory_interest";
      rule: StatutoryRuleId;
      currency: string;
      series: RateSeries;
      marginBp: number;
      fixing: Fixing;
      dayCount: "actual/365";
      periods: RatePeriod[];
    }
  | {
      v: 1;
      type: "statutory_compensation";
      rule: StatutoryRuleId;
      currency: string;
      /** The debt the band was chosen by: the principal unpaid on the first day it was late. */
      debtCents: number;
      /** The fixed sum (the rule's band for debtCents when it was computed). */
      cents: number;
    }
  | {
      v: 1;
      type: "contract";
      kind: ContractKind;
      currency: string;
      graceDays: number;
      /** The first day anything could be charged (the day after due date + grace). */
      fromOn: string;
      /** "fixed": the fee; otherwise null. */
      feeCents: number | null;
      /** "percent_once" / "percent_monthly": the percentage; otherwise null. */
      rateBp: number | null;
      /** "percent_once": the principal it was taken of. */
      principalCents: number | null;
      /** "percent_monthly": the months charged. */
      months: MonthRun[];
      capBp: number | null;
      /** The cap in cents (capBp of the invoice, rounded down to the currency's unit); null: none. */
      capCents: number | null;
      /** True when the cap lowered the charge; uncappedCents is what it would have been. */
      capped: boolean;
      uncappedCents: number;
      invoiceCents: number;
    };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null;

/**
 * True when `value` (charges.basis, parsed from its JSON) has a shape describeCharge can put in
 * words: a caller reading a stored basis checks it rather than trusting the column.
 */
export function isChargeBasis(value: unknown): value is ChargeBasis {
  if (!isObject(value) || value.v !== 1 || typeof value.currency !== "string") return false;
  if (value.type === "statutory_interest") {
    return (
      typeof value.rule === "string" &&
      Array.isArray(value.periods) &&
      value.periods.every(
        (p) =>
          isObject(p) &&
          typeof p.from === "string" &&
          typeof p.to === "string" &&
          typeof p.days === "number" &&
          typeof p.principalCents === "number" &&
          typeof p.rateBp === "number",
      )
    );
  }
  if (value.type === "statutory_compensation") {
    return typeof value.rule === "string" && typeof value.debtCents === "number" && typeof value.cents === "number";
  }
  if (value.type === "contract") {
    return (
      (value.kind === "fixed" || value.kind === "percent_once" || value.kind === "percent_monthly") &&
      typeof value.graceDays === "number" &&
      Array.isArray(value.months) &&
      typeof value.capped === "boolean"
    );
  }
  return false;
}

export interface ComputedCharge {
  kind: "interest" | "compensation" | "fee";
  cents: number;
  basis: ChargeBasis;
}

/** Why an invoice has no charge (yet). */
export type NoChargeReason =
  | "not-late" // throughOn is not after the due date
  | "paid" // nothing was unpaid when it became late (or when grace ended)
  | "grace" // still within the contract's grace days
  | "other-currency" // the invoice is not in the statutory rule's (or the fixed fee's) currency
  | "no-contract" // rule 'contract' without terms
  | "unknown-rule"; // a rule id Dunly does not have

export type ComputeResult =
  | { charges: ComputedCharge[]; none?: { reason: NoChargeReason; currency?: string } }
  | { error: "no-rate"; series: string; on: string };

/** The principal unpaid on each day: the invoice's amount less what paid it on or before that day. */
function principalOn(invoice: InvoiceHistory): (day: string) => number {
  const payments = [...invoice.payments].sort((a, b) => a.on.localeCompare(b.on));
  return (day) => {
    let unpaid = invoice.amountCents;
    for (const p of payments) {
      if (p.on > day) break;
      unpaid -= p.cents;
    }
    return Math.max(0, unpaid);
  };
}

function pausedOn(invoice: InvoiceHistory): (day: string) => boolean {
  return (day) => invoice.pauses.some((p) => p.fromOn <= day && (p.toOn === null || day < p.toOn));
}

/**
 * Statutory interest accrued from the day after the due date through `throughOn`, exact (before
 * rounding): each day not paused, the principal unpaid that day × the day's yearly rate / 365.
 */
export function statutoryInterestExact(
  rule: StatutoryRule,
  invoice: InvoiceHistory,
  throughOn: string,
  rates: readonly ReferenceRate[],
): { exact: Exact; periods: RatePeriod[] } | { error: "no-rate"; series: string; on: string } {
  const startOn = addDays(invoice.dueOn, 1);
  const principal = principalOn(invoice);
  const paused = pausedOn(invoice);
  const rateByFixing = new Map<string, ReferenceRate | null>();
  const periods: RatePeriod[] = [];
  let num = 0n;
  const last = dayNumber(throughOn);
  for (let n = dayNumber(startOn); n <= last; n++) {
    const day = isoDay(n);
    if (paused(day)) continue;
    const cents = principal(day);
    if (cents <= 0) continue;
    const fixedOn = fixingDate(rule, startOn, day);
    let reference = rateByFixing.get(fixedOn);
    if (reference === undefined) {
      reference = rateInForce(rule.series, fixedOn, rates);
      rateByFixing.set(fixedOn, reference);
    }
    if (!reference) return { error: "no-rate", series: rule.series, on: fixedOn };
    const rateBp = ruleRateBp(rule, reference.rateBp);
    num += BigInt(cents) * BigInt(rateBp);
    const prev = periods.at(-1);
    if (prev && prev.principalCents === cents && prev.rateBp === rateBp && dayNumber(prev.to) === n - 1) {
      prev.to = day;
      prev.days += 1;
    } else {
      periods.push({
        from: day,
        to: day,
        days: 1,
        principalCents: cents,
        rateBp,
        referenceBp: reference.rateBp,
        fixedOn,
      });
    }
  }
  // Yearly rate in basis points over 365 days: cents × bp / (10,000 × 365) a day.
  return { exact: { num, den: 3_650_000n }, periods };
}

function statutoryCharges(
  rule: StatutoryRule,
  terms: LateChargeTerms,
  invoice: InvoiceHistory,
  throughOn: string,
  rates: readonly ReferenceRate[],
): ComputeResult {
  if (invoice.currency.toUpperCase() !== rule.currency) {
    return { charges: [], none: { reason: "other-currency", currency: rule.currency } };
  }
  const charges: ComputedCharge[] = [];
  const accrued = statutoryInterestExact(rule, invoice, throughOn, rates);
  if ("error" in accrued) return accrued;
  const cents = roundHalfUp(accrued.exact, minorUnitCents(invoice.currency));
  if (cents > 0) {
    charges.push({
      kind: "interest",
      cents,
      basis: {
        v: 1,
        type: "statutory_interest",
        rule: rule.id,
        currency: rule.currency,
        series: rule.series,
        marginBp: rule.marginBp,
        fixing: rule.fixing,
        dayCount: "actual/365",
        periods: accrued.periods,
      },
    });
  }
  if (terms.compensation) {
    const debtCents = principalOn(invoice)(addDays(invoice.dueOn, 1));
    const fixed = compensationFor(rule, debtCents);
    if (fixed > 0) {
      charges.push({
        kind: "compensation",
        cents: fixed,
        basis: {
          v: 1,
          type: "statutory_compensation",
          rule: rule.id,
          currency: rule.currency,
          debtCents,
          cents: fixed,
        },
      });
    }
  }
  return { charges };
}

function contractCharges(contract: ContractTerms, invoice: InvoiceHistory, throughOn: string): ComputeResult {
  const fromOn = addDays(invoice.dueOn, contract.graceDays + 1);
  if (throughOn < fromOn) return { charges: [], none: { reason: "grace" } };
  const currency = invoice.currency.toUpperCase();
  if (contract.kind === "fixed" && (contract.feeCurrency ?? "").toUpperCase() !== currency) {
    return { charges: [], none: { reason: "other-currency", currency: contract.feeCurrency ?? undefined } };
  }
  const principal = principalOn(invoice);
  const paused = pausedOn(invoice);
  const unit = minorUnitCents(currency);
  let exact: Exact = { num: 0n, den: 1n };
  let principalCents: number | null = null;
  const months: MonthRun[] = [];
  if (contract.kind === "percent_monthly") {
    // Each month started after grace, on the principal unpaid on its first day (none on a paused one).
    let sum = 0n;
    let lastK = -2;
    for (let k = 0; ; k++) {
      const start = addMonths(fromOn, k);
      if (start > throughOn) break;
      const cents = principal(start);
      if (paused(start) || cents <= 0) continue;
      sum += BigInt(cents) * BigInt(contract.rateBp ?? 0);
      const prev = months.at(-1);
      if (prev && prev.principalCents === cents && lastK === k - 1) {
        prev.months += 1;
      } else {
        months.push({ from: start, months: 1, principalCents: cents });
      }
      lastK = k;
    }
    exact = { num: sum, den: 10_000n };
  } else {
    // Once: on the first day after grace that is not paused and still has principal unpaid.
    let on: string | null = null;
    for (let n = dayNumber(fromOn), last = dayNumber(throughOn); n <= last; n++) {
      const day = isoDay(n);
      if (!paused(day) && principal(day) > 0) {
        on = day;
        break;
      }
    }
    if (on === null) return { charges: [], none: { reason: "paid" } };
    if (contract.kind === "fixed") {
      exact = { num: BigInt(contract.feeCents ?? 0), den: 1n };
    } else {
      principalCents = principal(on);
      exact = { num: BigInt(principalCents) * BigInt(contract.rateBp ?? 0), den: 10_000n };
    }
  }
  const uncappedCents = roundHalfUp(exact, unit);
  const capCents =
    contract.capBp === null
      ? null
      : roundDown({ num: BigInt(invoice.amountCents) * BigInt(contract.capBp), den: 10_000n }, unit);
  const cents = capCents === null ? uncappedCents : Math.min(uncappedCents, capCents);
  if (cents <= 0) return { charges: [], none: { reason: "paid" } };
  return {
    charges: [
      {
        kind: contract.kind === "percent_monthly" ? "interest" : "fee",
        cents,
        basis: {
          v: 1,
          type: "contract",
          kind: contract.kind,
          currency,
          graceDays: contract.graceDays,
          fromOn,
          feeCents: contract.kind === "fixed" ? contract.feeCents : null,
          rateBp: contract.kind === "fixed" ? null : contract.rateBp,
          principalCents,
          months,
          capBp: contract.capBp,
          capCents,
          capped: cents < uncappedCents,
          uncappedCents,
          invoiceCents: invoice.amountCents,
        },
      },
    ],
  };
}

/**
 * The charges an invoice has accrued through `throughOn` (inclusive) under `terms`: an empty list
 * (with the reason) when none apply, or "no-rate" when a reference rate the rule needs is missing
 * (the operator adds it: scripts/reference-rates.mjs). Pure: the caller reads the invoice's
 * payments, pauses and the rates, and decides whether the debtor may be charged at all (a company,
 * the terms on). Dates are "YYYY-MM-DD"; one that is not a calendar date throws a RangeError.
 */
export function computeCharges(
  terms: LateChargeTerms,
  invoice: InvoiceHistory,
  throughOn: string,
  rates: readonly ReferenceRate[],
): ComputeResult {
  if (throughOn <= invoice.dueOn) return { charges: [], none: { reason: "not-late" } };
  if (principalOn(invoice)(addDays(invoice.dueOn, 1)) <= 0) return { charges: [], none: { reason: "paid" } };
  if (terms.rule === "contract") {
    return terms.contract
      ? contractCharges(terms.contract, invoice, throughOn)
      : { charges: [], none: { reason: "no-contract" } };
  }
  const rule = statutoryRule(terms.rule);
  if (!rule) return { charges: [], none: { reason: "unknown-rule" } };
  return statutoryCharges(rule, terms, invoice, throughOn, rates);
}
