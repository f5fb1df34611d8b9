import * as v from "valibot";
import { readAmount } from "~/domain/amount-input";
import { isCalendarDate } from "~/domain/calendar-date";
import type { PlanKey } from "~/domain/i18n/payment-plan";
import { toCents } from "~/domain/money";
import { amountExample } from "~/domain/number-locale";
import type { PageMessage } from "~/domain/page-copy";
import {
  PLAN_DEFAULT_GRACE_DAYS,
  PLAN_FIRST_MAX_DAYS,
  PLAN_MAX_GRACE_DAYS,
  PLAN_MAX_INSTALMENTS,
  PLAN_MIN_INSTALMENTS,
  type PlanRuleError,
  type PlanShape,
  planFirstWindow,
} from "~/domain/payment-plan";

/**
 * The payment-plan forms (decisions/066): the debtor's request on their page, the user's offer and
 * change of a request on the debtor page. The same fields everywhere: the currency (when several
 * are owed), how (a count of instalments or an amount per month), the count or the amount (in the
 * page's number format: "1.234,56" on a German page), the first date; the user's forms add the grace
 * days and whether the plan ends by itself. Read on the server whatever the browser checked; every
 * refusal is a key of the plan catalogue (app/domain/i18n/payment-plan.ts), written by the page,
 * and what was typed comes back.
 */

export type PlanField = "currency" | "how" | "count" | "amount" | "first_on" | "grace_days" | "message" | "form";
export type PlanMessage = PageMessage<PlanKey>;
export type PlanErrors = Partial<Record<PlanField, PlanMessage>>;
export type PlanValues = Partial<Record<Exclude<PlanField, "form">, string>> & { auto_break?: string };

/** The longest message a user may send with a decline. */
export const PLAN_MESSAGE_MAX = 1000;

const HowSchema = v.picklist(["count", "amount"], "plan.error.how" satisfies PlanKey);
const CountSchema = v.pipe(
  v.string(),
  v.trim(),
  v.regex(/^\d{1,2}$/, "plan.error.count" satisfies PlanKey),
  v.transform(Number),
  v.minValue(PLAN_MIN_INSTALMENTS, "plan.error.count" satisfies PlanKey),
  v.maxValue(PLAN_MAX_INSTALMENTS, "plan.error.count" satisfies PlanKey),
);
const FirstSchema = v.pipe(v.string(), v.trim(), v.check(isCalendarDate, "plan.error.firstDate" satisfies PlanKey));
const GraceSchema = v.pipe(
  v.string(),
  v.trim(),
  v.regex(/^\d{1,2}$/, "plan.error.grace" satisfies PlanKey),
  v.transform(Number),
  v.maxValue(PLAN_MAX_GRACE_DAYS, "plan.error.grace" satisfies PlanKey),
);

/** A plan rule's refusal with the values its message names (the window's dates in `formatDate`'s style). */
export function planRuleMessage(error: PlanRuleError, today: string, formatDate: (d: string) => string): PlanMessage {
  const window = planFirstWindow(today);
  return {
    key: error,
    values: {
      min: PLAN_MIN_INSTALMENTS,
      max: PLAN_MAX_INSTALMENTS,
      days: PLAN_FIRST_MAX_DAYS,
      first: formatDate(window.min),
      last: formatDate(window.max),
    },
  };
}

/** Where a rule's refusal is shown: on the field it is about. */
export function planRuleField(error: PlanRuleError, how: PlanShape["mode"]): PlanField {
  if (error === "plan.error.firstDate" || error === "plan.error.firstRange") return "first_on";
  if (error === "plan.error.nothingOwed") return "currency";
  return how === "count" ? "count" : "amount";
}

export type PlanReading =
  | {
      ok: true;
      value: { currency: string; shape: PlanShape; firstOn: string; graceDays: number; autoBreak: boolean };
      values: PlanValues;
    }
  | { ok: false; errors: PlanErrors; values: PlanValues };

/**
 * The plan form read: in `locale`'s number format, against the currencies owed (the only one when
 * there is one). The rules of the plan itself (amount per instalment, dates) are the caller's
 * (app/domain/payment-plan.ts planInstalments), against what the ledger says is owed.
 */
export function readPlanForm(
  form: FormData,
  context: { currencies: readonly string[]; locale: string; withTerms?: boolean },
): PlanReading {
  const text = (name: string) => {
    const value = form.get(name);
    return typeof value === "string" ? value : "";
  };
  const values: PlanValues = {
    currency: text("currency").trim(),
    how: text("how"),
    count: text("count"),
    amount: text("amount"),
    first_on: text("first_on"),
    ...(context.withTerms ? { grace_days: text("grace_days"), auto_break: text("auto_break") } : {}),
  };
  const errors: PlanErrors = {};
  const currency = values.currency || (context.currencies.length === 1 ? (context.currencies[0] ?? "") : "");
  if (!context.currencies.includes(currency)) errors.currency = { key: "plan.error.currency" };
  const how = v.safeParse(HowSchema, values.how);
  let shape: PlanShape | null = null;
  if (!how.success) errors.how = { key: "plan.error.how" };
  else if (how.output === "count") {
    const count = v.safeParse(CountSchema, values.count ?? "");
    if (count.success) shape = { mode: "count", count: count.output };
    else errors.count = { key: "plan.error.count", values: { min: PLAN_MIN_INSTALMENTS, max: PLAN_MAX_INSTALMENTS } };
  } else {
    const example = amountExample(context.locale);
    const read = readAmount(values.amount ?? "", context.locale);
    if (!read.ok) {
      errors.amount =
        read.reason === "ambiguous"
          ? {
              key: "plan.error.ambiguous",
              values: { typed: read.typed, first: read.readings[0] ?? "", second: read.readings[1] ?? "", example },
            }
          : read.reason === "other-format"
            ? { key: "plan.error.otherFormat", values: { typed: read.typed, value: read.readings[0] ?? "" } }
            : { key: "plan.error.amount", values: { example } };
    } else if (read.value <= 0 || !Number.isSafeInteger(toCents(read.value))) {
      errors.amount = { key: "plan.error.amount", values: { example } };
    } else {
      shape = { mode: "amount", perMonthCents: toCents(read.value) };
    }
  }
  const first = v.safeParse(FirstSchema, values.first_on ?? "");
  if (!first.success) errors.first_on = { key: "plan.error.firstDate" };
  let graceDays = PLAN_DEFAULT_GRACE_DAYS;
  if (context.withTerms) {
    const grace = v.safeParse(GraceSchema, values.grace_days ?? "");
    if (grace.success) graceDays = grace.output;
    else errors.grace_days = { key: "plan.error.grace", values: { days: PLAN_MAX_GRACE_DAYS } };
  }
  if (Object.keys(errors).length > 0 || !shape || !first.success) return { ok: false, errors, values };
  return {
    ok: true,
    value: { currency, shape, firstOn: first.output, graceDays, autoBreak: values.auto_break === "on" },
    values,
  };
}

/** The user's message with a decline: optional, at most PLAN_MESSAGE_MAX characters. */
export const PlanDeclineSchema = v.object({
  message: v.optional(
    v.pipe(
      v.string(),
      v.transform((text) => text.replace(/\r\n?/g, "\n")),
      v.trim(),
      v.maxLength(PLAN_MESSAGE_MAX, `Keep the message to ${PLAN_MESSAGE_MAX} characters.`),
    ),
    "",
  ),
});
