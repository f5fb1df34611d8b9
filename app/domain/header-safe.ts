/** A header value that would let a name inject headers (a line break). */
export class HeaderInjectionError extends Error {}

/**
 * Invisible characters that reorder or hide text: bidi embeddings, overrides, isolates and marks
 * (U+202A–U+202E, U+2066–U+2069, U+200E/U+200F, U+061C), zero-width characters (U+200B–U+200D,
 * U+2060–U+2064, U+FEFF), the soft hyphen and the Mongolian vowel separator.
 */
const INVISIBLE = /[\u00ad\u061c\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]/g;

/** Text without the invisible characters that could disguise it (see INVISIBLE). */
export function stripInvisible(value: string): string {
  return value.replace(INVISIBLE, "");
}

/**
 * One line for a header, a subject or a name: invisible characters go, control characters and line
 * breaks become spaces, runs of whitespace collapse.
 */
export function oneLine(value: string): string {
  return (
    stripInvisible(value)
      // biome-ignore lint/suspicious/noControlCharactersInRegex: removing control characters is the point.
      .replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, " ")
      .replace(/\s+/g, " ")
      .trim()
  );
}

/** A multi-line field (an address) as its non-empty lines, each one made safe by oneLine. */
export function safeLines(value: string): string[] {
  return value
    .split(/\r\n|[\n\r\v\f\u0085\u2028\u2029]/)
    .map(oneLine)
    .filter(Boolean);
}

// A dot as IDNA reads it: ASCII, ideographic (U+3002) and the full- and half-width ones NFKC leaves.
const DOT = "[.\\u3002\\uff0e\\uff61]";
const LABEL = "[\\p{L}\\p{N}](?:[\\p{L}\\p{N}-]{0,61}[\\p{L}\\p{N}])?";
const TLD = "(?:\\p{L}{2,63}|xn--[a-z0-9-]{2,59})";
// What ends a link or an address inside a name: whitespace, brackets and quotes.
const TAIL = "[^\\s<>()\\[\\]{}\"'`]*";
const LINK_PATTERNS = [
  // e-mail addresses (anything with an @ between two non-blank runs)
  `${TAIL}@[^\\s<>()\\[\\]{}"'\`]+`,
  // URLs with a scheme (or a bare "://", which mail clients may still link), and www. names
  `(?:[a-z][a-z0-9+.-]*)?:\\/\\/${TAIL}`,
  `www\\d{0,3}${DOT}${TAIL}`,
  // bare domains with whatever follows them (evil.com, evil.co.uk/path, evil.com:8443)
  `(?<![\\p{L}\\p{N}])${LABEL}(?:${DOT}${LABEL})*${DOT}${TLD}${TAIL}`,
];
const LINKS = new RegExp(LINK_PATTERNS.join("|"), "giu");
/** Characters of a display name that are looked at; the rest is cut off. */
export const MAX_DISPLAY_NAME = 200;
const EMPTY_BRACKETS = /<\s*>|\(\s*\)|\[\s*\]|\{\s*\}|"\s*"/g;

/**
 * A display name for the From header and for names shown in an e-mail: one line, nothing
 * invisible, and nothing that looks like an address or a link, so a name cannot pose as another
 * sender or carry a link (NFKC first, so full-width look-alikes are caught too). May return "".
 */
export function safeDisplayName(value: string): string {
  // Longer than any real name; the cap keeps the patterns' work small whatever comes in.
  const capped = Array.from(value).slice(0, MAX_DISPLAY_NAME).join("");
  let name = oneLine(capped.normalize("NFKC")).replace(LINKS, " ");
  // Brackets emptied by a removal go too, nested ones round by round: "((x@y.z))" leaves nothing.
  for (let before = ""; before !== name; ) {
    before = name;
    name = name.replace(EMPTY_BRACKETS, " ");
  }
  return oneLine(name);
}

/** Header values must be one line: CR/LF would let a name inject headers. */
export function assertHeaderSafe(value: string, field: string): void {
  if (/[\r\n]/.test(value)) throw new HeaderInjectionError(`${field} must not contain line breaks`);
}

/** `"Name" <address>` with the name's quotes and backslashes escaped; the bare address for no name. */
export function formatAddress(name: string, address: string): string {
  assertHeaderSafe(name, "Sender name");
  const quoted = name.replace(/["\\]/g, "\\$&");
  return quoted ? `"${quoted}" <${address}>` : address;
}
