import { fromCents } from "./money";
import { addDays } from "./promise";
import { daysOverdue } from "./statement";

/**
 * The money figures: receivables by age, what was collected
 * this month and how late payments come, all counted on the user's calendar (their today, in
 * their zone). Pure and client-safe: the dashboard, the report and the aging export use the same
 * buckets, and the SQL that sums them (app/ledger/money.server.ts) is given the bounds computed
 * here as "YYYY-MM-DD" text, so the database compares dates and never works out a zone.
 */

/**
 * The aging buckets, youngest first. Days overdue = the user's today minus the due date: an invoice
 * due today (0 days) or later is "Not yet due"; 1–30, 31–60 and 61–90 days overdue; then over 90.
 */
export const AGING_BUCKETS = [
  { key: "notYetDue", label: "Not yet due" },
  { key: "days1to30", label: "1–30 days" },
  { key: "days31to60", label: "31–60 days" },
  { key: "days61to90", label: "61–90 days" },
  { key: "over90", label: "Over 90 days" },
] as const;

export type AgingBucketKey = (typeof AGING_BUCKETS)[number]["key"];

/**
 * The earliest due date of each bucket on the user's `today` (inclusive; each bucket ends where
 * the younger one starts): due on or after `today` is not yet due, on or after `overdue30` (30
 * days before today) 1–30 days overdue, on or after `overdue60` 31–60, on or after `overdue90`
 * 61–90, before it over 90.
 */
export interface AgingBounds {
  today: string;
  overdue30: string;
  overdue60: string;
  overdue90: string;
}

/** "YYYY-MM-DD" moved by `days`, for a date known to be on the calendar. */
function shift(date: string, days: number): string {
  const moved = addDays(date, days);
  if (moved === null) throw new Error(`not a calendar date: ${date}`);
  return moved;
}

/** The buckets' bounds on the user's `today` ("YYYY-MM-DD" in their zone). */
export function agingBounds(today: string): AgingBounds {
  return { today, overdue30: shift(today, -30), overdue60: shift(today, -60), overdue90: shift(today, -90) };
}

/**
 * The bucket of an invoice due on `dueOn` on the user's `today`, as the SQL sums it (the same
 * bounds); null for a date that is not on the calendar.
 */
export function agingBucket(dueOn: string, today: string): AgingBucketKey | null {
  const days = daysOverdue(dueOn, today);
  if (days === null) return null;
  if (days <= 0) return "notYetDue";
  if (days <= 30) return "days1to30";
  if (days <= 60) return "days31to60";
  if (days <= 90) return "days61to90";
  return "over90";
}

/** How many days back "the last 90 days" of the average lateness reach, today included. */
export const LATENESS_WINDOW_DAYS = 90;

/**
 * The dates the payment figures read, on the user's `today`: `monthStart` (the first of their
 * month; collected this month is paid on or after it) and `windowStart` (the first of the last
 * LATENESS_WINDOW_DAYS days, today being the last; always before monthStart). Both end at today.
 */
export interface PaymentWindow {
  today: string;
  monthStart: string;
  windowStart: string;
}

export function paymentWindow(today: string): PaymentWindow {
  return { today, monthStart: `${today.slice(0, 8)}01`, windowStart: shift(today, 1 - LATENESS_WINDOW_DAYS) };
}

/** One currency's owed invoices summed per bucket, in cents, as the aging query returns them. */
export type AgingSums = { currency: string; invoices: number } & Record<AgingBucketKey, number>;

/** A row of the aging table: the buckets, what is overdue (the four overdue buckets) and what is outstanding. */
export type AgingRow = AgingSums & { overdueCents: number; outstandingCents: number };

/** The aging table's rows, one per currency with something owed, by currency code. */
export function agingRowsOf(sums: readonly AgingSums[]): AgingRow[] {
  return sums
    .map((s) => {
      const row = { currency: s.currency, invoices: Number(s.invoices) || 0 } as AgingSums;
      for (const { key } of AGING_BUCKETS) row[key] = Number(s[key]) || 0;
      const overdueCents = row.days1to30 + row.days31to60 + row.days61to90 + row.over90;
      return { ...row, overdueCents, outstandingCents: row.notYetDue + overdueCents };
    })
    .filter((r) => r.outstandingCents > 0)
    .sort((a, b) => (a.currency < b.currency ? -1 : a.currency > b.currency ? 1 : 0));
}

/**
 * One currency's payments in the window, as the payment query returns them: what was paid this
 * month, and over the window the number of allocations (a payment's part on one invoice) and their
 * days late summed (each the payment's date minus the invoice's due date, an early or on-time
 * payment counting 0).
 */
export interface PaymentSums {
  currency: string;
  collectedCents: number;
  /** Of collectedCents, what paid late-payment charges (charge_allocations, decisions/067); none: 0. */
  chargesCollectedCents?: number;
  allocations: number;
  daysLate: number;
}

/**
 * Collected this month per currency (those with anything), by currency code: the invoices'
 * principal, without what the payments paid on late-payment charges (chargesCollectedOf).
 */
export function collectedOf(sums: readonly PaymentSums[]): { currency: string; cents: number }[] {
  return sums
    .map((s) => ({
      currency: s.currency,
      cents: (Number(s.collectedCents) || 0) - (Number(s.chargesCollectedCents) || 0),
    }))
    .filter((c) => c.cents > 0)
    .sort((a, b) => (a.currency < b.currency ? -1 : a.currency > b.currency ? 1 : 0));
}

/** What this month's payments paid on late-payment charges, per currency (those with anything), by code. */
export function chargesCollectedOf(sums: readonly PaymentSums[]): { currency: string; cents: number }[] {
  return collectedOf(
    sums.map((s) => ({ ...s, collectedCents: Number(s.chargesCollectedCents) || 0, chargesCollectedCents: 0 })),
  );
}

/**
 * The average days late of the window's payments: per allocation (each payment's part on one
 * invoice counts once, whatever its amount or currency, so currencies never mix), an early or
 * on-time one counting 0 days; one decimal. Null when no payment in the window paid an invoice.
 */
export function averageDaysLate(sums: readonly PaymentSums[]): number | null {
  let allocations = 0;
  let days = 0;
  for (const s of sums) {
    allocations += Number(s.allocations) || 0;
    days += Number(s.daysLate) || 0;
  }
  return allocations === 0 ? null : Math.round((days / allocations) * 10) / 10;
}

/** "0 days", "1 day", "12.5 days". */
export function daysLateLabel(days: number): string {
  return `${days} ${days === 1 ? "day" : "days"}`;
}

/** A bucket's column: "Not yet due", "1–30 days overdue"… */
const bucketColumn = (b: (typeof AGING_BUCKETS)[number]) => (b.key === "notYetDue" ? b.label : `${b.label} overdue`);

/** The currencies of the invoices' and the charges' aging rows, by code. */
export function agingCurrencies(rows: readonly AgingRow[], charges: readonly AgingRow[] = []): string[] {
  return [...new Set([...rows, ...charges].map((r) => r.currency))].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/**
 * The aging table as CSV cells (app/domain/csv-export.ts writes them): a row per currency, the
 * amounts as decimal numbers in that currency; the invoices' principal, then the late-payment
 * charges still owed apart (decisions/067), bucketed by their invoice's due date, and both together.
 */
export function agingCsv(rows: readonly AgingRow[], today: string, charges: readonly AgingRow[] = []) {
  const header = [
    "Currency",
    ...AGING_BUCKETS.map(bucketColumn),
    "Overdue",
    "Outstanding",
    "Open invoices",
    ...AGING_BUCKETS.map((b) => `Charges ${bucketColumn(b).replace(/^(Not|Over)/, (w) => w.toLowerCase())}`),
    "Charges overdue",
    "Charges outstanding",
    "Outstanding with charges",
    "As of",
  ];
  const cells = agingCurrencies(rows, charges).map((currency) => {
    const r = rows.find((x) => x.currency === currency);
    const c = charges.find((x) => x.currency === currency);
    return [
      currency,
      ...AGING_BUCKETS.map((b) => fromCents(r?.[b.key] ?? 0)),
      fromCents(r?.overdueCents ?? 0),
      fromCents(r?.outstandingCents ?? 0),
      r?.invoices ?? 0,
      ...AGING_BUCKETS.map((b) => fromCents(c?.[b.key] ?? 0)),
      fromCents(c?.overdueCents ?? 0),
      fromCents(c?.outstandingCents ?? 0),
      fromCents((r?.outstandingCents ?? 0) + (c?.outstandingCents ?? 0)),
      today,
    ];
  });
  return { header, rows: cells };
}
