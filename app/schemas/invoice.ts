import * as v from "valibot";
import { readAmount } from "~/domain/amount-input";
import { isCalendarDate } from "~/domain/calendar-date";
import { formatMoney, hasAtMostTwoDecimals, MAX_AMOUNT } from "~/domain/money";
import { missingFieldMessage } from "./missing";

/**
 * An invoice's fields: one schema for the debtor and invoice forms, the
 * JSON API and the CSV import, so every path that writes an invoice accepts the same values.
 */

import { CURRENCIES, CURRENCY_MESSAGE } from "~/domain/currencies";

export { CURRENCIES, CURRENCY_MESSAGE, type Currency } from "~/domain/currencies";
export const INVOICE_NUMBER_MAX = 64;
const INVOICE_NUMBER_MESSAGE = `Please use at most ${INVOICE_NUMBER_MAX} characters`;
const INVOICE_LINE_MESSAGE = "Please enter the invoice number on one line";
export const AMOUNT_MESSAGE = "Please enter a number greater than 0";
// Money is whole cents: more decimals would be rounded away silently.
const AMOUNT_DECIMALS_MESSAGE = "Please enter an amount with at most two decimals";
const DATE_MESSAGE = "Please enter a valid date";
export const DUE_BEFORE_ISSUE_MESSAGE = "The due date cannot be before the issue date";
export const NUMBER_TAKEN_MESSAGE = "Another invoice of yours already has this number";
/** A currency change of an invoice that has payments (they were in its currency). */
export const CURRENCY_PAID_MESSAGE = "Payments were recorded in this currency: it cannot change now.";

/** An amount below what was already paid on the invoice (the ledger's rule, checked by the server). */
export function belowPaidMessage(paidCents: number, currency: string) {
  return `Please enter at least ${formatMoney(paidCents, currency)}: that much has been paid on it.`;
}

/**
 * An amount's checks (decimal units): the invoice's, the debtor form's debt and a payment's. One
 * message at a time: "1e400" is no finite number, not also over the maximum and inexact.
 * `lowest`: the lower bound (0.01 by default: a debt starts at 1, a payment is above 0).
 */
export const amountChecks = (
  message = AMOUNT_MESSAGE,
  lowest: v.MinValueAction<number, number, string> | v.GtValueAction<number, number, string> = v.minValue(
    0.01,
    message,
  ),
) =>
  v.config(
    v.pipe(
      v.number(message),
      v.finite(message),
      lowest,
      v.maxValue(MAX_AMOUNT, `Please enter a number up to ${MAX_AMOUNT.toLocaleString("en-US")}`),
      v.check(hasAtMostTwoDecimals, AMOUNT_DECIMALS_MESSAGE),
    ),
    { abortPipeEarly: true },
  );

/**
 * An amount typed into a form, read in the user's number format (`locale`, app/domain/amount-input.ts):
 * an ambiguous or foreign-format amount is refused with its readings, never guessed; then the
 * amount's checks. A number (a test's, or a form posted by code) is taken as it is.
 */
export const typedAmount = (locale: string, message = AMOUNT_MESSAGE, lowest?: Parameters<typeof amountChecks>[1]) =>
  v.pipe(
    v.union([v.string(), v.number()], message),
    v.rawTransform(({ dataset, addIssue, NEVER }) => {
      const reading = readAmount(dataset.value, locale);
      if (reading.ok) return reading.value;
      addIssue({ message: "message" in reading ? reading.message : message });
      return NEVER;
    }),
    amountChecks(message, lowest),
  );

/** What the API answers for an amount with a comma: it takes dot-decimal numbers only. */
export const apiCommaMessage = (typed: string) =>
  `Amounts in the API use a dot for decimals and no thousands separators, as in 1234.56: "${typed}" has a comma.`;

/** A numeric string with a dot for decimals, as a JSON body may send an amount. */
export const numericString = (message: string) =>
  v.pipe(v.string(), v.trim(), v.regex(/^\d+(\.\d+)?$/, message), v.transform(Number));

/**
 * A decimal amount in a JSON body: a number, or a numeric string with a dot for decimals. A comma
 * is refused first, with its own message: "99,90" is never read as 9,990 or 99.90.
 */
export const jsonNumber = (message: string) =>
  v.pipe(
    v.unknown(),
    v.check(
      (x) => typeof x !== "string" || !x.includes(","),
      (issue) => apiCommaMessage(String(issue.input)),
    ),
    v.union([v.number(), numericString(message)], message),
  );

/** A decimal amount in a JSON body (jsonNumber), with the amount's checks. */
export const jsonAmount = (message = AMOUNT_MESSAGE) => v.pipe(jsonNumber(message), amountChecks(message));

/**
 * The invoice number (shown in reminders and the portal): optional, one line of at most 64
 * characters. Blank or absent: none (an edit without it clears it).
 */
export const InvoiceNumberField = v.optional(
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
 * The currency. Optional: absent means the debtor's currency for an invoice (a new debtor's: USD
 * unless chosen), and the invoice's own for an edit.
 */
export const CurrencyField = v.optional(
  v.pipe(
    v.string(CURRENCY_MESSAGE),
    v.trim(),
    v.toUpperCase(),
    v.transform((s) => (s === "" ? undefined : s)),
    v.optional(v.picklist(CURRENCIES, CURRENCY_MESSAGE)),
  ),
);

/** A calendar date "YYYY-MM-DD"; optional (blank: absent). */
const DateField = v.optional(
  v.pipe(
    v.string(DATE_MESSAGE),
    v.trim(),
    v.transform((s) => (s === "" ? undefined : s)),
    v.optional(v.pipe(v.string(), v.check(isCalendarDate, DATE_MESSAGE))),
  ),
);

/** JSON and CSV: null like absent. */
const nullableText = (message: string) =>
  v.pipe(
    v.optional(v.nullable(v.string(message))),
    v.transform((s) => s ?? undefined),
  );

const MISSING = missingFieldMessage({ amount: AMOUNT_MESSAGE });

/** The invoice number in a JSON body or CSV cell: null like absent. */
export const InvoiceNumberJsonField = v.pipe(nullableText(INVOICE_LINE_MESSAGE), InvoiceNumberField);
/** A due date (the debtor form's, for their first invoice): blank or absent, the issue date. */
export const InvoiceDueOnField = DateField;
export const InvoiceJsonDueOnField = v.pipe(nullableText(DATE_MESSAGE), DateField);

/** A due date before the issue date is refused, on the due date's field. */
const dueNotBeforeIssue = (input: { issued_on?: string; due_on?: string }) =>
  !input.issued_on || !input.due_on || input.due_on >= input.issued_on;

/** The invoice form (add and edit, in the debtor's modal and page), its amount in the user's number format. */
export const invoiceSchema = (locale: string) =>
  v.pipe(
    v.object(
      {
        number: InvoiceNumberField,
        amount: typedAmount(locale),
        currency: CurrencyField,
        // Absent: today (the caller's) for a new invoice, unchanged for an edit.
        issued_on: DateField,
        // Absent: the issue date for a new invoice, unchanged for an edit.
        due_on: DateField,
      },
      MISSING,
    ),
    v.forward(v.partialCheck([["issued_on"], ["due_on"]], dueNotBeforeIssue, DUE_BEFORE_ISSUE_MESSAGE), ["due_on"]),
  );
export type InvoiceInput = v.InferOutput<ReturnType<typeof invoiceSchema>>;

/** The same fields as JSON (POST /api/invoices/add, PUT /api/invoices/edit) and as CSV cells: amounts may be numeric strings, null is absent. */
export const InvoiceJsonSchema = v.pipe(
  v.object(
    {
      number: InvoiceNumberJsonField,
      amount: jsonAmount(),
      currency: v.pipe(nullableText(CURRENCY_MESSAGE), CurrencyField),
      issued_on: InvoiceJsonDueOnField,
      due_on: InvoiceJsonDueOnField,
    },
    MISSING,
  ),
  v.forward(v.partialCheck([["issued_on"], ["due_on"]], dueNotBeforeIssue, DUE_BEFORE_ISSUE_MESSAGE), ["due_on"]),
);
