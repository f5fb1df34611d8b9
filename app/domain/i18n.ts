import { IntlMessageFormat } from "intl-messageformat";
import type { Language } from "./languages";

/**
 * Message catalogues: every text Dunly writes to debtors, in each of LANGUAGES, as ICU messages
 * formatted by intl-messageformat (formatjs): `{name}` arguments and `{count, plural, one {…} other
 * {…}}`. English is the source: a catalogue is an object of keys to messages, and every other
 * language must have exactly its keys with the same arguments (TypeScript checks the keys,
 * `catalogueProblems` the arguments; each area's test runs it). Values are plain text: what
 * formats them never reads markup, and React escapes the result.
 */
export type Catalogue<K extends string = string> = Readonly<Record<K, string>>;
export type Catalogues<K extends string> = Readonly<Record<Language, Catalogue<K>>>;
export type MessageValues = Record<string, string | number>;
export type Translate<K extends string> = (key: K, values?: MessageValues) => string;

const cache = new Map<string, IntlMessageFormat>();
const numberFormats = new Map<string, Intl.NumberFormat>();

/**
 * For a translator asked `{ grouping: false }` (the e-mails', whose counts always read "1557 days"):
 * numbers in messages ("#" in a plural, `{n, number}`) without digit grouping. Dates and plural
 * rules are Intl's own.
 */
const UNGROUPED = {
  getNumberFormat(locales?: string | string[], options?: Intl.NumberFormatOptions) {
    const id = `${String(locales)}\u0000${JSON.stringify(options ?? {})}`;
    let format = numberFormats.get(id);
    if (!format) {
      format = new Intl.NumberFormat(locales, { ...options, useGrouping: false });
      numberFormats.set(id, format);
    }
    return format;
  },
  getDateTimeFormat: (locales?: string | string[], options?: Intl.DateTimeFormatOptions) =>
    new Intl.DateTimeFormat(locales, options),
  getPluralRules: (locales?: string | string[], options?: Intl.PluralRulesOptions) =>
    new Intl.PluralRules(locales, options),
};

function compiled(message: string, locale: string, grouping: boolean): IntlMessageFormat {
  const id = `${locale}\u0000${grouping ? "" : "ungrouped\u0000"}${message}`;
  let format = cache.get(id);
  if (!format) {
    format = grouping
      ? new IntlMessageFormat(message, locale)
      : new IntlMessageFormat(message, locale, undefined, { formatters: UNGROUPED });
    cache.set(id, format);
  }
  return format;
}

/**
 * A translator for one language, whose numbers and plural rules follow `locale` (the debtor's,
 * app/domain/languages.ts debtorLocale).
 */
export function translator<K extends string>(
  catalogues: Catalogues<K>,
  language: Language,
  locale: string,
  { grouping = true }: { grouping?: boolean } = {},
): Translate<K> {
  const catalogue = catalogues[language];
  return (key, values) => String(compiled(catalogue[key], locale, grouping).format(values));
}

/** The argument names a message uses, sorted: `{name}`, `{count, plural, …}` and those inside branches. */
export function messageArguments(message: string): string[] {
  const names = new Set<string>();
  const walk = (elements: ReturnType<IntlMessageFormat["getAst"]>) => {
    for (const element of elements) {
      if ("value" in element && typeof element.value === "string" && element.type !== 0 /* literal */)
        names.add(element.value);
      if ("options" in element) for (const option of Object.values(element.options)) walk(option.value);
    }
  };
  walk(new IntlMessageFormat(message, "en").getAst());
  return [...names].sort();
}

/**
 * What is wrong with a set of catalogues against English: keys missing or extra, and messages
 * whose arguments differ from the English one's. Empty when every language is complete.
 */
export function catalogueProblems<K extends string>(catalogues: Catalogues<K>): string[] {
  const problems: string[] = [];
  const source = catalogues.en;
  for (const [language, catalogue] of Object.entries(catalogues) as [Language, Catalogue<K>][]) {
    for (const key of Object.keys(source) as K[]) {
      const message = catalogue[key];
      if (typeof message !== "string" || message.trim() === "") {
        problems.push(`${language}: ${key} is missing`);
        continue;
      }
      const want = messageArguments(source[key]).join(",");
      const got = messageArguments(message).join(",");
      if (want !== got) problems.push(`${language}: ${key} uses {${got}}, English uses {${want}}`);
    }
    for (const key of Object.keys(catalogue))
      if (!(key in source)) problems.push(`${language}: ${key} is not in English`);
  }
  return problems;
}
