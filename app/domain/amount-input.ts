import { NumberParser } from "@internationalized/number";
import { numberFormat } from "./intl";
import { amountExample, separatorsOf } from "./number-locale";

/**
 * Amounts as people type them (docs/decisions/050): "1.234,56" in Germany, "1,234.56" in the US,
 * "1 234,56" in France, each read in the user's number format (a locale). The parse itself is
 * @internationalized/number's; what it would read leniently ("99,90" as 9,990 in the US, "1.234,56"
 * as 1.23456) is refused first, here:
 *
 * - a lone separator followed by exactly three digits ("1,234", "1.234") could be a thousands
 *   separator or a decimal one: refused with both readings;
 * - a lone thousands separator of the user's format followed by other than three digits ("99,90"
 *   in the US) is a decimal separator of another format, or a slip: refused with both readings;
 * - an amount written unmistakably in another format ("1.234,56" in the US) is refused with how
 *   to type it in the user's;
 * - anything else that is not a number (letters, a currency sign, groups of two) is refused with
 *   the field's own message.
 *
 * Money is never rescaled by a guess. Pure and client-safe: the forms, the actions and the CSV
 * import read amounts with it.
 */

export type AmountReading =
  | { ok: true; value: number }
  | { ok: false; reason: "empty" | "malformed" }
  | {
      ok: false;
      reason: "ambiguous" | "other-format";
      message: string;
      /** The parts of the message, for a page that writes it in another language: what was typed, the readings (two when ambiguous, the one meant otherwise) and how an amount is written in `locale`. */
      typed: string;
      readings: string[];
      example: string;
    };

/** Spaces and apostrophes people put between thousands; they never stand for decimals. */
const SPACING = /[\s\u00a0\u202f'’]/g;

/** Digits grouped by threes: "1", "12", "123", "1,234", "12,345,678" (with `sep`). */
function groupedBy(sep: string, integer: string): boolean {
  const groups = integer.split(sep);
  const [head, ...rest] = groups;
  return head !== undefined && /^\d{1,3}$/.test(head) && rest.length > 0 && rest.every((g) => /^\d{3}$/.test(g));
}

/**
 * Reads what was typed into an amount field in the user's number format `locale`. A number
 * (from a JSON body or a form without JavaScript's coercion) is taken as it is.
 */
export function readAmount(input: unknown, locale: string): AmountReading {
  if (typeof input === "number") return Number.isFinite(input) ? { ok: true, value: input } : malformed;
  if (typeof input !== "string") return { ok: false, reason: "empty" };
  const typed = input.trim();
  if (typed === "") return { ok: false, reason: "empty" };
  const { decimal, group } = separatorsOf(locale);
  // A space or apostrophe only between thousands: "1 234,56", not "12 34".
  if (/[\s\u00a0\u202f'’](?!\d{3}(?!\d))/.test(typed)) return malformed;
  const compact = typed.replace(SPACING, "");
  const sign = compact.startsWith("-") ? "-" : "";
  const body = sign ? compact.slice(1) : compact;
  if (!/^[\d.,]+$/.test(body) || !/\d/.test(body) || /^[.,]|[.,]$/.test(body)) return malformed;

  const dots = body.split(".").length - 1;
  const commas = body.split(",").length - 1;
  const example = amountExample(locale);
  const asTyped = (value: number) => formatReading(Number(`${sign}${value}`), locale);
  const ambiguous = (a: number, b: number): AmountReading => ({
    ok: false,
    reason: "ambiguous",
    message: `"${typed}" could be read as ${asTyped(a)} or as ${asTyped(b)}. Please type the amount with its decimals, as in ${example}.`,
    typed,
    readings: [asTyped(a), asTyped(b)],
    example,
  });
  const otherFormat = (value: number): AmountReading => ({
    ok: false,
    reason: "other-format",
    message: `"${typed}" is written in another number format than yours (${example}). Please type it as ${asTyped(value)}, or change your number format in Settings.`,
    typed,
    readings: [asTyped(value)],
    example,
  });
  const decimalOf = (integer: string, fraction: string) => Number(`${integer}.${fraction}`);

  if (dots === 0 && commas === 0) return parsed(`${sign}${body}`, locale);

  if (dots > 0 && commas > 0) {
    // Both: the last one is the decimal separator, the other groups the thousands before it.
    const last = body.lastIndexOf(".") > body.lastIndexOf(",") ? "." : ",";
    const other = last === "." ? "," : ".";
    const at = body.lastIndexOf(last);
    const integer = body.slice(0, at);
    const fraction = body.slice(at + 1);
    if (body.split(last).length - 1 !== 1 || !groupedBy(other, integer)) return malformed;
    const value = decimalOf(integer.split(other).join(""), fraction);
    if (last !== decimal) return otherFormat(value);
    return parsed(`${sign}${integer.split(other).join(group)}${decimal}${fraction}`, locale);
  }

  const sep = dots > 0 ? "." : ",";
  const count = dots + commas;
  if (count > 1) {
    // Several of one kind: only thousands ("1,234,567").
    if (!groupedBy(sep, body)) return malformed;
    const value = Number(body.split(sep).join(""));
    if (sep !== group) return otherFormat(value);
    return parsed(`${sign}${body}`, locale);
  }

  const [integer = "", fraction = ""] = body.split(sep);
  const asDecimal = decimalOf(integer, fraction);
  const asThousands = Number(`${integer}${fraction}`);
  // "1,234" or "1.234": thousands, or three decimals.
  if (fraction.length === 3 && integer.length <= 3) return ambiguous(asThousands, asDecimal);
  if (sep === decimal) return parsed(`${sign}${integer}${decimal}${fraction}`, locale);
  // The user's thousands separator where a decimal one would be ("99,90" in the US): what a lenient
  // parser makes of it (9,990) or a decimal comma (99.90).
  if (sep === group) return ambiguous(asDecimal, asThousands);
  // Neither of the user's separators ("99.90" in France): a decimal separator of another format.
  return otherFormat(asDecimal);
}

const malformed: AmountReading = { ok: false, reason: "malformed" };

/** A reading shown in a message: two decimals, three where the reading has them. */
function formatReading(value: number, locale: string): string {
  return numberFormat(locale, { minimumFractionDigits: 2, maximumFractionDigits: 3 }).format(value);
}

/** The parse of text already written in the locale's own format. */
function parsed(text: string, locale: string): AmountReading {
  const value = new NumberParser(locale).parse(text);
  return Number.isFinite(value) ? { ok: true, value } : malformed;
}
