import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { readAmount } from "./amount-input";
import { numberFormat } from "./intl";
import { amountExample, formatAmountInput, NUMBER_LOCALES, numberLocaleFrom, separatorsOf } from "./number-locale";

const value = (text: unknown, locale: string) => {
  const r = readAmount(text, locale);
  return r.ok ? r.value : r.reason;
};
const message = (text: string, locale: string) => {
  const r = readAmount(text, locale);
  return !r.ok && "message" in r ? r.message : null;
};

describe("readAmount", () => {
  it("reads each format in its own locale", () => {
    expect(value("1,234.56", "en-US")).toBe(1234.56);
    expect(value("1.234,56", "de-DE")).toBe(1234.56);
    expect(value("1 234,56", "fr-FR")).toBe(1234.56);
    expect(value("1\u202f234,56", "fr-FR")).toBe(1234.56);
    expect(value("1’234.56", "de-CH")).toBe(1234.56);
    expect(value("99,90", "de-DE")).toBe(99.9);
    expect(value("99.90", "en-US")).toBe(99.9);
    expect(value("1,234,567", "en-US")).toBe(1234567);
    expect(value("1.234.567", "de-DE")).toBe(1234567);
    expect(value("350", "en-US")).toBe(350);
    expect(value(" 12.5 ", "en-US")).toBe(12.5);
    expect(value(42.5, "de-DE")).toBe(42.5);
  });

  it("refuses an amount that could be read two ways, showing both readings", () => {
    expect(message("99,90", "en-US")).toBe(
      '"99,90" could be read as 99.90 or as 9,990.00. Please type the amount with its decimals, as in 1,234.56.',
    );
    expect(message("1,234", "en-US")).toBe(
      '"1,234" could be read as 1,234.00 or as 1.234. Please type the amount with its decimals, as in 1,234.56.',
    );
    expect(message("1.234", "de-DE")).toBe(
      '"1.234" could be read as 1.234,00 or as 1,234. Please type the amount with its decimals, as in 1.234,56.',
    );
    expect(message("99.90", "de-DE")).toMatch(/could be read as 99,90 or as 9\.990,00/);
    expect(readAmount("12,345", "en-US")).toMatchObject({ ok: false, reason: "ambiguous" });
  });

  it("refuses an amount written in another format, saying how to type it", () => {
    expect(message("1.234,56", "en-US")).toBe(
      '"1.234,56" is written in another number format than yours (1,234.56). Please type it as 1,234.56, or change your number format in Settings.',
    );
    expect(message("1,234.56", "de-DE")).toMatch(/Please type it as 1\.234,56/);
    expect(message("1.234.567", "en-US")).toMatch(/Please type it as 1,234,567\.00/);
    expect(message("99.90", "fr-FR")).toMatch(/Please type it as 99,90/);
  });

  it("refuses what is not a number", () => {
    for (const text of ["abc", "$12", "12 34", "1,2,3", "1.2.3,4", "1,23,456", ",5", "5.", "1e5", "12..5", "--5"])
      expect([text, value(text, "en-US")]).toEqual([text, "malformed"]);
    expect(value("", "en-US")).toBe("empty");
    expect(value("   ", "en-US")).toBe("empty");
    expect(value(undefined, "en-US")).toBe("empty");
    expect(value(Number.NaN, "en-US")).toBe("malformed");
  });

  it("every amount formatted in a locale reads back as itself there (grouped, and as a field shows it)", () => {
    fc.assert(
      fc.property(fc.constantFrom(...NUMBER_LOCALES), fc.integer({ min: 1, max: 100_000_000_000 }), (locale, cents) => {
        const amount = cents / 100;
        const grouped = numberFormat(locale, { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(amount);
        expect(readAmount(grouped, locale)).toEqual({ ok: true, value: amount });
        expect(readAmount(formatAmountInput(amount, locale), locale)).toEqual({ ok: true, value: amount });
      }),
      { numRuns: 2000 },
    );
  });

  it("a German amount typed in the US format is never read as another amount", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 10_000_000_00 }), (cents) => {
        const german = numberFormat("de-DE", { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(
          cents / 100,
        );
        const r = readAmount(german, "en-US");
        if (r.ok) expect(r.value).toBe(cents / 100);
      }),
    );
  });
});

describe("the user's number format", () => {
  it("comes from the browser's languages", () => {
    expect(numberLocaleFrom("de-DE,de;q=0.9,en;q=0.8")).toBe("de-DE");
    expect(numberLocaleFrom("de-AT,de;q=0.9")).toBe("de-DE");
    expect(numberLocaleFrom("en-GB,en;q=0.9")).toBe("en-GB");
    expect(numberLocaleFrom("ja-JP")).toBe("en-US");
    expect(numberLocaleFrom(null)).toBe("en-US");
  });
  it("is shown by example", () => {
    expect(amountExample("en-US")).toBe("1,234.56");
    expect(amountExample("de-DE")).toBe("1.234,56");
    expect(separatorsOf("de-CH")).toEqual({ decimal: ".", group: expect.stringMatching(/^['’]$/) });
  });
});
