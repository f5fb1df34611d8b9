import { parseCalendarDate } from "./calendar-date";
import { formatMoney } from "./money";
import { localDateString } from "./schedule-time";
import type { StatementCharges } from "./statement-charges";
import { safeTimeZone } from "./time-zone";

/**
 * A reminder's statement: the debtor's open invoices, oldest due
 * first, each with what is left to pay, and the total per currency. Disputed, paid and void
 * invoices are never on it. Pure and client-safe: the engine, the test send, the preview and the
 * templates (emails/) use the same helpers.
 */

/** One open invoice as a reminder lists it. */
export interface StatementLine {
  /** The invoice's own number; null: it has none. */
  number: string | null;
  /** "YYYY-MM-DD". */
  dueOn: string;
  /** What is left to pay on it (amount less what was paid), in cents of `currency`. */
  balanceCents: number;
  /** ISO code, e.g. "USD". */
  currency: string;
}

/** What is owed in one currency over a statement's invoices, and on how many of them. */
export interface CurrencyTotal {
  currency: string;
  cents: number;
  count: number;
}

/** An invoice as stored (app/db/schema.ts `invoices`), as far as a statement reads it. */
export interface InvoiceFields {
  number: string | null;
  dueOn: string;
  amountCents: number;
  paidCents: number;
  currency: string;
  status: string;
}

/**
 * The statement lines of a debtor's invoices: only the open ones with something left to pay (a
 * disputed, paid or void invoice is never listed), oldest due first. The same rule as the query
 * the engine reads them with (app/reminders/statement.server.ts).
 */
export function statementOf(invoices: readonly InvoiceFields[]): StatementLine[] {
  return orderStatement(
    invoices
      .filter((i) => i.status === "open" && i.amountCents > i.paidCents)
      .map((i) => ({
        number: i.number,
        dueOn: i.dueOn,
        balanceCents: i.amountCents - i.paidCents,
        currency: i.currency,
      })),
  );
}

/**
 * A debtor's statement as loaded for a send (app/reminders/statement.server.ts): the first
 * MAX_STATEMENT_LINES open invoices, oldest due first, and the totals over all of them.
 */
export interface Statement {
  lines: StatementLine[];
  totals: CurrencyTotal[];
  /** Open invoices the user said not to chase: the reminder names them apart, outside its total. */
  held?: StatementLine[];
  /** Open invoices the debtor said they paid, not yet checked by the user: named apart too. */
  claimed?: StatementLine[];
  /**
   * Late-payment charges still owed (decisions/067): under the listed invoices, and those of
   * invoices paid in full, with their totals per currency apart from the invoices'. Absent: none.
   */
  charges?: StatementCharges;
}

/**
 * The most invoices one reminder lists: beyond them it says "and N more invoices", its totals
 * still over every open invoice, so no debtor can make a giant e-mail (or a queue message over
 * its size limit).
 */
export const MAX_STATEMENT_LINES = 50;

const DAY_MS = 86_400_000;

/** Code-unit order: "YYYY-MM-DD" strings sort as their dates do, currency codes alphabetically. */
const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Oldest due first; lines due the same day keep their order (the query's: by invoice id). */
export function orderStatement(lines: readonly StatementLine[]): StatementLine[] {
  // Array#sort is stable.
  return [...lines].sort((a, b) => compare(a.dueOn, b.dueOn));
}

/**
 * The total per currency, the currency of the earliest due invoice first (ties: by code), as the
 * engine's query orders them (app/reminders/statement.server.ts).
 */
export function statementTotals(lines: readonly StatementLine[]): CurrencyTotal[] {
  const byCurrency = new Map<string, CurrencyTotal & { firstDue: string }>();
  for (const line of lines) {
    const total = byCurrency.get(line.currency);
    if (total) {
      total.cents += line.balanceCents;
      total.count += 1;
      if (line.dueOn < total.firstDue) total.firstDue = line.dueOn;
    } else {
      byCurrency.set(line.currency, {
        currency: line.currency,
        cents: line.balanceCents,
        count: 1,
        firstDue: line.dueOn,
      });
    }
  }
  return [...byCurrency.values()]
    .sort((a, b) => compare(a.firstDue, b.firstDue) || compare(a.currency, b.currency))
    .map(({ currency, cents, count }) => ({ currency, cents, count }));
}

/** How many invoices the totals cover. */
export function invoiceCount(totals: readonly CurrencyTotal[]): number {
  return totals.reduce((sum, t) => sum + t.count, 0);
}

/**
 * Whole days from `dueOn` to `today` (both "YYYY-MM-DD" calendar dates, today in the debtor's
 * zone): positive when overdue, 0 on the due date, negative before it; null for a date that is
 * not on the calendar. Counted on the calendar, so no time zone or DST change shifts it.
 */
export function daysOverdue(dueOn: string, today: string): number | null {
  const due = parseCalendarDate(dueOn);
  const now = parseCalendarDate(today);
  if (!due || !now) return null;
  return Math.round((Date.UTC(now.year, now.month - 1, now.day) - Date.UTC(due.year, due.month - 1, due.day)) / DAY_MS);
}

/** "Overdue · 20 days" for an open invoice due before `today`; null when it is not overdue. */
export function overdueLabel(dueOn: string | null | undefined, today: string): string | null {
  const days = dueOn ? daysOverdue(dueOn, today) : null;
  if (days === null || days <= 0) return null;
  return `Overdue · ${days} ${days === 1 ? "day" : "days"}`;
}

/** Today's date, "YYYY-MM-DD", in the debtor's zone (an unknown zone: UTC), at `now`. */
export function todayIn(timeZone: string | null | undefined, now: number): string {
  return localDateString(now, safeTimeZone(timeZone));
}

/**
 * Where a statement stands on `today` (the debtor's date, todayIn), which the reminder's wording
 * follows: "not-yet-due" when every invoice is due after today,
 * "due-today" when the earliest is due today, "overdue" when at least one is past its due date,
 * with the most days any one is overdue. Lines whose due date is not on the calendar are left
 * out; null when none is left.
 */
export type StatementTiming =
  | { kind: "not-yet-due" }
  | { kind: "due-today" }
  | { kind: "overdue"; daysOverdue: number };

export function statementTiming(lines: readonly Pick<StatementLine, "dueOn">[], today: string): StatementTiming | null {
  let most: number | null = null;
  for (const line of lines) {
    const days = daysOverdue(line.dueOn, today);
    if (days !== null && (most === null || days > most)) most = days;
  }
  if (most === null) return null;
  if (most > 0) return { kind: "overdue", daysOverdue: most };
  return { kind: most === 0 ? "due-today" : "not-yet-due" };
}

/** "1 day", "30 days": how late, as the copy's {daysOverdue} says it. */
export function daysLabel(days: number): string {
  return `${days} ${days === 1 ? "day" : "days"}`;
}

/** "12 days overdue", "1 day overdue", "due today", "due in 3 days"; null without valid dates. */
export function dueLabel(dueOn: string, today: string): string | null {
  const days = daysOverdue(dueOn, today);
  if (days === null) return null;
  if (days === 0) return "due today";
  if (days > 0) return `${days} ${days === 1 ? "day" : "days"} overdue`;
  return `due in ${-days} ${days === -1 ? "day" : "days"}`;
}

/** "1 invoice", "3 invoices". */
export function invoicesLabel(count: number): string {
  return `${count} ${count === 1 ? "invoice" : "invoices"}`;
}

/** Each total in its currency: ["$100.00", "€50.00"]. */
export function formatTotals(totals: readonly CurrencyTotal[], locale?: string): string[] {
  return totals.map((t) => formatMoney(t.cents, t.currency, locale));
}

/** The amount a reminder's copy names: one currency's total, or several joined: "$100.00 + €50.00". */
export function formatAmount(totals: readonly CurrencyTotal[], locale?: string): string {
  return formatTotals(totals, locale).join(" + ");
}
