import { describe, expect, it } from "vitest";
import {
  DEFAULT_TEXT_TEMPLATE,
  isTextOccurrenceKey,
  longestTextOf,
  overdueStatus,
  renderText,
  TEXT_MAX_CHARS,
  TEXT_STOP_LINE,
  textLength,
  textOccurrenceKey,
  textSegments,
  textTemplateProblem,
} from "./text-message";

const facts = {
  name: "Ana Lima",
  business: "Acme Plumbing",
  amount: "$1,250.00",
  status: "is 12 days overdue",
  link: "https://dunly.app/t/k7Qm2xZ9aB4c",
};

describe("the text template", () => {
  it("accepts the default and fills it in, ending with the way to stop", () => {
    expect(textTemplateProblem(DEFAULT_TEXT_TEMPLATE)).toBeNull();
    const text = renderText(DEFAULT_TEXT_TEMPLATE, facts);
    expect(text).toEqual({
      ok: true,
      body: `Acme Plumbing: $1,250.00 is 12 days overdue. Pay or tell us when you can: https://dunly.app/t/k7Qm2xZ9aB4c ${TEXT_STOP_LINE}`,
    });
  });

  it("refuses a template without the amount, the status or the link, or with an unknown field", () => {
    expect(textTemplateProblem("   ")).toBe("Enter the text of the message.");
    expect(textTemplateProblem("Please pay {amount} {status}")).toMatch(/must say \{link\}/);
    expect(textTemplateProblem("Pay here {link}")).toMatch(/must say \{amount\}, \{status\}/);
    expect(textTemplateProblem("{amount} {status} {link} {invoice}")).toMatch(/\{invoice\} is not something/);
  });

  it("refuses a template that could pass 320 characters with the longest values, and says by how much", () => {
    const words = "x".repeat(200);
    const template = `${words} {name} {business} {amount} {status} {link}`;
    expect(longestTextOf(template)).toBeGreaterThan(TEXT_MAX_CHARS);
    const problem = textTemplateProblem(template);
    expect(problem).toMatch(/could reach \d+ characters\. Shorten it by \d+/);
    const over = longestTextOf(template) - TEXT_MAX_CHARS;
    expect(problem).toContain(`Shorten it by ${over} `);
    // Exactly at the limit is accepted.
    const fits = `${"x".repeat(200 - over)} {name} {business} {amount} {status} {link}`;
    expect(longestTextOf(fits)).toBe(TEXT_MAX_CHARS);
    expect(textTemplateProblem(fits)).toBeNull();
  });

  it("shortens long names so the link always fits, and never passes the limit", () => {
    const longest = `${"y".repeat(108)} {name} {business} {amount} {status} {link}`;
    expect(textTemplateProblem(longest)).toBeNull();
    const text = renderText(longest, { ...facts, name: "N".repeat(500), business: "B ".repeat(300) });
    expect(text.ok).toBe(true);
    if (!text.ok) return;
    expect(textLength(text.body)).toBeLessThanOrEqual(TEXT_MAX_CHARS);
    expect(text.body).toContain(`${"N".repeat(29)}…`);
    expect(text.body).toContain(facts.link);
    expect(text.body.endsWith(TEXT_STOP_LINE)).toBe(true);
  });

  it("never cuts the link, the amount or the status: a value too long for its room is refused", () => {
    const long = `https://dunly.app/d/${"k".repeat(32)}.${"s".repeat(43)}`;
    expect(renderText(DEFAULT_TEXT_TEMPLATE, { ...facts, link: long })).toEqual({
      ok: false,
      error: "The link is longer than a text allows (64 characters).",
    });
    expect(renderText(DEFAULT_TEXT_TEMPLATE, { ...facts, amount: "9".repeat(25) }).ok).toBe(false);
  });

  it("refuses to build from a broken template instead of sending it cut short", () => {
    expect(renderText("Pay now", facts)).toEqual({ ok: false, error: expect.stringMatching(/cannot be used/) });
  });
});

describe("where the invoice stands", () => {
  it("says overdue only after the due date", () => {
    expect(overdueStatus("2026-11-17", "2026-11-29")).toBe("is 12 days overdue");
    expect(overdueStatus("2026-11-28", "2026-11-29")).toBe("is 1 day overdue");
    expect(overdueStatus("2026-11-29", "2026-11-29")).toBe("is due today");
    expect(overdueStatus("2026-12-05", "2026-11-29")).toMatch(/^is due on .*2026/);
    expect(overdueStatus("2026-12-05", "2026-11-29")).not.toMatch(/overdue/);
    // Across a month and a year end.
    expect(overdueStatus("2025-12-31", "2026-01-02")).toBe("is 2 days overdue");
  });
});

describe("segments", () => {
  it("counts GSM-7 at 160/153 and UCS-2 at 70/67, the extension set as two", () => {
    expect(textSegments("a".repeat(160))).toEqual({ encoding: "GSM-7", segments: 1 });
    expect(textSegments("a".repeat(161))).toEqual({ encoding: "GSM-7", segments: 2 });
    expect(textSegments("€".repeat(80))).toEqual({ encoding: "GSM-7", segments: 1 });
    expect(textSegments("€".repeat(81))).toEqual({ encoding: "GSM-7", segments: 2 });
    expect(textSegments("a".repeat(307))).toEqual({ encoding: "GSM-7", segments: 3 });
    expect(textSegments("ł".repeat(70))).toEqual({ encoding: "UCS-2", segments: 1 });
    expect(textSegments("ł".repeat(71))).toEqual({ encoding: "UCS-2", segments: 2 });
    // An emoji is two UTF-16 units.
    expect(textSegments("🙂".repeat(35))).toEqual({ encoding: "UCS-2", segments: 1 });
    expect(textSegments("🙂".repeat(36))).toEqual({ encoding: "UCS-2", segments: 2 });
  });
});

describe("a text's occurrence key", () => {
  it("is the e-mail's key with its own suffix, told apart from it", () => {
    expect(textOccurrenceKey("s1:1700000000000")).toBe("s1:1700000000000:text");
    expect(isTextOccurrenceKey("s1:1700000000000:text")).toBe(true);
    expect(isTextOccurrenceKey("s1:1700000000000")).toBe(false);
  });
});
