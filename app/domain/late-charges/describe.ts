import { numberFormat } from "../intl";
import type { Language } from "../languages";
import type { ChargeBasis, ComputedCharge, MonthRun, NoChargeReason, RatePeriod } from "./compute";
import { type LawName, statutoryRule } from "./rules";

/**
 * Charges in words, in the debtor's language (en de fr es nl), for the statement, the e-mail and
 * the portal: what was charged, under which law or terms, at what rate, on what, over which days.
 * Laws keep their own names. Money and dates come formatted by the caller's functions (the
 * debtor's locale); percentages are written here in the language's own style.
 */

export interface ChargeFormat {
  money(cents: number, currency: string): string;
  date(isoDate: string): string;
}

const PERCENT_LOCALE: Record<Language, string> = { en: "en-GB", de: "de-DE", fr: "fr-FR", es: "es-ES", nl: "nl-NL" };

/** "12.75%", "12,75 %", "12,75%": basis points as the language writes a percentage, two decimals. */
export function formatRate(bp: number, language: Language): string {
  return numberFormat(PERCENT_LOCALE[language], {
    style: "percent",
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
  }).format(bp / 10_000);
}

type LabelKey = "statutory_interest" | "statutory_compensation" | "contract_fee" | "contract_interest";

const LABELS: Record<Language, Record<LabelKey, string>> = {
  en: {
    statutory_interest: "Statutory interest",
    statutory_compensation: "Compensation for recovery costs",
    contract_fee: "Late fee",
    contract_interest: "Late-payment interest",
  },
  de: {
    statutory_interest: "Gesetzliche Verzugszinsen",
    statutory_compensation: "Pauschale für Beitreibungskosten",
    contract_fee: "Verzugsgebühr",
    contract_interest: "Vertragliche Verzugszinsen",
  },
  fr: {
    statutory_interest: "Intérêts de retard légaux",
    statutory_compensation: "Indemnité forfaitaire pour frais de recouvrement",
    contract_fee: "Pénalité de retard",
    contract_interest: "Intérêts de retard contractuels",
  },
  es: {
    statutory_interest: "Intereses de demora legales",
    statutory_compensation: "Indemnización por costes de cobro",
    contract_fee: "Recargo por demora",
    contract_interest: "Intereses de demora pactados",
  },
  nl: {
    statutory_interest: "Wettelijke handelsrente",
    statutory_compensation: "Vergoeding voor incassokosten",
    contract_fee: "Kosten wegens te late betaling",
    contract_interest: "Overeengekomen rente wegens te late betaling",
  },
};

function labelKey(kind: ComputedCharge["kind"], basis: ChargeBasis): LabelKey {
  if (basis.type === "statutory_interest") return "statutory_interest";
  if (basis.type === "statutory_compensation") return "statutory_compensation";
  return kind === "interest" ? "contract_interest" : "contract_fee";
}

/** A short label for a statement line: "Statutory interest", "Compensation for recovery costs", "Late fee". */
export function chargeLabel(kind: ComputedCharge["kind"], basis: ChargeBasis, language: Language): string {
  return LABELS[language][labelKey(kind, basis)];
}

interface Words {
  /** The law after the label: " under the … Act 1998" / " (§ 288 Abs. 2 BGB)". */
  under(law: LawName, language: Language): string;
  /** Between the label (and law) and the details. */
  lead: string;
  period(rate: string, principal: string, from: string, to: string, days: number): string;
  /** Joins several rate periods. */
  nextPeriod: string;
  compensation(amount: string): string;
  compensationFor(amount: string, debt: string): string;
  agreed: string;
  fixedFee(fee: string): string;
  percentOf(rate: string, principal: string): string;
  months(rate: string, runs: { principal: string; months: number; from: string }[]): string;
  grace(days: number): string;
  cap(rate: string, amount: string): string;
  none: Record<NoChargeReason, (currency: string) => string>;
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

const WORDS: Record<Language, Words> = {
  en: {
    under: (law) => ` under ${law.english}`,
    lead: " ",
    period: (rate, principal, from, to, days) =>
      `at ${rate} a year on ${principal} from ${from} to ${to} (${plural(days, "day", "days")})`,
    nextPeriod: "; then ",
    compensation: (amount) => `: a fixed ${amount} per invoice`,
    compensationFor: (amount, debt) => `: a fixed ${amount} for a debt of ${debt}`,
    agreed: " under the agreed payment terms: ",
    fixedFee: (fee) => `a fixed ${fee}`,
    percentOf: (rate, principal) => `${rate} of ${principal}`,
    months: (rate, runs) =>
      `${rate} a month ${runs
        .map((r) => `on ${r.principal} for ${plural(r.months, "month", "months")} from ${r.from}`)
        .join(", then ")}`,
    grace: (days) => `, after ${plural(days, "day", "days")} of grace`,
    cap: (rate, amount) => `, capped at ${rate} of the invoice (${amount})`,
    none: {
      "not-late": () => "Not overdue: no late-payment charges.",
      paid: () => "Paid before any late-payment charge was due.",
      grace: () => "Within the agreed grace period: no late-payment charges yet.",
      "other-currency": (currency) => `No late-payment charges: the rule applies only to invoices in ${currency}.`,
      "no-contract": () => "No late-payment terms are set.",
      "unknown-rule": () => "No late-payment rule applies.",
    },
  },
  de: {
    under: (law, language) => ` (${law.byLanguage?.[language] ?? law.law})`,
    lead: ": ",
    period: (rate, principal, from, to, days) =>
      `${rate} p. a. auf ${principal} vom ${from} bis ${to} (${plural(days, "Tag", "Tage")})`,
    nextPeriod: "; danach ",
    compensation: (amount) => `: pauschal ${amount} je Rechnung`,
    compensationFor: (amount, debt) => `: pauschal ${amount} bei einer Forderung von ${debt}`,
    agreed: " gemäß den vereinbarten Zahlungsbedingungen: ",
    fixedFee: (fee) => `pauschal ${fee}`,
    percentOf: (rate, principal) => `${rate} von ${principal}`,
    months: (rate, runs) =>
      `${rate} monatlich ${runs
        .map((r) => `auf ${r.principal} für ${plural(r.months, "Monat", "Monate")} ab ${r.from}`)
        .join(", danach ")}`,
    grace: (days) => `, nach ${plural(days, "Tag", "Tagen")} Karenz`,
    cap: (rate, amount) => `, höchstens ${rate} der Rechnung (${amount})`,
    none: {
      "not-late": () => "Nicht überfällig: keine Verzugskosten.",
      paid: () => "Bezahlt, bevor Verzugskosten anfielen.",
      grace: () => "Innerhalb der vereinbarten Karenzzeit: noch keine Verzugskosten.",
      "other-currency": (currency) => `Keine Verzugskosten: die Regel gilt nur für Rechnungen in ${currency}.`,
      "no-contract": () => "Keine Bedingungen für Verzugskosten festgelegt.",
      "unknown-rule": () => "Keine Regel für Verzugskosten anwendbar.",
    },
  },
  fr: {
    under: (law, language) => ` (${law.byLanguage?.[language] ?? law.law})`,
    lead: " : ",
    period: (rate, principal, from, to, days) =>
      `${rate} l’an sur ${principal} du ${from} au ${to} (${plural(days, "jour", "jours")})`,
    nextPeriod: " ; puis ",
    compensation: (amount) => ` : ${amount} par facture`,
    compensationFor: (amount, debt) => ` : ${amount} pour une créance de ${debt}`,
    agreed: " selon les conditions de paiement convenues : ",
    fixedFee: (fee) => `forfait de ${fee}`,
    percentOf: (rate, principal) => `${rate} de ${principal}`,
    months: (rate, runs) =>
      `${rate} par mois ${runs
        .map((r) => `sur ${r.principal} pendant ${plural(r.months, "mois", "mois")} à partir du ${r.from}`)
        .join(", puis ")}`,
    grace: (days) => `, après un délai de grâce de ${plural(days, "jour", "jours")}`,
    cap: (rate, amount) => `, plafonné à ${rate} de la facture (${amount})`,
    none: {
      "not-late": () => "Pas en retard : aucune pénalité de retard.",
      paid: () => "Payée avant toute pénalité de retard.",
      grace: () => "Dans le délai de grâce convenu : pas encore de pénalité de retard.",
      "other-currency": (currency) =>
        `Aucune pénalité de retard : la règle ne s’applique qu’aux factures en ${currency}.`,
      "no-contract": () => "Aucune condition de pénalité de retard n’est définie.",
      "unknown-rule": () => "Aucune règle de pénalité de retard ne s’applique.",
    },
  },
  es: {
    under: (law, language) => ` (${law.byLanguage?.[language] ?? law.law})`,
    lead: ": ",
    period: (rate, principal, from, to, days) =>
      `${rate} anual sobre ${principal} del ${from} al ${to} (${plural(days, "día", "días")})`,
    nextPeriod: "; después ",
    compensation: (amount) => `: ${amount} por factura`,
    compensationFor: (amount, debt) => `: ${amount} por una deuda de ${debt}`,
    agreed: " según las condiciones de pago acordadas: ",
    fixedFee: (fee) => `importe fijo de ${fee}`,
    percentOf: (rate, principal) => `${rate} de ${principal}`,
    months: (rate, runs) =>
      `${rate} mensual ${runs
        .map((r) => `sobre ${r.principal} durante ${plural(r.months, "mes", "meses")} desde el ${r.from}`)
        .join(", después ")}`,
    grace: (days) => `, tras ${plural(days, "día", "días")} de gracia`,
    cap: (rate, amount) => `, con un límite del ${rate} de la factura (${amount})`,
    none: {
      "not-late": () => "No vencida: sin cargos por demora.",
      paid: () => "Pagada antes de que se devengara ningún cargo por demora.",
      grace: () => "Dentro del periodo de gracia acordado: aún sin cargos por demora.",
      "other-currency": (currency) => `Sin cargos por demora: la norma solo se aplica a facturas en ${currency}.`,
      "no-contract": () => "No hay condiciones de cargos por demora.",
      "unknown-rule": () => "No se aplica ninguna norma de cargos por demora.",
    },
  },
  nl: {
    under: (law, language) => ` (${law.byLanguage?.[language] ?? law.law})`,
    lead: ": ",
    period: (rate, principal, from, to, days) =>
      `${rate} per jaar over ${principal} van ${from} tot en met ${to} (${plural(days, "dag", "dagen")})`,
    nextPeriod: "; daarna ",
    compensation: (amount) => `: vast bedrag van ${amount} per factuur`,
    compensationFor: (amount, debt) => `: vast bedrag van ${amount} bij een vordering van ${debt}`,
    agreed: " volgens de overeengekomen betalingsvoorwaarden: ",
    fixedFee: (fee) => `vast bedrag van ${fee}`,
    percentOf: (rate, principal) => `${rate} van ${principal}`,
    months: (rate, runs) =>
      `${rate} per maand ${runs
        .map((r) => `over ${r.principal} gedurende ${plural(r.months, "maand", "maanden")} vanaf ${r.from}`)
        .join(", daarna ")}`,
    grace: (days) => `, na ${plural(days, "dag", "dagen")} respijt`,
    cap: (rate, amount) => `, begrensd op ${rate} van de factuur (${amount})`,
    none: {
      "not-late": () => "Niet te laat: geen kosten wegens te late betaling.",
      paid: () => "Betaald voordat er kosten wegens te late betaling waren.",
      grace: () => "Binnen de overeengekomen respijttermijn: nog geen kosten wegens te late betaling.",
      "other-currency": (currency) =>
        `Geen kosten wegens te late betaling: de regel geldt alleen voor facturen in ${currency}.`,
      "no-contract": () => "Er zijn geen voorwaarden voor kosten wegens te late betaling ingesteld.",
      "unknown-rule": () => "Er geldt geen regel voor kosten wegens te late betaling.",
    },
  },
};

function periodsText(periods: readonly RatePeriod[], currency: string, w: Words, language: Language, f: ChargeFormat) {
  return periods
    .map((p) =>
      w.period(
        formatRate(p.rateBp, language),
        f.money(p.principalCents, currency),
        f.date(p.from),
        f.date(p.to),
        p.days,
      ),
    )
    .join(w.nextPeriod);
}

/**
 * One charge in words, e.g. "Statutory interest under the Late Payment of Commercial Debts
 * (Interest) Act 1998 at 12.75% a year on £4,000.00 from 1 Oct 2026 to 28 Nov 2026 (59 days)";
 * several rate periods each say their own rate.
 */
export function describeCharge(
  kind: ComputedCharge["kind"],
  basis: ChargeBasis,
  language: Language,
  format: ChargeFormat,
): string {
  const w = WORDS[language];
  const label = chargeLabel(kind, basis, language);
  if (basis.type === "statutory_interest" || basis.type === "statutory_compensation") {
    const rule = statutoryRule(basis.rule);
    const under = rule
      ? w.under(basis.type === "statutory_interest" ? rule.interestLaw : rule.compensationLaw, language)
      : "";
    if (basis.type === "statutory_interest") {
      // English reads "… Act 1998 at 12.75% a year …"; the others put a colon after the law.
      return `${label}${under}${w.lead}${periodsText(basis.periods, basis.currency, w, language, format)}`;
    }
    const amount = format.money(basis.cents, basis.currency);
    const banded = (rule?.compensation.length ?? 1) > 1;
    return `${label}${under}${banded ? w.compensationFor(amount, format.money(basis.debtCents, basis.currency)) : w.compensation(amount)}`;
  }
  let what: string;
  if (basis.kind === "fixed") what = w.fixedFee(format.money(basis.feeCents ?? 0, basis.currency));
  else if (basis.kind === "percent_once")
    what = w.percentOf(
      formatRate(basis.rateBp ?? 0, language),
      format.money(basis.principalCents ?? 0, basis.currency),
    );
  else
    what = w.months(
      formatRate(basis.rateBp ?? 0, language),
      basis.months.map((r: MonthRun) => ({
        principal: format.money(r.principalCents, basis.currency),
        months: r.months,
        from: format.date(r.from),
      })),
    );
  const grace = basis.graceDays > 0 ? w.grace(basis.graceDays) : "";
  const cap =
    basis.capped && basis.capBp !== null
      ? w.cap(formatRate(basis.capBp, language), format.money(basis.capCents ?? 0, basis.currency))
      : "";
  return `${label}${w.agreed}${what}${grace}${cap}`;
}

/** Why there is no charge, in words (a settings or debtor page says so rather than showing nothing). */
export function describeNoCharge(reason: NoChargeReason, language: Language, currency = ""): string {
  return WORDS[language].none[reason](currency);
}
