import { formatterBy, numberFormat } from "./intl";

/** Money is stored as integer minor units (cents); the UI and API speak decimal amounts. */
const DEFAULT_CURRENCY = "USD";
/** The largest debt we accept, far below where cents stop being exact integers. */
export const MAX_AMOUNT = 1_000_000_000;

/**
 * True when an amount is a whole number of cents (19.99, 5, 0.1): converting it to cents loses
 * nothing. 1.005 is not: storing it would silently round.
 */
export function hasAtMostTwoDecimals(amount: number): boolean {
  return Number.isFinite(amount) && Number(amount.toFixed(2)) === amount;
}

/** A decimal amount (19.99) in cents (1999), rounded so float drift cannot lose a cent. */
export function toCents(amount: number): number {
  return Math.round(amount * 100);
}

/** Cents (1999) as a decimal amount (19.99). */
export function fromCents(cents: number): number {
  return cents / 100;
}

/** What is still owed, in cents: the debt less what was paid (zero or less once settled). */
export function outstandingCents(debt: { debtCents: number; paidCents: number }): number {
  return debt.debtCents - debt.paidCents;
}

/** What is still owed as the pages show it: outstandingCents, never below zero (a debt lowered under what was paid). */
export function owedCents(debt: { debtCents: number; paidCents: number }): number {
  return Math.max(0, outstandingCents(debt));
}

/**
 * What a debtor still owes in currencies other than their own (`currency`), per currency, from
 * their invoices (decimal `owed`, 0 for a void one): the debtor's sums are in their own currency
 * alone, so without these a page would read "Paid in full"
 * while an invoice in another currency is open. Ordered by currency code.
 */
export function otherCurrenciesOwed(
  invoices: readonly { owed: number; currency: string }[],
  currency: string,
): { currency: string; cents: number }[] {
  const byCurrency = new Map<string, number>();
  for (const i of invoices) {
    if (i.currency === currency || i.owed <= 0) continue;
    byCurrency.set(i.currency, (byCurrency.get(i.currency) ?? 0) + toCents(i.owed));
  }
  return [...byCurrency].sort(([a], [b]) => a.localeCompare(b)).map(([c, cents]) => ({ currency: c, cents }));
}

/** The app's own locale's currency formatters, by currency (app/domain/intl.ts `formatterBy`). */
const usCurrencyFormat = formatterBy((currency) => numberFormat("en-US", { style: "currency", currency }));

/** "$1,234.50" for 123450 cents in USD. */
export function formatMoney(cents: number, currency = DEFAULT_CURRENCY, locale = "en-US"): string {
  const format =
    locale === "en-US" ? usCurrencyFormat(currency) : numberFormat(locale, { style: "currency", currency });
  return format.format(fromCents(cents));
}

/**
 * Currencies Stripe counts in whole units (https://docs.stripe.com/currencies#zero-decimal): their
 * amounts go to Stripe without the two decimals Dunly's cents carry (decisions/018).
 */
const ZERO_DECIMAL = new Set([
  "BIF",
  "CLP",
  "DJF",
  "GNF",
  "JPY",
  "KMF",
  "KRW",
  "MGA",
  "PYG",
  "RWF",
  "UGX",
  "VND",
  "VUV",
  "XAF",
  "XOF",
  "XPF",
]);

/** True when `currency` is counted in whole units (JPY): Dunly's cents of it are multiples of 100. */
export function isZeroDecimal(currency: string): boolean {
  return ZERO_DECIMAL.has(currency.toUpperCase());
}

/**
 * Dunly's cents of `currency` as Stripe's amount: the same number, or for a zero-decimal currency
 * whole units, rounded up (a debtor never pays less than owed; the ledger records only what is owed).
 */
export function toStripeAmount(cents: number, currency: string): number {
  return ZERO_DECIMAL.has(currency.toUpperCase()) ? Math.ceil(cents / 100) : cents;
}

/** Stripe's amount in `currency` as Dunly's cents (toStripeAmount's inverse). */
export function fromStripeAmount(amount: number, currency: string): number {
  return ZERO_DECIMAL.has(currency.toUpperCase()) ? amount * 100 : amount;
}

/**
 * An amount a provider's event reports, as Dunly's cents of `expected` (the currency of the
 * invoice or payment it is about), or why it does not count. A signed event is still only data:
 * the amount must be a whole number of the currency's smallest unit, at least 0 and at most the
 * largest amount Dunly keeps, in the very currency expected. Anything else (negative, a fraction,
 * NaN or a string, another currency, absurdly large) is refused, never rounded or rescaled.
 */
export function providerAmountCents(
  amount: unknown,
  currency: unknown,
  expected: string,
): { ok: true; cents: number } | { ok: false; reason: string } {
  if (typeof currency !== "string" || currency.toUpperCase() !== expected.toUpperCase()) {
    return { ok: false, reason: `currency ${JSON.stringify(currency ?? null)} is not ${expected.toUpperCase()}` };
  }
  if (typeof amount !== "number" || !Number.isSafeInteger(amount) || amount < 0) {
    return { ok: false, reason: `amount ${JSON.stringify(amount ?? null)} is not a whole number of at least 0` };
  }
  const cents = fromStripeAmount(amount, expected);
  if (cents > MAX_AMOUNT * 100) {
    return { ok: false, reason: `amount ${amount} is more than Dunly keeps (${MAX_AMOUNT.toLocaleString("en-US")})` };
  }
  return { ok: true, cents };
}
