import {
  renderText,
  TEXT_MAX_CHARS,
  TEXT_VALUE_MAX,
  type TextFacts,
  type TextPlaceholder,
  type TextSegments,
  textLength,
  textSegments,
  textTemplateProblem,
} from "./text-message";

/**
 * What Settings → Text messages shows beside the template (decisions/070): what each placeholder
 * becomes, and the text at its longest as `renderText` builds it, opt-out line included, with its
 * characters and billed segments. Pure and client-safe: the page renders it on the server and
 * follows the typing in the browser.
 */

/** What each placeholder becomes, in the order the editor lists them. */
export const TEXT_PLACEHOLDER_HELP: Readonly<Record<TextPlaceholder, string>> = {
  name: `The debtor's name (shortened with "…" past ${TEXT_VALUE_MAX.name} characters)`,
  business: `Your business name (shortened with "…" past ${TEXT_VALUE_MAX.business} characters)`,
  amount: "What the debtor owes, in their currency and your number format, such as $1,250.00. Required.",
  status: 'Where the oldest invoice stands: "is 12 days overdue", "is due today" or "is due on Dec 5, 2026". Required.',
  link: "A short link to the debtor's page, where they pay, say they paid or answer. Required.",
};

/**
 * Sample values each exactly as long as a text allows (TEXT_VALUE_MAX), so the preview is the
 * longest this template can become: the same length `longestTextOf` checks against the limit.
 */
export const LONGEST_SAMPLE_FACTS: Readonly<TextFacts> = {
  name: "Alexandra Montgomery-Whitfield",
  business: "Northwind Joinery & Renovation",
  amount: "$12,345,678.90 + €950.00",
  status: "is due on September 30, 2026",
  // A short link's shape, as long as the limit allows a link to be (a real one at dunly.app is 59).
  link: "https://dunly.app/t/k3Jq9xWm2LpR7vTn4ZsY8A.hG5cN1bV6fD0eQ2wXyZ7pR4tU9sK2mN5bV8c".slice(0, TEXT_VALUE_MAX.link),
};

export type TextPreview =
  | {
      ok: true;
      /** The text as it would be sent with the longest values, opt-out line included. */
      body: string;
      /** Its characters as the limit counts them. */
      length: number;
      segments: TextSegments;
    }
  | { ok: false; error: string };

/** The template filled with the longest sample values, or what is wrong with it. */
export function textPreview(template: string): TextPreview {
  const problem = textTemplateProblem(template);
  if (problem) return { ok: false, error: problem };
  const rendered = renderText(template, LONGEST_SAMPLE_FACTS);
  if (!rendered.ok) return { ok: false, error: rendered.error };
  return { ok: true, body: rendered.body, length: textLength(rendered.body), segments: textSegments(rendered.body) };
}

/** "212 of 320 characters · 2 SMS segments" (and the encoding when one character makes it UCS-2). */
export function textCountLine(preview: { length: number; segments: TextSegments }, locale = "en-US"): string {
  const { segments, encoding } = preview.segments;
  const n = (v: number) => v.toLocaleString(locale);
  return `${n(preview.length)} of ${n(TEXT_MAX_CHARS)} characters · ${n(segments)} SMS ${segments === 1 ? "segment" : "segments"}${encoding === "UCS-2" ? " (Unicode: a character outside the GSM alphabet makes every segment shorter)" : ""}`;
}
