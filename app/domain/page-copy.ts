import { type Catalogue, type Catalogues, type MessageValues, type Translate, translator } from "./i18n";
import { DEFAULT_LANGUAGE, type Language } from "./languages";
import { DEFAULT_NUMBER_LOCALE } from "./number-locale";

/**
 * The words of one page a debtor reads (their page, "I've paid", opt-out) in the one language it is
 * written in: the loader picks that language's messages from the page's catalogues
 * (app/domain/i18n/*) and sends only those to the browser, which formats them with the same
 * translator as the server (intl-messageformat), so the page hydrates with the same text and
 * ships no other language. Client-safe; the catalogues themselves are imported by loaders only.
 */
export interface PageCopy<K extends string> {
  language: Language;
  /** Where the page's dates, amounts and plural rules are written (app/domain/languages.ts debtorLocale). */
  locale: string;
  messages: Catalogue<K>;
}

/** A message a form's check or an action answers: a catalogue key and its values, written by the page. */
export interface PageMessage<K extends string = string> {
  key: K;
  values?: MessageValues;
}

type KeyOf<C> = C extends Catalogues<infer K> ? K : never;

/** One language's messages of `catalogues`, merged (their keys never overlap: each area has its prefix). */
export function pageCopy<C extends Catalogues<string>[]>(
  language: Language,
  locale: string,
  ...catalogues: C
): PageCopy<KeyOf<C[number]>> {
  const messages: Record<string, string> = {};
  for (const catalogue of catalogues) Object.assign(messages, catalogue[language]);
  return { language, locale, messages: messages as Catalogue<KeyOf<C[number]>> };
}

/** A page's copy in English, for a link that names no debtor (not valid: no language to follow). */
export function englishCopy<C extends Catalogues<string>[]>(...catalogues: C): PageCopy<KeyOf<C[number]>> {
  return pageCopy(DEFAULT_LANGUAGE, DEFAULT_NUMBER_LOCALE, ...catalogues);
}

const translators = new WeakMap<object, Translate<string>>();

/** The translator of a page's copy (one per copy object). */
export function translate<K extends string>(copy: PageCopy<K>): Translate<K> {
  let t = translators.get(copy.messages);
  if (!t) {
    t = translator({ [copy.language]: copy.messages } as unknown as Catalogues<string>, copy.language, copy.locale);
    translators.set(copy.messages, t);
  }
  return t as Translate<K>;
}

/** A PageMessage written out; a key the copy lacks (never, when the types hold) reads as itself. */
export function say<K extends string>(t: Translate<K>, message: PageMessage<K> | undefined): string | undefined {
  if (!message) return undefined;
  try {
    return t(message.key, message.values);
  } catch {
    return message.key;
  }
}
