import * as v from "valibot";
import { canonicalTimeZone } from "~/domain/intl";
import { hasAtMostTwoDecimals, MAX_AMOUNT } from "~/domain/money";
import { isValidTimeZone } from "~/domain/schedule-time";
import { DEFAULT_STRATEGY, TONES } from "~/domain/strategies";
import { MAX_TIME_ZONE_LENGTH } from "~/domain/time-zone";
import { missingFieldMessage } from "./missing";

const DEBTOR_NAME_MESSAGE = "Please enter the full name of the debtor";
const DEBTOR_EMAIL_MESSAGE = "Please enter a valid email";
const DEBT_MESSAGE = "Please enter a number greater than 0";
// Money is whole cents: more decimals would be rounded away silently.
const DEBT_DECIMALS_MESSAGE = "Please enter an amount with at most two decimals";
const STRATEGY_MESSAGE = "Please choose a strategy";
export const TIME_ZONE_MESSAGE = "Please choose a valid time zone";

/** A zone's canonical spelling ("europe/berlin" → "Europe/Berlin"), as Intl resolves it. */
function canonicalZone(tz: string) {
  return canonicalTimeZone(tz);
}

/**
 * The debtor's IANA zone (their quiet hours). Optional: blank or absent means the user's own zone
 * for a new debtor and the debtor's current zone for an edit; an unknown zone is a field error.
 */
const TimeZoneField = v.optional(
  v.pipe(
    v.string(TIME_ZONE_MESSAGE),
    v.trim(),
    v.check((tz) => tz === "" || (tz.length <= MAX_TIME_ZONE_LENGTH && isValidTimeZone(tz)), TIME_ZONE_MESSAGE),
    v.transform((tz) => (tz === "" ? undefined : canonicalZone(tz))),
  ),
);
/** The currencies a debtor's debt may be in (ISO 4217), most common first; the form's select. */
export const CURRENCIES = ["USD", "EUR", "GBP", "CAD", "AUD", "NZD", "CHF", "JPY", "SEK", "NOK", "DKK", "PLN"] as const;
export type Currency = (typeof CURRENCIES)[number];
export const CURRENCY_MESSAGE = "Please choose a currency";
export const INVOICE_NUMBER_MAX = 64;
const INVOICE_NUMBER_MESSAGE = `Please use at most ${INVOICE_NUMBER_MAX} characters`;
const INVOICE_LINE_MESSAGE = "Please enter the invoice number on one line";

/**
 * The invoice number reminders show (docs/architecture.md §10): optional, one line of at most 64 characters.
 * Blank or absent: none (an edit without it clears it).
 */
const InvoiceNumberField = v.optional(
  v.pipe(
    v.string(INVOICE_LINE_MESSAGE),
    v.trim(),
    // No line breaks, tabs or other control characters: it goes into the subject line too.
    v.check((s) => !/[\p{Cc}\u2028\u2029]/u.test(s), INVOICE_LINE_MESSAGE),
    v.maxLength(INVOICE_NUMBER_MAX, INVOICE_NUMBER_MESSAGE),
    v.transform((s) => (s === "" ? undefined : s)),
  ),
);

/**
 * The debtor's currency. Optional: absent means the account's currency for a new debtor (that of
 * the account's most recently added debtor, USD for the first) and the debtor's own for an edit.
 */
const CurrencyField = v.optional(
  v.pipe(
    v.string(CURRENCY_MESSAGE),
    v.trim(),
    v.toUpperCase(),
    v.transform((s) => (s === "" ? undefined : s)),
    v.optional(v.picklist(CURRENCIES, CURRENCY_MESSAGE)),
  ),
);

const MISSING = missingFieldMessage({
  full_name: DEBTOR_NAME_MESSAGE,
  email: DEBTOR_EMAIL_MESSAGE,
  debt: DEBT_MESSAGE,
});

/** The debtor form and API payload, one schema for browser, action and JSON API. */
export const DebtorSchema = v.object(
  {
    kind: v.optional(v.picklist(["person", "company"]), "person"),
    full_name: v.pipe(
      v.string(DEBTOR_NAME_MESSAGE),
      v.trim(),
      v.nonEmpty(DEBTOR_NAME_MESSAGE),
      v.maxLength(200, "Please use at most 200 characters"),
    ),
    email: v.pipe(
      v.string(DEBTOR_EMAIL_MESSAGE),
      v.trim(),
      v.email(DEBTOR_EMAIL_MESSAGE),
      v.maxLength(254, DEBTOR_EMAIL_MESSAGE),
    ),
    debt: v.pipe(
      v.number(DEBT_MESSAGE),
      v.finite(DEBT_MESSAGE),
      v.minValue(1, DEBT_MESSAGE),
      v.maxValue(MAX_AMOUNT, `Please enter a number up to ${MAX_AMOUNT.toLocaleString("en-US")}`),
      v.check(hasAtMostTwoDecimals, DEBT_DECIMALS_MESSAGE),
    ),
    active_strategy: v.optional(v.pipe(v.number(), v.integer(), v.picklist(TONES, STRATEGY_MESSAGE)), DEFAULT_STRATEGY),
    time_zone: TimeZoneField,
    invoice_number: InvoiceNumberField,
    currency: CurrencyField,
  },
  MISSING,
);
export type DebtorInput = v.InferOutput<typeof DebtorSchema>;

/** The same fields as JSON: numbers may arrive as numeric strings from simple clients. */
export const DebtorJsonSchema = v.object(
  {
    ...DebtorSchema.entries,
    debt: v.pipe(
      v.union(
        [v.number(), v.pipe(v.string(), v.trim(), v.regex(/^\d+(\.\d+)?$/, DEBT_MESSAGE), v.transform(Number))],
        DEBT_MESSAGE,
      ),
      DebtorSchema.entries.debt,
    ),
    active_strategy: v.optional(
      v.pipe(
        v.union([v.number(), v.pipe(v.string(), v.transform(Number))]),
        v.integer(STRATEGY_MESSAGE),
        v.picklist(TONES, STRATEGY_MESSAGE),
      ),
      DEFAULT_STRATEGY,
    ),
    // null, like absent: the user's zone (new) or the debtor's (edit).
    time_zone: v.pipe(
      v.optional(v.nullable(v.string(TIME_ZONE_MESSAGE))),
      v.transform((tz) => tz ?? undefined),
      TimeZoneField,
    ),
    // null, like absent: no invoice number; the account's currency (new) or the debtor's (edit).
    invoice_number: v.pipe(
      v.optional(v.nullable(v.string(INVOICE_LINE_MESSAGE))),
      v.transform((s) => s ?? undefined),
      InvoiceNumberField,
    ),
    currency: v.pipe(
      v.optional(v.nullable(v.string(CURRENCY_MESSAGE))),
      v.transform((s) => s ?? undefined),
      CurrencyField,
    ),
  },
  MISSING,
);
