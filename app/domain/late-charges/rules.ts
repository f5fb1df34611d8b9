/**
 * The late-payment rules as data (decisions/064): which reference rate each law uses, its margin,
 * how the rate is fixed over a debt's life, its fixed compensation and the law's own name. Adding a
 * member state is adding a row here, never a code branch. Client-safe: the settings form lists them.
 */

/** The reference-rate series Dunly keeps (table reference_rates, seeded and added to by an operator). */
export type RateSeries = "ecb_mro" | "boe_base" | "de_basiszins";
export const RATE_SERIES: readonly RateSeries[] = ["ecb_mro", "boe_base", "de_basiszins"];

export interface RateSeriesInfo {
  /** English name, as the publisher calls it. */
  name: string;
  publisher: string;
  /**
   * True when the publisher states the rate on every 1 January and 1 July even when it did not change
   * (the Basiszinssatz): a half-year without its own row is missing, never "unchanged".
   */
  everyHalfYear: boolean;
}

export const RATE_SERIES_INFO: Record<RateSeries, RateSeriesInfo> = {
  ecb_mro: { name: "ECB main refinancing operations rate", publisher: "European Central Bank", everyHalfYear: false },
  boe_base: { name: "Bank of England Bank Rate", publisher: "Bank of England", everyHalfYear: false },
  de_basiszins: { name: "Basiszinssatz (§ 247 BGB)", publisher: "Deutsche Bundesbank", everyHalfYear: true },
};

export function isRateSeries(value: unknown): value is RateSeries {
  return typeof value === "string" && (RATE_SERIES as readonly string[]).includes(value);
}

/** A reference rate: a change of `series` to `rateBp` (basis points, 1% = 100) effective from `effectiveOn`. */
export interface ReferenceRate {
  series: RateSeries | string;
  effectiveOn: string;
  rateBp: number;
}

/**
 * How a rule fixes the reference rate over a debt's life.
 * - "half_year" (Directive 2011/7/EU): each day's rate is the reference rate in force on the first
 *   day of that day's half-year (1 January for January–June, 1 July for July–December), so a debt
 *   running across 1 July changes rate there.
 * - "fixed_at_start" (UK Act 1998, s. 6): one rate for the whole life of the debt, the reference rate
 *   in force on 31 December (interest starting January–June) or 30 June (starting July–December)
 *   before the half-year in which interest starts to run.
 */
export type Fixing = "half_year" | "fixed_at_start";

/** A compensation step: a debt of at least `fromCents` earns `cents` (the highest step that fits). */
export interface CompensationBand {
  fromCents: number;
  cents: number;
}

/** A law as a sentence names it: `law` as the law itself is named, `english` after "under". */
export interface LawName {
  law: string;
  english: string;
}

export type StatutoryRuleId = "gb" | "de" | "fr" | "nl" | "be" | "ie" | "es" | "it" | "fi" | "lu";
export type LateChargeRuleId = StatutoryRuleId | "contract";

export interface StatutoryRule {
  id: StatutoryRuleId;
  /** English name of the country. */
  country: string;
  /** The only currency the rule charges in: an invoice in any other gets no statutory charge. */
  currency: "EUR" | "GBP";
  series: RateSeries;
  /** Points over the reference rate, in basis points (8 points = 800). */
  marginBp: number;
  fixing: Fixing;
  /**
   * Round the yearly rate (reference + margin) UP to a multiple of this many basis points, where
   * the law says so (Belgium: to the next half point, 50); null: no rounding.
   */
  roundUpBp: number | null;
  interestLaw: LawName;
  compensationLaw: LawName;
  /** By the debt's size, ascending; the EU's single €40 is one band from 0. */
  compensation: readonly CompensationBand[];
  /** Where the margin and compensation were checked (decisions/064). */
  source: string;
}

const EUR_40: readonly CompensationBand[] = [{ fromCents: 0, cents: 4000 }];

export const STATUTORY_RULES: readonly StatutoryRule[] = [
  {
    id: "gb",
    country: "United Kingdom",
    currency: "GBP",
    series: "boe_base",
    marginBp: 800,
    fixing: "fixed_at_start",
    roundUpBp: null,
    interestLaw: {
      law: "Late Payment of Commercial Debts (Interest) Act 1998",
      english: "the Late Payment of Commercial Debts (Interest) Act 1998",
    },
    compensationLaw: {
      law: "Late Payment of Commercial Debts (Interest) Act 1998, section 5A",
      english: "section 5A of the Late Payment of Commercial Debts (Interest) Act 1998",
    },
    compensation: [
      { fromCents: 0, cents: 4000 },
      { fromCents: 100_000, cents: 7000 },
      { fromCents: 1_000_000, cents: 10_000 },
    ],
    source: "https://www.gov.uk/late-commercial-payments-interest-debt-recovery",
  },
  {
    id: "de",
    country: "Germany",
    currency: "EUR",
    series: "de_basiszins",
    marginBp: 900,
    fixing: "half_year",
    roundUpBp: null,
    interestLaw: { law: "§ 288 Abs. 2 BGB", english: "§ 288 Abs. 2 BGB" },
    compensationLaw: { law: "§ 288 Abs. 5 BGB", english: "§ 288 Abs. 5 BGB" },
    compensation: EUR_40,
    source: "https://www.gesetze-im-internet.de/bgb/__288.html",
  },
  {
    id: "fr",
    country: "France",
    currency: "EUR",
    series: "ecb_mro",
    marginBp: 1000,
    fixing: "half_year",
    roundUpBp: null,
    interestLaw: {
      law: "article L441-10 du Code de commerce",
      english: "article L441-10 of the Code de commerce",
    },
    compensationLaw: {
      law: "articles L441-10 et D441-5 du Code de commerce",
      english: "articles L441-10 and D441-5 of the Code de commerce",
    },
    compensation: EUR_40,
    source: "https://www.legifrance.gouv.fr/codes/article_lc/LEGIARTI000038414479",
  },
  {
    id: "nl",
    country: "Netherlands",
    currency: "EUR",
    series: "ecb_mro",
    marginBp: 800,
    fixing: "half_year",
    roundUpBp: null,
    interestLaw: { law: "artikel 6:119a BW", english: "article 6:119a of the Burgerlijk Wetboek" },
    compensationLaw: { law: "artikel 6:96 lid 4 BW", english: "article 6:96(4) of the Burgerlijk Wetboek" },
    compensation: EUR_40,
    source: "https://wetten.overheid.nl/BWBR0005289/Boek6/Titel1/Afdeling9/Artikel119a",
  },
];

const RULE_BY_ID = new Map(STATUTORY_RULES.map((rule) => [rule.id as string, rule]));

/** The statutory rule of `id`, or undefined for 'contract' or one Dunly does not have. */
export function statutoryRule(id: string): StatutoryRule | undefined {
  return RULE_BY_ID.get(id);
}

export function isStatutoryRule(value: unknown): value is StatutoryRuleId {
  return typeof value === "string" && RULE_BY_ID.has(value);
}

export function isLateChargeRule(value: unknown): value is LateChargeRuleId {
  return value === "contract" || isStatutoryRule(value);
}

/** The statutory compensation for a debt of `debtCents` under `rule` (cents of rule.currency). */
export function compensationFor(rule: StatutoryRule, debtCents: number): number {
  let cents = 0;
  for (const band of rule.compensation) if (debtCents >= band.fromCents) cents = band.cents;
  return cents;
}

/** The user's own contract terms (late_charge_terms' contract_* columns). */
export type ContractKind = "fixed" | "percent_once" | "percent_monthly";
export const CONTRACT_KINDS: readonly ContractKind[] = ["fixed", "percent_once", "percent_monthly"];

export interface ContractTerms {
  kind: ContractKind;
  /** "fixed": the fee, in cents of feeCurrency. */
  feeCents: number | null;
  feeCurrency: string | null;
  /** "percent_once": of the unpaid principal; "percent_monthly": a month (basis points, 1.5% = 150). */
  rateBp: number | null;
  /** Days after the due date before anything is charged. */
  graceDays: number;
  /** At most this share of the invoice's amount (basis points, 10% = 1000); null: no cap. */
  capBp: number | null;
}

export interface LateChargeTerms {
  rule: LateChargeRuleId;
  /** The statutory fixed compensation on top of statutory interest (ignored for 'contract'). */
  compensation: boolean;
  /** Required when rule is 'contract'. */
  contract: ContractTerms | null;
}

/**
 * What the settings form, its schema and the operator's script accept. Rates in basis points, fees
 * in cents, grace in days. Inclusive.
 */
export const CONTRACT_LIMITS = {
  /** A fixed fee: 0.01 to 10,000.00. */
  feeCents: { min: 1, max: 1_000_000 },
  /** A percentage once: 0.01% to 25% of the unpaid principal. */
  percentOnceBp: { min: 1, max: 2500 },
  /** A monthly percentage: 0.01% to 5% a month. */
  percentMonthlyBp: { min: 1, max: 500 },
  /** Grace: 0 to 365 days after the due date. */
  graceDays: { min: 0, max: 365 },
  /** Cap: 0.01% to 100% of the invoice. */
  capBp: { min: 1, max: 10_000 },
  /** A reference rate an operator adds: 0% to 25%, at most 2 decimals. */
  referenceRateBp: { min: 0, max: 2500 },
} as const;

/**
 * What is wrong with contract terms, field by field (empty when they are valid): for a caller that
 * has the numbers already (the settings form's schema says the same in its own words).
 */
export function contractTermsProblems(terms: ContractTerms): Partial<Record<keyof ContractTerms, string>> {
  const problems: Partial<Record<keyof ContractTerms, string>> = {};
  const within = (n: number | null, r: { min: number; max: number }) =>
    n !== null && Number.isSafeInteger(n) && n >= r.min && n <= r.max;
  if (!CONTRACT_KINDS.includes(terms.kind))
    problems.kind = "Choose a fixed fee, a percentage once or a monthly percentage";
  if (terms.kind === "fixed") {
    if (!within(terms.feeCents, CONTRACT_LIMITS.feeCents)) problems.feeCents = "The fee must be 0.01 to 10,000";
    if (!terms.feeCurrency || !/^[A-Z]{3}$/.test(terms.feeCurrency)) problems.feeCurrency = "Choose the fee's currency";
  }
  if (terms.kind === "percent_once" && !within(terms.rateBp, CONTRACT_LIMITS.percentOnceBp)) {
    problems.rateBp = "The percentage must be 0.01% to 25%";
  }
  if (terms.kind === "percent_monthly" && !within(terms.rateBp, CONTRACT_LIMITS.percentMonthlyBp)) {
    problems.rateBp = "The monthly percentage must be 0.01% to 5%";
  }
  if (!within(terms.graceDays, CONTRACT_LIMITS.graceDays)) problems.graceDays = "Grace must be 0 to 365 days";
  if (terms.capBp !== null && !within(terms.capBp, CONTRACT_LIMITS.capBp))
    problems.capBp = "The cap must be 0.01% to 100%";
  return problems;
}
