import * as v from "valibot";
import { isCalendarDate } from "~/domain/calendar-date";
import { formatMoney, toCents } from "~/domain/money";
import { DEFAULT_NUMBER_LOCALE } from "~/domain/number-locale";
import { isValidTimeZone, localDateString } from "~/domain/schedule-time";
import { MAX_TIME_ZONE_LENGTH } from "~/domain/time-zone";
import { amountChecks, jsonNumber, typedAmount } from "./invoice";
import { missingFieldMessage } from "./missing";

const AMOUNT_MESSAGE = "Please enter a number greater than 0";
const DATE_MESSAGE = "Please enter a valid date";
export const PAYMENT_FUTURE_MESSAGE = "The payment date cannot be in the future";
export const PAYMENT_NOTE_MAX = 500;
const NOTE_MESSAGE = `Please use at most ${PAYMENT_NOTE_MAX} characters`;

const MISSING = missingFieldMessage({ amount: AMOUNT_MESSAGE, paid_on: DATE_MESSAGE });

/**
 * The field error for a payment above what is still owed (`owedCents`): the most a payment may be.
 * Shown by the browser (it knows the debtor's balance) and by the server, which checks it when it
 * writes (app/ledger/payments.server.ts).
 */
export function overOwedMessage(owedCents: number, currency?: string) {
  if (owedCents <= 0) return "Nothing is owed any more: the debt is paid in full.";
  return `The payment can be at most ${formatMoney(owedCents, currency)}, the amount still owed.`;
}

/** What bounds a payment besides its own fields: the latest date it may have, and (in the browser) the balance. */
export interface PaymentLimits {
  /** "YYYY-MM-DD": the payer's today. A later date is refused. */
  today: string;
  /** The most the payment may be, in cents (owed, plus the payment's own amount for an edit). */
  maxCents?: number;
  currency?: string;
  /** The user's number format: how the form's amount is read (app/domain/amount-input.ts). */
  locale?: string;
}

/** At most what is owed (in the browser, where the balance is known). */
const withinOwed = (limits: PaymentLimits) =>
  v.check(
    (n: number) => limits.maxCents === undefined || toCents(n) <= limits.maxCents,
    () => overOwedMessage(limits.maxCents ?? 0, limits.currency),
  );

/** The payment's amount: an amount above 0 (one message at a time), at most what is owed. */
const amount = (limits: PaymentLimits) =>
  v.config(v.pipe(amountChecks(AMOUNT_MESSAGE, v.gtValue(0, AMOUNT_MESSAGE)), withinOwed(limits)), {
    abortPipeEarly: true,
  });

/** The same, typed into the form in the user's number format. */
const typedPaymentAmount = (limits: PaymentLimits) =>
  v.config(
    v.pipe(
      typedAmount(limits.locale ?? DEFAULT_NUMBER_LOCALE, AMOUNT_MESSAGE, v.gtValue(0, AMOUNT_MESSAGE)),
      withinOwed(limits),
    ),
    { abortPipeEarly: true },
  );

const paidOn = (limits: PaymentLimits) =>
  v.pipe(
    v.string(DATE_MESSAGE),
    v.trim(),
    v.check(isCalendarDate, DATE_MESSAGE),
    // Both are "YYYY-MM-DD": string order is date order. (A date not on the calendar has its message already.)
    v.check((date) => !isCalendarDate(date) || date <= limits.today, PAYMENT_FUTURE_MESSAGE),
  );

const INVOICE_MESSAGE = "Please choose one of the debtor's open invoices";

/**
 * The invoice a payment is for (the form's "Apply to"): absent or blank, the open invoices oldest
 * due date first. The server checks it is one of the debtor's (app/ledger/payments.server.ts).
 */
const invoiceId = v.optional(
  v.pipe(v.number(INVOICE_MESSAGE), v.integer(INVOICE_MESSAGE), v.minValue(1, INVOICE_MESSAGE)),
);

// No default value: conform turns an empty field into undefined, also a default "" (absent: no note).
const note = v.optional(v.pipe(v.string(), v.trim(), v.maxLength(PAYMENT_NOTE_MAX, NOTE_MESSAGE)));

/**
 * The payment form (add and edit, in the debtor's modal): amount, date, optional note. One schema
 * for the browser and the action; the debtor and payment ids are separate fields, only a request.
 */
export function paymentSchema(limits: PaymentLimits) {
  return v.object(
    { amount: typedPaymentAmount(limits), paid_on: paidOn(limits), note, invoice_id: invoiceId },
    MISSING,
  );
}
export type PaymentInput = v.InferOutput<ReturnType<typeof paymentSchema>>;

/** A decimal amount in a JSON body: a number, or a numeric string from simple clients. */
const jsonAmount = (limits: PaymentLimits) => v.pipe(jsonNumber(AMOUNT_MESSAGE), amount(limits));

const jsonNote = v.pipe(
  v.optional(v.nullable(v.string("Please enter the note as text")), ""),
  v.transform((text) => (text ?? "").trim()),
  v.maxLength(PAYMENT_NOTE_MAX, NOTE_MESSAGE),
);

/**
 * A payment in a JSON body (POST /api/payments/add, PUT /api/payments/edit): amount, paid_on and an
 * optional note (null or absent: none). The debtor or payment id is read separately.
 */
export function paymentJsonSchema(limits: PaymentLimits) {
  return v.object(
    {
      amount: jsonAmount(limits),
      paid_on: paidOn(limits),
      note: jsonNote,
      // null, like absent: the open invoices, oldest due date first.
      invoice_id: v.pipe(
        v.optional(v.nullable(v.number(INVOICE_MESSAGE))),
        v.transform((id) => id ?? undefined),
        invoiceId,
      ),
    },
    MISSING,
  );
}

/** The zone where the calendar day starts first (UTC+14): no date that is today somewhere is later. */
const EARLIEST_ZONE = "Pacific/Kiritimati";

/**
 * "YYYY-MM-DD", the latest date a payment may have: today in `zone` (the browser's, from the `tz`
 * cookie) or, without a known zone (an API client), today where the day starts first.
 */
export function paymentToday(zone: string | null | undefined, now = Date.now()) {
  return localDateString(
    now,
    zone && zone.length <= MAX_TIME_ZONE_LENGTH && isValidTimeZone(zone) ? zone : EARLIEST_ZONE,
  );
}
