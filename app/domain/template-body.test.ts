import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { BODY_MAX, inlineText, parseBody, parseStepText, parseSubject, withStatement } from "./template-body";

const values = {
  debtorName: "Acme Ltd",
  contactName: "Jane",
  total: "€1.234,56",
  oldestDueDate: "5. März 2027",
  daysOverdue: "12 Tage",
};

describe("a user's reminder text", () => {
  it("parses paragraphs, line breaks, bold, links and placeholders", () => {
    const parsed = parseBody(
      "Hi {contactName},\nline two **{total} now**\n\n{statement}\n\nSee [your page](https://x.test/a?b=1).",
    );
    expect(parsed).toEqual({
      ok: true,
      value: [
        {
          kind: "paragraph",
          lines: [
            [
              { kind: "text", text: "Hi " },
              { kind: "placeholder", name: "contactName" },
              { kind: "text", text: "," },
            ],
            [
              { kind: "text", text: "line two " },
              {
                kind: "bold",
                children: [
                  { kind: "placeholder", name: "total" },
                  { kind: "text", text: " now" },
                ],
              },
            ],
          ],
        },
        { kind: "part", name: "statement" },
        {
          kind: "paragraph",
          lines: [
            [
              { kind: "text", text: "See " },
              { kind: "link", href: "https://x.test/a?b=1", children: [{ kind: "text", text: "your page" }] },
              { kind: "text", text: "." },
            ],
          ],
        },
      ],
    });
  });

  it("refuses unknown placeholders, parts inside a sentence, twice the same part, HTML and unsafe links", () => {
    const bad = parseBody(
      "Dear {firstName}, see {statement}\n{payButton}\n{payButton}\n<script>alert(1)</script>\n[x](javascript:alert(1))",
    );
    expect(bad.ok).toBe(false);
    if (bad.ok) return;
    expect(bad.errors).toEqual([
      "HTML is not sent: write plain text, with **bold** and [links](https://…).",
      expect.stringMatching(/^\{firstName\} is not a placeholder\. Use one of: \{debtorName\}/),
      "Put {statement} on a line of its own: it is a whole part of the e-mail.",
      "{payButton} can appear only once.",
      'The link "javascript:alert(1" must start with https:// (or be a mailto: address).',
    ]);
  });

  it("keeps text that only looks like markup as text: a lone ** and a < b", () => {
    const parsed = parseBody("2 ** 3 and a < b > c");
    expect(parsed.ok && parsed.value[0]).toEqual({
      kind: "paragraph",
      lines: [
        [
          { kind: "text", text: "2 " },
          { kind: "text", text: "** 3 and a < b > c" },
        ],
      ],
    });
  });

  it("refuses an empty or huge body", () => {
    expect(parseBody("  \n ").ok).toBe(false);
    expect(parseBody("a".repeat(BODY_MAX + 1))).toEqual({
      ok: false,
      errors: ["The text can be at most 5,000 characters."],
    });
    expect(parseBody("a".repeat(BODY_MAX)).ok).toBe(true);
  });

  it("takes a subject of one line with word placeholders only", () => {
    const subject = parseSubject("Invoice for {debtorName}: {total}");
    expect(subject.ok && inlineText(subject.value, values)).toBe("Invoice for Acme Ltd: €1.234,56");
    expect(parseSubject("Hello\r\nBcc: x@evil.test")).toEqual({ ok: false, errors: ["The subject must be one line."] });
    expect(parseSubject("{statement}")).toEqual({ ok: false, errors: ["{statement} cannot be in the subject."] });
    expect(parseSubject("a\u202eb").ok).toBe(false);
    expect(parseSubject(" ")).toEqual({ ok: false, errors: ["Write a subject."] });
  });

  it("never leaves the statement out: after the first paragraph when not placed", () => {
    const parsed = parseBody("One\n\nTwo");
    if (!parsed.ok) throw new Error("parse");
    expect(withStatement(parsed.value).map((b) => (b.kind === "part" ? b.name : "p"))).toEqual(["p", "statement", "p"]);
    expect(withStatement([]).map((b) => b.kind)).toEqual(["part"]);
  });

  it("answers every input with blocks or errors, never a throw", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), fc.string({ maxLength: 80 }), (body, subject) => {
        const result = parseStepText({ subject, body });
        expect(typeof result.ok).toBe("boolean");
      }),
    );
  });
});
