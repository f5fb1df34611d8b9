import * as v from "valibot";
import { readAmount } from "~/domain/amount-input";
import { CURRENCIES, CURRENCY_MESSAGE } from "~/domain/currencies";
import { numberFormat } from "~/domain/intl";
import { CONTRACT_KINDS, CONTRACT_LIMITS, STATUTORY_RULES } from "~/domain/late-charges";
import { formatMoney } from "~/domain/money";
import { DEFAULT_NUMBER_LOCALE } from "~/domain/number-locale";

/**
 * Settings → Late charges (decisions/065): the account's late-payment terms. One schema for the
 * browser and the action; amounts and percentages are typed in the user's number format ("1.234,56"
 * and "2,5" in Germany: app/domain/amount-input.ts), never guessed. The contract's fields are
 * required only with "My contract terms", and only those its kind uses.
 */

export const LATE_CHARGE_RULES = [...STATUTORY_RULES.map((r) => r.id), "contract"] as const;
export const PAYMENT_ORDERS = ["principal_first", "charges_first"] as const;

const RULE_MESSAGE = "Please choose the rules to charge by";
const KIND_MESSAGE = "Please choose a fixed fee, a percentage once or a monthly percentage";
const ORDER_MESSAGE = "Please choose what a payment pays first";
export const FEE_MESSAGE = "Please enter a fee from 0.01 to 10,000";
export const PERCENT_ONCE_MESSAGE = "Please enter a percentage from 0.01 to 25";
export const PERCENT_MONTHLY_MESSAGE = "Please enter a monthly percentage from 0.01 to 5";
export const GRACE_MESSAGE = "Please enter 0 to 365 days";
export const CAP_MESSAGE = "Please enter a cap from 0.01 to 100 percent of the invoice, or leave it blank";

/** A checkbox: "on" (or true) when ticked, absent when not. */
const checkbox = v.optional(
  v.pipe(
    v.union([v.string(), v.boolean()]),
    v.transform((x) => x === true || x === "on" || x === "true"),
  ),
  false,
);

/** A decimal typed in the user's number format, or a number; `undefined` when blank. */
const typedDecimal = (locale: string, message: string) =>
  v.optional(
    v.pipe(
      v.union([v.string(), v.number()], message),
      v.rawTransform(({ dataset, addIssue, NEVER }) => {
        const reading = readAmount(dataset.value, locale);
        if (reading.ok) return reading.value;
        if (reading.reason === "empty") return undefined;
        addIssue({ message: "message" in reading ? reading.message : message });
        return NEVER;
      }),
    ),
  );

/** Hundredths (cents or basis points) of a decimal with at most two decimals, or null. */
export const hundredths = (x: number | undefined) => (x === undefined ? null : Math.round(x * 100));
const twoDecimals = (x: number) => Math.abs(x * 100 - Math.round(x * 100)) < 1e-9;
const within = (x: number | undefined, range: { min: number; max: number }) =>
  x !== undefined && twoDecimals(x) && Math.round(x * 100) >= range.min && Math.round(x * 100) <= range.max;

export function lateChargeTermsSchema(locale: string = DEFAULT_NUMBER_LOCALE) {
  return v.pipe(
    v.object({
      enabled: checkbox,
      rule: v.picklist(LATE_CHARGE_RULES, RULE_MESSAGE),
      compensation: checkbox,
      contract_kind: v.optional(v.picklist(CONTRACT_KINDS, KIND_MESSAGE)),
      contract_fee: typedDecimal(locale, FEE_MESSAGE),
      contract_fee_currency: v.optional(
        v.pipe(v.string(CURRENCY_MESSAGE), v.trim(), v.toUpperCase(), v.picklist(CURRENCIES, CURRENCY_MESSAGE)),
      ),
      contract_rate: typedDecimal(locale, PERCENT_ONCE_MESSAGE),
      contract_grace_days: v.optional(
        v.pipe(
          v.union(
            [v.number(), v.pipe(v.string(), v.trim(), v.regex(/^\d{1,3}$/, GRACE_MESSAGE), v.transform(Number))],
            GRACE_MESSAGE,
          ),
          v.integer(GRACE_MESSAGE),
          v.minValue(CONTRACT_LIMITS.graceDays.min, GRACE_MESSAGE),
          v.maxValue(CONTRACT_LIMITS.graceDays.max, GRACE_MESSAGE),
        ),
        0,
      ),
      contract_cap: typedDecimal(locale, CAP_MESSAGE),
      payment_order: v.optional(v.picklist(PAYMENT_ORDERS, ORDER_MESSAGE), "principal_first"),
    }),
    v.forward(
      v.partialCheck(
        [["rule"], ["contract_kind"]],
        (t) => t.rule !== "contract" || t.contract_kind !== undefined,
        KIND_MESSAGE,
      ),
      ["contract_kind"],
    ),
    v.forward(
      v.partialCheck(
        [["rule"], ["contract_kind"], ["contract_fee"]],
        (t) => t.rule !== "contract" || t.contract_kind !== "fixed" || within(t.contract_fee, CONTRACT_LIMITS.feeCents),
        FEE_MESSAGE,
      ),
      ["contract_fee"],
    ),
    v.forward(
      v.partialCheck(
        [["rule"], ["contract_kind"], ["contract_fee_currency"]],
        (t) => t.rule !== "contract" || t.contract_kind !== "fixed" || t.contract_fee_currency !== undefined,
        CURRENCY_MESSAGE,
      ),
      ["contract_fee_currency"],
    ),
    v.forward(
      v.partialCheck(
        [["rule"], ["contract_kind"], ["contract_rate"]],
        (t) =>
          t.rule !== "contract" ||
          t.contract_kind !== "percent_once" ||
          within(t.contract_rate, CONTRACT_LIMITS.percentOnceBp),
        PERCENT_ONCE_MESSAGE,
      ),
      ["contract_rate"],
    ),
    v.forward(
      v.partialCheck(
        [["rule"], ["contract_kind"], ["contract_rate"]],
        (t) =>
          t.rule !== "contract" ||
          t.contract_kind !== "percent_monthly" ||
          within(t.contract_rate, CONTRACT_LIMITS.percentMonthlyBp),
        PERCENT_MONTHLY_MESSAGE,
      ),
      ["contract_rate"],
    ),
    v.forward(
      v.partialCheck(
        [["rule"], ["contract_cap"]],
        (t) => t.rule !== "contract" || t.contract_cap === undefined || within(t.contract_cap, CONTRACT_LIMITS.capBp),
        CAP_MESSAGE,
      ),
      ["contract_cap"],
    ),
  );
}

export type LateChargeTermsInput = v.InferOutput<ReturnType<typeof lateChargeTermsSchema>>;

/** The debtor's own setting (the debtor form): the account's, always, or never. */
export const DEBTOR_LATE_CHARGES = ["account", "on", "off"] as const;

/** Contract terms in numbers (hundredths: cents and basis points), as saved or as typed. */
export interface ContractWords {
  kind: "fixed" | "percent_once" | "percent_monthly";
  feeCents: number | null;
  feeCurrency: string | null;
  rateBp: number | null;
  graceDays: number;
  capBp: number | null;
}

/** "2.50%" in the user's format (percent of basis points). */
function percent(bp: number, locale: string) {
  return numberFormat(locale, { style: "percent", minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(
    bp / 10_000,
  );
}

/**
 * The contract terms in words for the settings tab, as saved or as typed: "A fee of €25.00 once,
 * 14 days after the due date, on invoices in EUR, at most 10.00% of the invoice".
 */
export function contractInWords(terms: ContractWords, locale: string): string {
  const grace =
    terms.graceDays > 0
      ? `${terms.graceDays} day${terms.graceDays === 1 ? "" : "s"} after the due date`
      : "the day after the due date";
  const cap = terms.capBp ? `, at most ${percent(terms.capBp, locale)} of the invoice` : "";
  if (terms.kind === "fixed") {
    const currency = terms.feeCurrency ?? "EUR";
    return `A fee of ${formatMoney(terms.feeCents ?? 0, currency, locale)} once, ${grace}, on invoices in ${currency}${cap}`;
  }
  const rate = percent(terms.rateBp ?? 0, locale);
  if (terms.kind === "percent_once") return `${rate} of what is unpaid, once, ${grace}${cap}`;
  return `${rate} a month of what is unpaid, from ${grace}${cap}`;
}
