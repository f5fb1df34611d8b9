import type { Language } from "./languages";
import { chargeLabel, describeCharge, isChargeBasis } from "./late-charges";

/**
 * Late-payment charges on a debtor's statement (decisions/065, 067): the `charges` rows still owed
 * (amount less paid, not waived), each under the invoice it was charged on, and the totals that
 * keep invoices and charges apart. Pure and client-safe: the reminder (emails/reminder.tsx), its
 * statement PDF and the debtor's page use the same lines and words. A waived charge is never a
 * line: it simply is not owed.
 */

export type ChargeKind = "interest" | "compensation" | "fee";

/** What is owed in one currency, and by how many rows (app/domain/statement.ts CurrencyTotal's shape). */
interface CurrencyTotal {
  currency: string;
  cents: number;
  count: number;
}

/** One charge as a statement lists it. */
export interface ChargeLine {
  /**
   * The index of its invoice among the statement's listed lines (`Statement.lines`), or null when
   * its invoice is paid in full: listed under "Charges still owed on paid invoices".
   */
  line: number | null;
  /** Its invoice's number (null: none) and due date, for a charge of a paid invoice. */
  invoiceNumber: string | null;
  invoiceDueOn: string;
  kind: ChargeKind;
  currency: string;
  /** What it has accrued, what was paid of it, and what is still owed (amount less paid). */
  amountCents: number;
  paidCents: number;
  owedCents: number;
  /** How it was computed (charges.basis, law's ChargeBasis), parsed; null when unreadable. */
  basis: unknown;
  /** "YYYY-MM-DD": accrued through this day. */
  accruedThrough: string;
}

/** A statement's charges: the lines (at most MAX_CHARGE_LINES) and what is owed per currency over all of them. */
export interface StatementCharges {
  lines: ChargeLine[];
  /** Per currency, over every owed charge of the statement (`count`: how many charges). */
  totals: CurrencyTotal[];
}

/**
 * The most charge lines a reminder's statement lists, the most overdue invoices' first; the rest are
 * "and N more charges", in the totals (the debtor's page lists them all). Each line carries its basis
 * in words: more would make an e-mail that mail clients cut short (Gmail clips at about 100 KB).
 */
export const MAX_CHARGE_LINES = 40;

/** One currency of a statement with charges: its invoices, its charges, and both together. */
export interface ChargeSummaryRow {
  currency: string;
  invoicesCents: number;
  chargesCents: number;
  totalCents: number;
}

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Invoices, charges and total per currency: the invoices' currencies in their order (the
 * statement's), then any currency only charges are owed in, by code.
 */
export function chargeSummary(
  invoiceTotals: readonly Pick<CurrencyTotal, "currency" | "cents">[],
  chargeTotals: readonly Pick<CurrencyTotal, "currency" | "cents">[],
): ChargeSummaryRow[] {
  const rows = new Map<string, ChargeSummaryRow>();
  const row = (currency: string) => {
    let r = rows.get(currency);
    if (!r) {
      r = { currency, invoicesCents: 0, chargesCents: 0, totalCents: 0 };
      rows.set(currency, r);
    }
    return r;
  };
  for (const t of invoiceTotals) row(t.currency).invoicesCents += Number(t.cents) || 0;
  const chargeOnly = [...chargeTotals].sort((a, b) => compare(a.currency, b.currency));
  for (const t of chargeOnly) row(t.currency).chargesCents += Number(t.cents) || 0;
  return [...rows.values()]
    .map((r) => ({ ...r, totalCents: r.invoicesCents + r.chargesCents }))
    .filter((r) => r.totalCents > 0);
}

/** The basis column as stored (JSON text), parsed; null when it is not JSON. */
export function parseBasis(json: string | null | undefined): unknown {
  if (!json) return null;
  try {
    return JSON.parse(json) as unknown;
  } catch {
    return null;
  }
}

/** How a charge's words are written: amounts and dates as the statement writes them. */
export interface ChargeFormat {
  money(cents: number, currency: string): string;
  date(isoDate: string): string;
}

/**
 * A charge's label ("Statutory interest") and its legal basis in words, in the debtor's language
 * (law's chargeLabel and describeCharge). A basis the rules cannot read (an older or damaged row)
 * still shows its label; its basis words are then null, never an invented sentence.
 */
export function chargeWords(
  charge: Pick<ChargeLine, "kind" | "basis">,
  language: Language,
  format: ChargeFormat,
): { label: string; basis: string | null } {
  // A stored basis is checked, never trusted: one the rules cannot read gets no words.
  if (!isChargeBasis(charge.basis)) return { label: FALLBACK_LABELS[language][charge.kind], basis: null };
  const basis = charge.basis;
  try {
    const label = chargeLabel(charge.kind, basis, language);
    const words = describeCharge(charge.kind, basis, language, format) || null;
    return { label, basis: words === label ? null : words };
  } catch {
    return { label: FALLBACK_LABELS[language][charge.kind], basis: null };
  }
}

/** A label when the rules cannot name a charge from its basis. */
const FALLBACK_LABELS: Record<Language, Record<ChargeKind, string>> = {
  en: { interest: "Interest", compensation: "Compensation", fee: "Late fee" },
  de: { interest: "Zinsen", compensation: "Pauschale", fee: "Mahngebühr" },
  fr: { interest: "Intérêts", compensation: "Indemnité", fee: "Frais de retard" },
  es: { interest: "Intereses", compensation: "Indemnización", fee: "Recargo" },
  nl: { interest: "Rente", compensation: "Vergoeding", fee: "Kosten" },
};

/** The charges under the statement's listed line `index`. */
export function chargesOfLine(charges: readonly ChargeLine[] | null | undefined, index: number): ChargeLine[] {
  return (charges ?? []).filter((c) => c.line === index);
}

/** The charges of invoices paid in full, by their invoice's due date (then as listed). */
export function chargesOfPaidInvoices(charges: readonly ChargeLine[] | null | undefined): ChargeLine[] {
  return (charges ?? []).filter((c) => c.line === null);
}
