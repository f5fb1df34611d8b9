import { DEFAULT_NUMBER_LOCALE, type NumberLocale, userLocale } from "./number-locale";

/**
 * The languages Dunly writes to debtors in: its built-in reminders, the debtor's page, receipts
 * and the opt-out page. A debtor's language is stored on the debtor (debtors.language); unset, it
 * is the user's, read from their number format (users.locale), else English. Client-safe.
 */
export const LANGUAGES = ["en", "de", "fr", "es", "nl"] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = "en";

/** Each language's name in itself: how a picker lists it. */
export const LANGUAGE_NAMES: Record<Language, string> = {
  en: "English",
  de: "Deutsch",
  fr: "Français",
  es: "Español",
  nl: "Nederlands",
};

/** Where a language's dates and amounts are written when the user's own format is of another language. */
const LANGUAGE_LOCALES: Record<Language, NumberLocale> = {
  en: DEFAULT_NUMBER_LOCALE,
  de: "de-DE",
  fr: "fr-FR",
  es: "es-ES",
  nl: "nl-NL",
};

export function isLanguage(value: unknown): value is Language {
  return typeof value === "string" && (LANGUAGES as readonly string[]).includes(value);
}

/**
 * A language from what a person or a file typed: "de", "DE", "de-AT", "German", "Deutsch".
 * Null when it names none of LANGUAGES (the caller refuses it with a field error).
 */
export function readLanguage(value: string | null | undefined): Language | null {
  const text = (value ?? "").trim().toLowerCase();
  if (text === "") return null;
  const tag = text.split(/[-_]/)[0] ?? "";
  if (isLanguage(tag)) return tag;
  const byName: Record<string, Language> = {
    english: "en",
    german: "de",
    deutsch: "de",
    french: "fr",
    français: "fr",
    francais: "fr",
    spanish: "es",
    español: "es",
    espanol: "es",
    dutch: "nl",
    nederlands: "nl",
  };
  return byName[text] ?? null;
}

/** The user's language: the language of their number format when Dunly writes it, else English. */
export function userLanguage(storedLocale: string | null | undefined): Language {
  const tag = userLocale(storedLocale).split("-")[0];
  return isLanguage(tag) ? tag : DEFAULT_LANGUAGE;
}

/** The language a debtor is written to in: their own when set, else the user's. */
export function debtorLanguage(
  stored: string | null | undefined,
  userStoredLocale: string | null | undefined,
): Language {
  return isLanguage(stored) ? stored : userLanguage(userStoredLocale);
}

/**
 * The locale a debtor's dates and amounts are written in: the user's own format when it is of the
 * debtor's language (a British user's English debtor reads "5 March 2027"), else the language's own.
 */
export function debtorLocale(language: Language, userStoredLocale: string | null | undefined): NumberLocale {
  const own = userLocale(userStoredLocale);
  return own.split("-")[0] === language ? own : LANGUAGE_LOCALES[language];
}
