import { parseCalendarDate } from "./calendar-date";
import { formatDate } from "./dates";

/**
 * A reminder as a text message (a cadence step whose channel is "text" or "both"): the user's
 * editable template with the amount owed, where the invoice stands ("12 days overdue", never
 * "overdue" before the due date) and a short link to the debtor's page, at most TEXT_MAX_CHARS
 * characters, always ending with how to stop them. Pure and client-safe: the template editor and
 * the consumer that builds each text read the same rules.
 */

/** The longest text Dunly sends, opt-out line included (two concatenated segments of GSM-7 is 306; longer ones cost three). */
export const TEXT_MAX_CHARS = 320;

/** Always appended, whatever the template says: carriers and the law expect the way out in every reminder. */
export const TEXT_STOP_LINE = "Reply STOP to opt out.";

export const TEXT_PLACEHOLDERS = ["name", "business", "amount", "status", "link"] as const;
export type TextPlaceholder = (typeof TEXT_PLACEHOLDERS)[number];

/** The ones a template must carry: what is owed, where it stands, and the way to pay or answer. */
export const REQUIRED_TEXT_PLACEHOLDERS: readonly TextPlaceholder[] = ["amount", "status", "link"];

/**
 * The longest each value may be once filled in. Names are shortened to fit ("…"); an amount, a
 * status or a link longer than its room is refused, never cut (the short portal link is made to
 * fit). A template is accepted only if it fits with all of them.
 */
export const TEXT_VALUE_MAX: Readonly<Record<TextPlaceholder, number>> = {
  name: 30,
  business: 30,
  amount: 24,
  status: 28,
  // The short link is the origin and 42 characters: 64 fits an origin of up to 22 characters
  // (https://dunly.app is 17; a local one such as http://localhost:45333, 22).
  link: 64,
};

export const DEFAULT_TEXT_TEMPLATE = "{business}: {amount} {status}. Pay or tell us when you can: {link}";

/** The values a text is built from: names as they are, the amount formatted, the link already short. */
export interface TextFacts {
  name: string;
  business: string;
  /** The amount owed, formatted in the debtor's currency and the user's format ("$1,250.00"). */
  amount: string;
  /** overdueStatus(): "is 12 days overdue", "is due today", "is due on Dec 5, 2026". */
  status: string;
  /** The debtor's page, shortened (the signed token in its short form). */
  link: string;
}

const PLACEHOLDER = /\{([a-z_]+)\}/g;

function isPlaceholder(name: string): name is TextPlaceholder {
  return (TEXT_PLACEHOLDERS as readonly string[]).includes(name);
}

/** Characters as a person counts them (an emoji is one), which is what the limit speaks of. */
export function textLength(text: string): number {
  return [...text].length;
}

/** The longest a template can become: its own words, each value at its longest, then the opt-out line. */
export function longestTextOf(template: string): number {
  let length = textLength(template.trim()) + 1 + textLength(TEXT_STOP_LINE);
  for (const m of template.matchAll(PLACEHOLDER)) {
    const name = m[1] ?? "";
    if (isPlaceholder(name)) length += TEXT_VALUE_MAX[name] - m[0].length;
  }
  return length;
}

/**
 * What is wrong with a template the user typed, as the editor shows it; null when it is fine. The
 * same message on the form and in the API (one schema uses it on both sides).
 */
export function textTemplateProblem(template: string): string | null {
  const trimmed = template.trim();
  if (trimmed === "") return "Enter the text of the message.";
  for (const m of trimmed.matchAll(PLACEHOLDER)) {
    const name = m[1] ?? "";
    if (!isPlaceholder(name))
      return `{${name}} is not something Dunly can fill in. Use ${TEXT_PLACEHOLDERS.map((p) => `{${p}}`).join(", ")}.`;
  }
  const missing = REQUIRED_TEXT_PLACEHOLDERS.filter((p) => !trimmed.includes(`{${p}}`));
  if (missing.length > 0)
    return `A text must say ${missing.map((p) => `{${p}}`).join(", ")}: the amount, where it stands and the link to pay or answer.`;
  const longest = longestTextOf(trimmed);
  if (longest > TEXT_MAX_CHARS)
    return `With the longest names, amount and link, and "${TEXT_STOP_LINE}", this text could reach ${longest} characters. Shorten it by ${longest - TEXT_MAX_CHARS} to stay within ${TEXT_MAX_CHARS}.`;
  return null;
}

/** A value at most `max` characters: cut with "…" when longer (a name never pushes the link out). */
function shortened(value: string, max: number): string {
  const chars = [...value.replace(/\s+/g, " ").trim()];
  return chars.length <= max
    ? chars.join("")
    : `${chars
        .slice(0, max - 1)
        .join("")
        .trimEnd()}…`;
}

export type RenderedText = { ok: true; body: string } | { ok: false; error: string };

/**
 * The text a debtor receives: the template filled in, then the opt-out line. Refused (never cut
 * short, never sent without its link) when the template is not a valid one or the result would
 * pass TEXT_MAX_CHARS; the caller records that as the delivery's failure.
 */
export function renderText(template: string, facts: TextFacts): RenderedText {
  const problem = textTemplateProblem(template);
  if (problem) return { ok: false, error: `The text template cannot be used: ${problem}` };
  // Only names are shortened: a cut amount, status or link would tell the debtor something false.
  for (const key of ["amount", "status", "link"] as const) {
    if (textLength(facts[key]) > TEXT_VALUE_MAX[key])
      return { ok: false, error: `The ${key} is longer than a text allows (${TEXT_VALUE_MAX[key]} characters).` };
  }
  const filled = template.trim().replace(PLACEHOLDER, (_, name: string) => {
    const key = name as TextPlaceholder;
    return key === "name" || key === "business" ? shortened(facts[key], TEXT_VALUE_MAX[key]) : facts[key];
  });
  const body = `${filled} ${TEXT_STOP_LINE}`;
  if (textLength(body) > TEXT_MAX_CHARS)
    return { ok: false, error: `The text would be ${textLength(body)} characters, more than ${TEXT_MAX_CHARS}.` };
  return { ok: true, body };
}

const DAY_MS = 86_400_000;

/**
 * Where the oldest invoice stands on `today` (both "YYYY-MM-DD"), as a text says it: "is 12 days
 * overdue", "is 1 day overdue", "is due today", "is due on Dec 5, 2026". Before the due date it
 * never says "overdue".
 */
export function overdueStatus(dueDate: string, today: string, locale?: string): string {
  const due = parseCalendarDate(dueDate);
  const now = parseCalendarDate(today);
  if (!due || !now) return "is due";
  const days = Math.round(
    (Date.UTC(now.year, now.month - 1, now.day) - Date.UTC(due.year, due.month - 1, due.day)) / DAY_MS,
  );
  if (days > 0) return `is ${days} ${days === 1 ? "day" : "days"} overdue`;
  if (days === 0) return "is due today";
  return `is due on ${formatDate(dueDate, locale)}`;
}

/** The GSM 03.38 basic set: a text of only these goes 160 characters a segment; one other character makes it UCS-2. */
const GSM_BASIC =
  "@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !\"#¤%&'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà";
/** The extension set: each costs two of a segment's characters. */
const GSM_EXTENDED = "^{}\\[~]|€\f";

export interface TextSegments {
  encoding: "GSM-7" | "UCS-2";
  segments: number;
}

/** How many billed segments a body takes (what the report's cost counts): 160/153 in GSM-7, 70/67 in UCS-2. */
export function textSegments(body: string): TextSegments {
  let septets = 0;
  let gsm = true;
  for (const ch of body) {
    if (GSM_BASIC.includes(ch)) septets += 1;
    else if (GSM_EXTENDED.includes(ch)) septets += 2;
    else {
      gsm = false;
      break;
    }
  }
  if (gsm) return { encoding: "GSM-7", segments: septets <= 160 ? 1 : Math.ceil(septets / 153) };
  const units = body.length; // UTF-16 code units: an emoji takes two
  return { encoding: "UCS-2", segments: units <= 70 ? 1 : Math.ceil(units / 67) };
}

/**
 * The key of an occurrence's text: the e-mail's occurrence key with ":text", so a step that sends
 * both has two deliveries, each claimed once, and the text's key is Twilio's idempotency key.
 */
export function textOccurrenceKey(occurrenceKey: string): string {
  return `${occurrenceKey}:text`;
}

/** Whether a delivery's key is a text's (the report and the exports count texts apart). */
export function isTextOccurrenceKey(key: string): boolean {
  return key.endsWith(":text");
}
