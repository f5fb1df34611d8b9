import type { Language } from "../languages";

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

/**
 * A law as a sentence names it: `law` as the law itself is named, `english` after "under" in an
 * English sentence, and `byLanguage` where the law has an official name in a debtor's language
 * too (Belgium's laws are named in French and Dutch).
 */
export interface LawName {
  law: string;
  english: string;
  byLanguage?: Partial<Record<Language, string>>;
}

/** Ireland is not among them (decisions/064: how its rate is fixed and its compensation bands could not be confirmed). */
export type StatutoryRuleId = "gb" | "de" | "fr" | "nl" | "be" | "es" | "it" | "fi" | "lu";
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
    source: "https://www.legifrance.gouv.fr/codes/texte_lc/LEGITEXT000005634379/",
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
    source: "https://wetten.overheid.nl/BWBR0005289/",
  },
  {
    id: "be",
    country: "Belgium",
    currency: "EUR",
    series: "ecb_mro",
    marginBp: 800,
    fixing: "half_year",
    // Art. 5: the ECB rate plus eight points, rounded up to the next half point.
    roundUpBp: 50,
    interestLaw: {
      law: "loi du 2 août 2002 concernant la lutte contre le retard de paiement dans les transactions commerciales, art. 5",
      english:
        "article 5 of the loi du 2 août 2002 concernant la lutte contre le retard de paiement dans les transactions commerciales",
      byLanguage: {
        nl: "wet van 2 augustus 2002 betreffende de bestrijding van de betalingsachterstand bij handelstransacties, art. 5",
      },
    },
    compensationLaw: {
      law: "loi du 2 août 2002 concernant la lutte contre le retard de paiement dans les transactions commerciales, art. 6",
      english:
        "article 6 of the loi du 2 août 2002 concernant la lutte contre le retard de paiement dans les transactions commerciales",
      byLanguage: {
        nl: "wet van 2 augustus 2002 betreffende de bestrijding van de betalingsachterstand bij handelstransacties, art. 6",
      },
    },
    compensation: EUR_40,
    source: "https://etaamb.openjustice.be/fr/loi-du-02-aout-2002_n2002009716.html",
  },
  {
    id: "es",
    country: "Spain",
    currency: "EUR",
    series: "ecb_mro",
    marginBp: 800,
    fixing: "half_year",
    roundUpBp: null,
    interestLaw: { law: "Ley 3/2004, de 29 de diciembre, artículo 7", english: "article 7 of Ley 3/2004" },
    compensationLaw: { law: "Ley 3/2004, de 29 de diciembre, artículo 8", english: "article 8 of Ley 3/2004" },
    compensation: EUR_40,
    source: "https://www.boe.es/buscar/act.php?id=BOE-A-2004-21830",
  },
  {
    id: "it",
    country: "Italy",
    currency: "EUR",
    series: "ecb_mro",
    marginBp: 800,
    fixing: "half_year",
    roundUpBp: null,
    interestLaw: {
      law: "D.Lgs. 9 ottobre 2002, n. 231, art. 5",
      english: "article 5 of Decreto legislativo 9 ottobre 2002, n. 231",
    },
    compensationLaw: {
      law: "D.Lgs. 9 ottobre 2002, n. 231, art. 6",
      english: "article 6 of Decreto legislativo 9 ottobre 2002, n. 231",
    },
    compensation: EUR_40,
    source: "https://www.normattiva.it/uri-res/N2Ls?urn:nir:stato:decreto.legislativo:2002-10-09;231",
  },
  {
    id: "fi",
    country: "Finland",
    currency: "EUR",
    series: "ecb_mro",
    marginBp: 800,
    fixing: "half_year",
    // Korkolaki 12 §: the reference rate is the ECB rate rounded up to the next half point.
    roundUpBp: 50,
    interestLaw: { law: "korkolaki (633/1982) 4 a §", english: "section 4 a of the korkolaki (633/1982)" },
    compensationLaw: {
      law: "laki kaupallisten sopimusten maksuehdoista (30/2013)",
      english: "the laki kaupallisten sopimusten maksuehdoista (30/2013)",
    },
    compensation: EUR_40,
    source: "https://www.finlex.fi/fi/laki/ajantasa/1982/19820633",
  },
  {
    id: "lu",
    country: "Luxembourg",
    currency: "EUR",
    series: "ecb_mro",
    marginBp: 800,
    fixing: "half_year",
    roundUpBp: null,
    interestLaw: {
      law: "loi modifiée du 18 avril 2004 relative aux délais de paiement et aux intérêts de retard",
      english: "the loi modifiée du 18 avril 2004 relative aux délais de paiement et aux intérêts de retard",
    },
    compensationLaw: {
      law: "loi modifiée du 18 avril 2004 relative aux délais de paiement et aux intérêts de retard",
      english: "the loi modifiée du 18 avril 2004 relative aux délais de paiement et aux intérêts de retard",
    },
    compensation: EUR_40,
    source: "https://legilux.public.lu/eli/etat/leg/loi/2013/03/29/n5/jo",
  },
];

const REFERENCE_NAMES: Record<RateSeries, string> = {
  ecb_mro: "the ECB main refinancing rate",
  boe_base: "the Bank of England Bank Rate",
  de_basiszins: "the Basiszinssatz",
};

/**
 * A rule in one English line for the user's settings: "Germany (§ 288 Abs. 2 BGB): the
 * Basiszinssatz + 9 points, set each half-year; €40 compensation per invoice; invoices in EUR only".
 */
export function ruleSummary(rule: StatutoryRule): string {
  const points = `${rule.marginBp / 100} points`;
  const rounding = rule.roundUpBp ? `, rounded up to the next ${rule.roundUpBp / 100} point` : "";
  const fixing = rule.fixing === "half_year" ? "set each half-year" : "fixed for the life of each debt";
  const symbol = rule.currency === "GBP" ? "£" : "€";
  const bands = rule.compensation.map((b) => `${symbol}${b.cents / 100}`);
  const compensation =
    bands.length === 1 ? `${bands[0]} compensation per invoice` : `${bands.join(", ")} compensation by the debt's size`;
  return `${rule.country} (${rule.interestLaw.law}): ${REFERENCE_NAMES[rule.series]} + ${points}${rounding}, ${fixing}; ${compensation}; invoices in ${rule.currency} only`;
}

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
