import { isLanguage, LANGUAGE_NAMES, LANGUAGES, type Language, userLanguage } from "./languages";

/**
 * How the debtor screens name a debtor's language (decisions/055): the language's own name, or,
 * for a debtor without one, "Same as mine (English)": the user's, which follows their number
 * format (users.locale). Client-safe.
 */
export function sameAsMineLabel(userStoredLocale: string | null | undefined): string {
  return `Same as mine (${LANGUAGE_NAMES[userLanguage(userStoredLocale)]})`;
}

/** The debtor's language as the debtor's details show it. */
export function debtorLanguageLabel(stored: string | null | undefined, userStoredLocale: string | null | undefined) {
  return isLanguage(stored) ? LANGUAGE_NAMES[stored] : sameAsMineLabel(userStoredLocale);
}

/** The form's choices: "Same as mine (…)" (blank: null) and the five languages by their own names. */
export function languageOptions(
  userStoredLocale: string | null | undefined,
): { value: "" | Language; label: string }[] {
  return [
    { value: "", label: sameAsMineLabel(userStoredLocale) },
    ...LANGUAGES.map((language) => ({ value: language, label: LANGUAGE_NAMES[language] })),
  ];
}
