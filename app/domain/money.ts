/** Money is stored as integer minor units (cents); the UI and API speak decimal amounts. */
export const DEFAULT_CURRENCY = "USD";
/** The largest debt we accept, far below where cents stop being exact integers. */
export const MAX_AMOUNT = 1_000_000_000;

export function toCents(amount: number): number {
  return Math.round(amount * 100);
}

export function fromCents(cents: number): number {
  return cents / 100;
}

/** "$1,234.50" for 123450 cents in USD. */
export function formatMoney(cents: number, currency = DEFAULT_CURRENCY, locale = "en-US"): string {
  return new Intl.NumberFormat(locale, { style: "currency", currency }).format(cents / 100);
}
