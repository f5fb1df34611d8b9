/**
 * The currencies an invoice may be in (ISO 4217), most common first: the forms' select. Its own
 * module so a page that only lists them (Settings' default currency) does not load the invoice
 * schemas.
 */
export const CURRENCIES = ["USD", "EUR", "GBP", "CAD", "AUD", "NZD", "CHF", "JPY", "SEK", "NOK", "DKK", "PLN"] as const;
export type Currency = (typeof CURRENCIES)[number];
export const CURRENCY_MESSAGE = "Please choose a currency";
