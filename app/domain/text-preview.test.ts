import { describe, expect, it } from "vitest";
import {
  DEFAULT_TEXT_TEMPLATE,
  longestTextOf,
  renderText,
  TEXT_MAX_CHARS,
  TEXT_PLACEHOLDERS,
  TEXT_STOP_LINE,
  TEXT_VALUE_MAX,
  textLength,
  textSegments,
  textTemplateProblem,
} from "./text-message";
import { LONGEST_SAMPLE_FACTS, TEXT_PLACEHOLDER_HELP, textCountLine, textPreview } from "./text-preview";

describe("the text preview", () => {
  it("uses sample values exactly as long as a text allows, so the preview is the longest the limit checks", () => {
    for (const p of TEXT_PLACEHOLDERS) expect(textLength(LONGEST_SAMPLE_FACTS[p]), p).toBe(TEXT_VALUE_MAX[p]);
    for (const template of [
      DEFAULT_TEXT_TEMPLATE,
      "Hi {name}, {business} here: {amount} {status}. {link}",
      "  {amount} {status} {link}  ",
    ]) {
      const preview = textPreview(template);
      expect(preview.ok, template).toBe(true);
      if (preview.ok) expect(preview.length, template).toBe(longestTextOf(template));
    }
  });

  it("is what renderText sends, the opt-out line included, with its real characters and segments", () => {
    const preview = textPreview(DEFAULT_TEXT_TEMPLATE);
    const sent = renderText(DEFAULT_TEXT_TEMPLATE, LONGEST_SAMPLE_FACTS);
    expect(sent.ok).toBe(true);
    if (!preview.ok || !sent.ok) return;
    expect(preview.body).toBe(sent.body);
    expect(preview.body.endsWith(` ${TEXT_STOP_LINE}`)).toBe(true);
    expect(preview.body).toBe(
      `Northwind Joinery & Renovation: $12,345,678.90 + €950.00 is due on September 30, 2026. Pay or tell us when you can: https://dunly.app/t/k3Jq9xWm2LpR7vTn4ZsY8A.hG5cN1bV6fD0eQ2wXyZ7p ${TEXT_STOP_LINE}`,
    );
    expect(preview.length).toBe(textLength(preview.body));
    // 172 characters, the € two of GSM-7's septets: two segments.
    expect(preview.segments).toEqual({ encoding: "GSM-7", segments: 2 });
    expect(textCountLine(preview)).toBe(`${preview.length} of 320 characters · 2 SMS segments`);
  });

  it("counts one segment, and says when a character makes it Unicode", () => {
    const short = textPreview("{amount} {status} {link}");
    expect(short.ok && textCountLine(short)).toBe(
      `${longestTextOf("{amount} {status} {link}")} of 320 characters · 1 SMS segment`,
    );
    const emoji = textPreview("🙂 {amount} {status} {link}");
    expect(emoji.ok && emoji.segments).toEqual(textSegments(emoji.ok ? emoji.body : ""));
    expect(emoji.ok && textCountLine(emoji)).toMatch(/· 3 SMS segments \(Unicode: /);
    expect(textCountLine({ length: 1234, segments: { encoding: "GSM-7", segments: 9 } }, "de-DE")).toBe(
      "1.234 of 320 characters · 9 SMS segments",
    );
  });

  it("gives the template's problem instead of a preview: a missing {link}, an unknown placeholder, too long", () => {
    expect(textPreview("{amount} {status}")).toEqual({ ok: false, error: textTemplateProblem("{amount} {status}") });
    expect(textPreview("{amount} {status} {link} {iban}")).toMatchObject({
      ok: false,
      error: expect.stringContaining("{iban}"),
    });
    const long = `${"x".repeat(200)} {amount} {status} {link}`;
    expect(longestTextOf(long)).toBeGreaterThan(TEXT_MAX_CHARS);
    expect(textPreview(long)).toMatchObject({ ok: false, error: expect.stringContaining("Shorten it by") });
  });

  it("says what every placeholder becomes, and which are required", () => {
    expect(Object.keys(TEXT_PLACEHOLDER_HELP).sort()).toEqual([...TEXT_PLACEHOLDERS].sort());
    for (const p of ["amount", "status", "link"] as const) expect(TEXT_PLACEHOLDER_HELP[p]).toMatch(/Required\.$/);
    for (const p of ["name", "business"] as const) expect(TEXT_PLACEHOLDER_HELP[p]).not.toMatch(/Required/);
  });
});
