import { numberFormat } from "./intl";

/**
 * The user's number format (Settings → Personal information): a locale that writes and reads
 * their amounts ("1.234,56" in Germany) and their dates. Unset, it follows the browser's
 * languages. Client-safe and small: the settings page lists the formats without the parser
 * (app/domain/amount-input.ts).
 */

/** The number formats a user can choose (Settings), each a locale that also writes their dates. */
export const NUMBER_LOCALES = [
  "en-US",
  "en-GB",
  "de-DE",
  "de-CH",
  "fr-FR",
  "es-ES",
  "it-IT",
  "nl-NL",
  "pt-BR",
  "sv-SE",
] as const;
export type NumberLocale = (typeof NUMBER_LOCALES)[number];
export const DEFAULT_NUMBER_LOCALE: NumberLocale = "en-US";

export function isNumberLocale(value: unknown): value is NumberLocale {
  return typeof value === "string" && (NUMBER_LOCALES as readonly string[]).includes(value);
}

/** A user's stored format (users.locale), or the default when they chose none: what their e-mails and their debtors' pages are written in. */
export function userLocale(stored: string | null | undefined): NumberLocale {
  return isNumberLocale(stored) ? stored : DEFAULT_NUMBER_LOCALE;
}

/**
 * The supported locale closest to a browser's languages (an Accept-Language header, or
 * navigator.languages joined): an exact match first, then the first of the same language; the
 * default otherwise.
 */
export function numberLocaleFrom(languages: string | null | undefined): NumberLocale {
  const wanted = (languages ?? "")
    .split(",")
    .map((part) => part.split(";")[0]?.trim() ?? "")
    .filter((tag) => tag !== "" && tag !== "*");
  for (const tag of wanted) {
    const exact = NUMBER_LOCALES.find((l) => l.toLowerCase() === tag.toLowerCase());
    if (exact) return exact;
    const language = tag.split("-")[0]?.toLowerCase();
    const same = NUMBER_LOCALES.find((l) => l.split("-")[0] === language);
    if (same) return same;
  }
  return DEFAULT_NUMBER_LOCALE;
}

interface Separators {
  decimal: string;
  group: string;
}

const separatorsCache = new Map<string, Separators>();
/** The locale's decimal and thousands separators, as Intl writes them. */
export function separatorsOf(locale: string): Separators {
  let found = separatorsCache.get(locale);
  if (!found) {
    const parts = numberFormat(locale, { useGrouping: true }).formatToParts(1234567.5);
    found = {
      decimal: parts.find((p) => p.type === "decimal")?.value ?? ".",
      group: parts.find((p) => p.type === "group")?.value ?? ",",
    };
    separatorsCache.set(locale, found);
  }
  return found;
}

/** "1,234.56", "1.234,56", "1 234,56": how the locale writes an amount, for messages and the Settings list. */
export function amountExample(locale: string): string {
  return numberFormat(locale, { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(1234.56);
}

/** An amount as an amount field shows it to be edited: the user's decimal separator, no grouping ("1234,50"). */
export function formatAmountInput(value: number, locale: string): string {
  return numberFormat(locale, { useGrouping: false, minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(value);
}
