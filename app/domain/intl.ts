/**
 * Intl formatters, built once per locale, zone and options and then reused: making one costs far more than formatting with it, and a page formats hundreds of
 * dates and amounts. Module-level, so one Worker isolate (or one browser tab) shares them across
 * requests and renders. Keys hold user input (zones, currencies), so each cache is capped: when it
 * is full it starts over. An unknown zone or currency throws its RangeError and is not kept.
 */

/** Plenty for every zone × the handful of option sets the app uses. */
export const MAX_CACHED_FORMATTERS = 500;

function cachedIn<T>(cache: Map<string, T>, key: string, make: () => T): T {
  let value = cache.get(key);
  if (value === undefined) {
    value = make();
    if (cache.size >= MAX_CACHED_FORMATTERS) cache.clear();
    cache.set(key, value);
  }
  return value;
}

/** Options as written at a call site are small and always in the same order: their JSON is the key. */
const keyOf = (locale: string, options: object) => `${locale}\u0000${JSON.stringify(options)}`;

const dateTimeFormats = new Map<string, Intl.DateTimeFormat>();
const numberFormats = new Map<string, Intl.NumberFormat>();

/** `new Intl.DateTimeFormat(locale, options)`, made once per locale and options (the zone is one of them). */
export function dateTimeFormat(locale: string, options: Intl.DateTimeFormatOptions = {}): Intl.DateTimeFormat {
  return cachedIn(dateTimeFormats, keyOf(locale, options), () => new Intl.DateTimeFormat(locale, options));
}

/** `new Intl.NumberFormat(locale, options)`, made once per locale and options (the currency is one of them). */
export function numberFormat(locale: string, options: Intl.NumberFormatOptions = {}): Intl.NumberFormat {
  return cachedIn(numberFormats, keyOf(locale, options), () => new Intl.NumberFormat(locale, options));
}

/**
 * `make(key)` kept by one string key, capped like the caches above: for a caller that formats with
 * one option varying (a zone, a currency) on every row. Looking a formatter up by that string
 * instead of by its options' JSON saves a JSON.stringify and a longer key per call: the lists
 * format a date or an amount on every row. A `make` that throws keeps
 * nothing.
 */
export function formatterBy<T>(make: (key: string) => T): (key: string) => T {
  const cache = new Map<string, T>();
  return (key) => cachedIn(cache, key, () => make(key));
}

/** A count the way the app writes numbers in its messages: "1,000". */
export function formatCount(n: number): string {
  return numberFormat("en-US").format(n);
}

/** A zone's canonical spelling ("europe/berlin" → "Europe/Berlin"); throws a RangeError for an unknown zone. */
export function canonicalTimeZone(timeZone: string): string {
  return dateTimeFormat("en-US", { timeZone }).resolvedOptions().timeZone;
}
