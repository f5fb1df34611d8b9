import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  formatMoney,
  fromCents,
  hasAtMostTwoDecimals,
  MAX_AMOUNT,
  otherCurrenciesOwed,
  outstandingCents,
  owedCents,
  toCents,
} from "./money";

describe("money", () => {
  it("converts decimal amounts to cents without float drift", () => {
    expect(toCents(19.99)).toBe(1999);
    expect(toCents(0.1 + 0.2)).toBe(30);
    expect(toCents(1)).toBe(100);
    expect(fromCents(1999)).toBe(19.99);
  });
  it("formats cents as money", () => {
    expect(formatMoney(123450)).toBe("$1,234.50");
    expect(formatMoney(0)).toBe("$0.00");
    expect(formatMoney(500, "EUR")).toBe("€5.00");
  });
  it("computes what is still owed", () => {
    expect(outstandingCents({ debtCents: 123450, paidCents: 0 })).toBe(123450);
    expect(outstandingCents({ debtCents: 123450, paidCents: 23450 })).toBe(100000);
    expect(outstandingCents({ debtCents: 100, paidCents: 100 })).toBe(0);
    expect(outstandingCents({ debtCents: 100, paidCents: 150 })).toBe(-50);
    // As the pages show it: never below zero.
    expect(owedCents({ debtCents: 123450, paidCents: 23450 })).toBe(100000);
    expect(owedCents({ debtCents: 100, paidCents: 150 })).toBe(0);
  });
  it("accepts whole cents and refuses amounts with more decimals", () => {
    for (const ok of [1, 19.99, 0.1, 0.3, 5.5, 1.1, 999_999_999.99, MAX_AMOUNT])
      expect(hasAtMostTwoDecimals(ok)).toBe(true);
    for (const bad of [1.005, 0.1 + 0.2, 19.999, 1.0000001, 0.001, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(hasAtMostTwoDecimals(bad)).toBe(false);
    }
  });
  it("round-trips every whole-cent amount up to the maximum, as typed", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: MAX_AMOUNT * 100 }), (cents) => {
        // The amount as a user types it ("1234.05"), parsed like the form and the API do.
        const typed = Number(`${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, "0")}`);
        expect(hasAtMostTwoDecimals(typed)).toBe(true);
        expect(toCents(typed)).toBe(cents);
      }),
    );
  });
  it("refuses every amount with a third decimal that is not zero", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: MAX_AMOUNT * 100 - 1 }), fc.integer({ min: 1, max: 9 }), (cents, extra) => {
        const typed = Number(`${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, "0")}${extra}`);
        expect(hasAtMostTwoDecimals(typed)).toBe(false);
      }),
    );
  });
});

describe("Stripe's amounts", () => {
  it("are cents, except in zero-decimal currencies, which go in whole units rounded up", async () => {
    const { toStripeAmount, fromStripeAmount } = await import("./money");
    expect(toStripeAmount(4200, "EUR")).toBe(4200);
    expect(fromStripeAmount(4200, "eur")).toBe(4200);
    expect(toStripeAmount(1_234_500, "JPY")).toBe(12_345);
    expect(toStripeAmount(1_234_550, "jpy")).toBe(12_346);
    expect(fromStripeAmount(12_345, "jpy")).toBe(1_234_500);
  });
});

describe("otherCurrenciesOwed", () => {
  it("sums what is owed per other currency, leaving out the debtor's own and what is settled", () => {
    const invoices = [
      { owed: 80, currency: "USD" },
      { owed: 10.1, currency: "EUR" },
      { owed: 0.2, currency: "EUR" },
      { owed: 0, currency: "GBP" },
      { owed: 5, currency: "CHF" },
    ];
    expect(otherCurrenciesOwed(invoices, "USD")).toEqual([
      { currency: "CHF", cents: 500 },
      { currency: "EUR", cents: 1030 },
    ]);
    expect(otherCurrenciesOwed([{ owed: 80, currency: "USD" }], "USD")).toEqual([]);
  });
});
