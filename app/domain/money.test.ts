import { describe, expect, it } from "vitest";
import { formatMoney, fromCents, outstandingCents, toCents } from "./money";

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
  });
});
