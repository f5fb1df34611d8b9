import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  assertHeaderSafe,
  formatAddress,
  HeaderInjectionError,
  MAX_DISPLAY_NAME,
  oneLine,
  safeDisplayName,
  safeLines,
  stripInvisible,
} from "./header-safe";

describe("oneLine", () => {
  it("collapses line breaks, tabs and runs of spaces, and trims", () => {
    expect(oneLine("  Acme\r\nBcc: x@evil.example\t Ltd  ")).toBe("Acme Bcc: x@evil.example Ltd");
    expect(oneLine("A\u2028B\u2029C")).toBe("A B C");
  });
  it("turns other control characters into spaces", () => {
    expect(oneLine("Acme\u0000\u0007Ltd\u007f")).toBe("Acme Ltd");
  });
  it("keeps an ordinary name as it is", () => {
    expect(oneLine("Sally Sender")).toBe("Sally Sender");
    expect(oneLine('Zoë & Søn, "Quoted"')).toBe('Zoë & Søn, "Quoted"');
  });
});

describe("assertHeaderSafe", () => {
  it("accepts one line", () => {
    expect(() => assertHeaderSafe("Sally Sender", "Sender name")).not.toThrow();
  });
  it.each(["A\nB", "A\rB", "A\r\nB"])("refuses %j", (value) => {
    expect(() => assertHeaderSafe(value, "Subject")).toThrow(HeaderInjectionError);
    expect(() => assertHeaderSafe(value, "Subject")).toThrow("Subject must not contain line breaks");
  });
});

describe("formatAddress", () => {
  it("quotes the name and escapes quotes and backslashes", () => {
    expect(formatAddress("Sally Sender", "r@dunly.test")).toBe('"Sally Sender" <r@dunly.test>');
    expect(formatAddress('Eve "the" \\ Sender', "r@dunly.test")).toBe('"Eve \\"the\\" \\\\ Sender" <r@dunly.test>');
  });
  it("gives the bare address for an empty name", () => {
    expect(formatAddress("", "r@dunly.test")).toBe("r@dunly.test");
  });
  it("refuses a name with a line break", () => {
    expect(() => formatAddress("Eve\r\nBcc: x@evil.example", "r@dunly.test")).toThrow(
      "Sender name must not contain line breaks",
    );
  });
});

describe("stripInvisible and oneLine: bidi and zero-width characters", () => {
  const hidden = [
    "\u202a",
    "\u202b",
    "\u202c",
    "\u202d",
    "\u202e",
    "\u2066",
    "\u2067",
    "\u2068",
    "\u2069",
    "\u200e",
    "\u200f",
    "\u200b",
    "\u200c",
    "\u200d",
    "\u2060",
    "\ufeff",
  ];
  it.each(hidden.map((c) => [`U+${c.codePointAt(0)?.toString(16).toUpperCase()}`, c]))("removes %s", (_name, c) => {
    expect(stripInvisible(`Ac${c}me`)).toBe("Acme");
    expect(oneLine(`${c}Acme${c} Ltd${c}`)).toBe("Acme Ltd");
  });
  it("undoes a right-to-left override that would show 'fdp.exe' as 'exe.pdf'", () => {
    expect(oneLine("invoice\u202efdp.exe")).toBe("invoicefdp.exe");
  });
  it("turns C1 controls and NEL into spaces", () => {
    expect(oneLine("A\u0085B\u009bC")).toBe("A B C");
  });
});

describe("safeLines", () => {
  it("splits on every kind of line break and cleans each line", () => {
    expect(safeLines("12 Long Road\r\nSpringfield\u2028\u202e 12345 \n\n\u200b\r")).toEqual([
      "12 Long Road",
      "Springfield",
      "12345",
    ]);
  });
});

describe("safeDisplayName", () => {
  it("removes a bare '://' too (a counterexample fast-check found)", () => {
    expect(safeDisplayName("://")).toBe("");
    expect(safeDisplayName("Acme ://evil")).toBe("Acme");
  });

  it.each([
    ["Sally Sender", "Sally Sender"],
    ['Zoë & Søn, "Quoted"', 'Zoë & Søn, "Quoted"'],
    ["Acme Inc.", "Acme Inc."],
    ["J. R. R. Tolkien", "J. R. R. Tolkien"],
    ["Eve <i>Sender</i>", "Eve <i>Sender</i>"],
    ["O'Brien-Smith GmbH & Co. KG", "O'Brien-Smith GmbH & Co. KG"],
    ["株式会社 山田", "株式会社 山田"],
  ])("keeps an ordinary name: %j", (name, expected) => {
    expect(safeDisplayName(name)).toBe(expected);
  });

  it.each([
    ["an address in brackets", "PayPal Billing <billing@evil.com>", "PayPal Billing"],
    ["a bare address", "support@paypal.com", ""],
    ["an address after a name", "Acme security@acme-payments.net team", "Acme team"],
    ["an https URL", "Acme https://evil.com/pay?x=1 Ltd", "Acme Ltd"],
    ["an http URL in parentheses", "Acme (http://evil.com)", "Acme"],
    ["a www. name", "Pay at www.evil.com now", "Pay at now"],
    ["a bare domain", "evil.com", ""],
    ["a bare domain with a path", "Visit evil.co.uk/login today", "Visit today"],
    ["a domain in quotes", 'Acme "evil.com"', "Acme"],
    ["an upper-case domain", "ACME BANK.COM", "ACME"],
    ["a domain with a port", "Acme evil.com:8443", "Acme"],
    ["an internationalized domain", "Bank пример.рф", "Bank"],
    ["a punycode domain", "Bank xn--e1afmkfd.xn--p1ai", "Bank"],
    ["full-width look-alikes", "Acme ｅｖｉｌ．ｃｏｍ", "Acme"],
    ["an ideographic dot", "Acme evil\u3002com", "Acme"],
    ["a zero-width space hiding a domain", "Acme evil\u200b.com", "Acme"],
    ["a soft hyphen hiding a domain", "Acme ev\u00adil.com", "Acme"],
    ["a header injection", "Sally\r\nBcc: victim@example.com", "Sally Bcc:"],
    [
      "all of it",
      "\u202eAcme\u200b Billing\u2066 <billing@evil.com>\r\nReply at https://evil.com or www.evil.com or evil.com\u2069",
      "Acme Billing Reply at or or",
    ],
  ])("removes %s", (_what, name, expected) => {
    expect(safeDisplayName(name)).toBe(expected);
  });

  it("looks at the first MAX_DISPLAY_NAME characters only, so a huge name costs little", () => {
    const started = performance.now();
    const safe = safeDisplayName(`Acme ${"a.".repeat(50_000)}`);
    expect(performance.now() - started).toBeLessThan(200);
    expect(Array.from(safe).length).toBeLessThanOrEqual(MAX_DISPLAY_NAME);
    expect(safe).toMatch(/^Acme a\.a\.a/);
  });

  it("never leaves a line break, an invisible character, an @ or a domain, and is idempotent", () => {
    const alphabet = fc.constantFrom(
      ..."aAz09 .-@:/<>()\"'_\r\n\t\u2028\u202e\u2066\u200b\u200d\ufeff\u00adｅ．。wh".split(""),
      "www.",
      "http://",
      "evil.com",
      ".com",
    );
    fc.assert(
      fc.property(
        fc.array(alphabet, { maxLength: 40 }).map((parts) => parts.join("")),
        (name) => {
          const safe = safeDisplayName(name);
          expect(safe).not.toMatch(/[\r\n\u2028\u2029\u202a-\u202e\u2066-\u2069\u200b-\u200f\u2060\ufeff\u00ad]/);
          expect(safe).not.toMatch(/@[^\s<>()[\]{}"'`]|:\/\/|www\.|[\p{L}\p{N}]\.\p{L}{2}/u);
          expect(safe).toBe(safe.trim());
          expect(safeDisplayName(safe)).toBe(safe);
        },
      ),
      { numRuns: 5000 },
    );
  });
});
