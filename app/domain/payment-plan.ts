import { parseCalendarDate } from "./calendar-date";
import { addDays } from "./promise";

/**
 * Payment plans (decisions/066): a debtor's unpaid principal in one currency paid in monthly
 * instalments. Pure and client-safe: the portal's and the debtor page's forms, the actions, the
 * watchdog and the portal's view all split, date and read a plan with these rules.
 *
 * - A plan has PLAN_MIN_INSTALMENTS to PLAN_MAX_INSTALMENTS instalments, chosen as a count or as an
 *   amount per month (the count follows from the total).
 * - Every instalment but the last is the same amount in whole cents; the last takes the remainder.
 *   Each is at least one unit of the currency (100 of Dunly's minor units, app/domain/money.ts).
 * - The first date is the debtor's today or later and at most PLAN_FIRST_MAX_DAYS away; the others
 *   fall monthly on the same day of the month (the month's last day when it is shorter).
 * - What is paid comes from the ledger, never from a request: instalment k is met when what was
 *   paid on the plan's invoices since it began covers instalments 1..k.
 */

export const PLAN_MIN_INSTALMENTS = 2;
export const PLAN_MAX_INSTALMENTS = 12;
/** The furthest the first instalment may be, in days after the debtor's today. */
export const PLAN_FIRST_MAX_DAYS = 90;
/** The smallest instalment: one unit of the currency, in minor units. */
export const PLAN_MIN_INSTALMENT_CENTS = 100;
/** Days after a missed instalment's date before the plan may end (the user's choice, 0–60). */
export const PLAN_DEFAULT_GRACE_DAYS = 7;
export const PLAN_MAX_GRACE_DAYS = 60;
/** The gentle reminder goes this many days before an instalment's date. */
export const PLAN_REMINDER_DAYS_BEFORE = 3;

export const PLAN_STATUSES = [
  "requested",
  "offered",
  "active",
  "declined",
  "completed",
  "broken",
  "cancelled",
] as const;
export type PlanStatus = (typeof PLAN_STATUSES)[number];
/** A plan still waiting for an answer or running: at most one per debtor and currency. */
export const LIVE_PLAN_STATUSES = ["requested", "offered", "active"] as const satisfies readonly PlanStatus[];

export interface Instalment {
  seq: number;
  dueOn: string;
  amountCents: number;
}

/** How the instalments are chosen: their count, or an amount per month. */
export type PlanShape = { mode: "count"; count: number } | { mode: "amount"; perMonthCents: number };

/** Why a plan cannot be made as asked (message keys the forms write out with `planRuleValues`). */
export type PlanRuleError =
  | "plan.error.count"
  | "plan.error.tooSmall"
  | "plan.error.tooFew"
  | "plan.error.tooMany"
  | "plan.error.firstDate"
  | "plan.error.firstRange"
  | "plan.error.nothingOwed";

/** The days a first instalment may fall on, from the debtor's today. */
export function planFirstWindow(today: string): { min: string; max: string } {
  return { min: today, max: addDays(today, PLAN_FIRST_MAX_DAYS) ?? today };
}

/** The dates of `count` monthly instalments from `firstOn`: the same day each month, or the month's last. */
export function planDates(firstOn: string, count: number): string[] {
  const first = parseCalendarDate(firstOn);
  if (!first) return [];
  const dates: string[] = [];
  for (let k = 0; k < count; k++) {
    const monthIndex = first.month - 1 + k;
    const year = first.year + Math.floor(monthIndex / 12);
    const month = (monthIndex % 12) + 1;
    const last = new Date(Date.UTC(year, month, 0)).getUTCDate();
    const day = Math.min(first.day, last);
    dates.push(`${String(year).padStart(4, "0")}-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`);
  }
  return dates;
}

/**
 * The amounts of a plan of `totalCents`: `count` equal amounts in whole cents, the last taking the
 * remainder; or, per month, `perMonthCents` each and the last what is left (a remainder under one
 * unit joins the instalment before it). Refused when a rule does not hold.
 */
export function planAmounts(totalCents: number, shape: PlanShape): { amounts: number[] } | { error: PlanRuleError } {
  if (!Number.isSafeInteger(totalCents) || totalCents <= 0) return { error: "plan.error.nothingOwed" };
  if (shape.mode === "count") {
    const { count } = shape;
    if (!Number.isInteger(count) || count < PLAN_MIN_INSTALMENTS || count > PLAN_MAX_INSTALMENTS) {
      return { error: "plan.error.count" };
    }
    const each = Math.floor(totalCents / count);
    if (each < PLAN_MIN_INSTALMENT_CENTS) return { error: "plan.error.tooSmall" };
    const amounts = Array.from({ length: count }, () => each);
    amounts[count - 1] = totalCents - each * (count - 1);
    return { amounts };
  }
  const per = shape.perMonthCents;
  if (!Number.isSafeInteger(per) || per < PLAN_MIN_INSTALMENT_CENTS) return { error: "plan.error.tooSmall" };
  const full = Math.floor(totalCents / per);
  const rest = totalCents - full * per;
  const amounts = Array.from({ length: full }, () => per);
  if (rest >= PLAN_MIN_INSTALMENT_CENTS || (rest > 0 && full === 0)) amounts.push(rest);
  else if (rest > 0) amounts[full - 1] = per + rest;
  if (amounts.length < PLAN_MIN_INSTALMENTS) return { error: "plan.error.tooFew" };
  if (amounts.length > PLAN_MAX_INSTALMENTS) return { error: "plan.error.tooMany" };
  return { amounts };
}

/**
 * The instalments of a plan of `totalCents` shaped `shape` from `firstOn`, which must fall in the
 * window from the debtor's `today`; or the first rule it breaks.
 */
export function planInstalments(
  totalCents: number,
  shape: PlanShape,
  firstOn: string,
  today: string,
): { instalments: Instalment[] } | { error: PlanRuleError } {
  if (!parseCalendarDate(firstOn)) return { error: "plan.error.firstDate" };
  const window = planFirstWindow(today);
  if (firstOn < window.min || firstOn > window.max) return { error: "plan.error.firstRange" };
  const split = planAmounts(totalCents, shape);
  if ("error" in split) return split;
  const dates = planDates(firstOn, split.amounts.length);
  return {
    instalments: split.amounts.map((amountCents, i) => ({ seq: i + 1, dueOn: dates[i] ?? firstOn, amountCents })),
  };
}

/** The values a rule's message names (the window's dates are written by the page in its own format). */
export function planRuleValues(error: PlanRuleError, today: string) {
  const window = planFirstWindow(today);
  return {
    min: PLAN_MIN_INSTALMENTS,
    max: PLAN_MAX_INSTALMENTS,
    days: PLAN_FIRST_MAX_DAYS,
    first: window.min,
    last: window.max,
    error,
  };
}

export type InstalmentState = "paid" | "next" | "missed" | "later";

export interface InstalmentView extends Instalment {
  state: InstalmentState;
  /** What is still to pay on it, from the ledger: its amount less what the payments cover. */
  unpaidCents: number;
}

/**
 * Where each instalment stands, given what the ledger says was paid on the plan (`paidCents`, since
 * it began) and the debtor's `today`: met ('paid') when the payments cover it and every one before;
 * an unmet one whose date has passed is 'missed'; the first unmet one not yet due is 'next'; the
 * rest 'later'.
 */
export function instalmentStates(
  instalments: readonly Instalment[],
  paidCents: number,
  today: string,
): InstalmentView[] {
  let covered = Math.max(0, paidCents);
  let nextGiven = false;
  return [...instalments]
    .sort((a, b) => a.seq - b.seq)
    .map((i) => {
      const paidHere = Math.min(covered, i.amountCents);
      covered -= paidHere;
      const unpaidCents = i.amountCents - paidHere;
      if (unpaidCents === 0) return { ...i, state: "paid" as const, unpaidCents };
      if (i.dueOn < today) {
        return { ...i, state: "missed" as const, unpaidCents };
      }
      const state = nextGiven ? ("later" as const) : ("next" as const);
      nextGiven = true;
      return { ...i, state, unpaidCents };
    });
}

/**
 * What "Pay now" pays on an active plan: everything unpaid on the instalments due by the first unmet
 * one (a missed one and the next together), never more than what is left on the plan. Null once
 * everything is paid.
 */
export function nextPayment(
  instalments: readonly Instalment[],
  paidCents: number,
  today: string,
): { seq: number; dueOn: string; cents: number } | null {
  const states = instalmentStates(instalments, paidCents, today);
  const due = states.filter((s) => s.state === "missed");
  const next = states.find((s) => s.state === "next");
  if (next) due.push(next);
  const last = due[due.length - 1];
  if (!last) return null;
  return { seq: last.seq, dueOn: last.dueOn, cents: due.reduce((sum, s) => sum + s.unpaidCents, 0) };
}

/** The plan's total, what is paid on it (capped at the total) and what is left. */
export function planProgress(instalments: readonly Instalment[], paidCents: number) {
  const totalCents = instalments.reduce((sum, i) => sum + i.amountCents, 0);
  const paid = Math.min(Math.max(0, paidCents), totalCents);
  return { totalCents, paidCents: paid, leftCents: totalCents - paid };
}

/**
 * The first instalment missed as of `today` (unmet, its date before today), or null. A plan
 * whose missed instalment is `graceDays` old or more (today >= its date + grace + 1) may end.
 */
export function firstMissed(
  instalments: readonly Instalment[],
  paidCents: number,
  today: string,
): InstalmentView | null {
  return instalmentStates(instalments, paidCents, today).find((s) => s.state === "missed") ?? null;
}

/** Whether a missed instalment's grace has run out on `today`: more than `graceDays` days past its date. */
export function graceOver(missed: Pick<Instalment, "dueOn">, graceDays: number, today: string): boolean {
  const end = addDays(missed.dueOn, graceDays);
  return end !== null && today > end;
}

/** "2 instalments of €500.00 from 1 March 2027" is the caller's; here, the short English detail of an event. */
export function planDetail(count: number, totalText: string, firstText: string): string {
  return `${count} instalments, ${totalText} in all, from ${firstText}`;
}
