/** A header value that would let a name inject headers (a line break). */
export class HeaderInjectionError extends Error {}

/** One line for a header or subject: control characters become spaces, runs of whitespace collapse. */
export function oneLine(value: string): string {
  return (
    value
      // biome-ignore lint/suspicious/noControlCharactersInRegex: removing control characters is the point.
      .replace(/[\u0000-\u001f\u007f\u2028\u2029]+/g, " ")
      .replace(/\s+/g, " ")
      .trim()
  );
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
