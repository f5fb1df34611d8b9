import { describe, expect, it } from "vitest";
import { listParams, MAX_PAGE, pageCount, pageOffset, parseDebtorId, parsePage, parsePeriod } from "./list-params";

const params = (query: string) => listParams(new URL(`https://dunly.test/list?${query}`).searchParams);

describe("parsePage", () => {
  it("takes a whole page number", () => {
    expect(parsePage("1")).toBe(1);
    expect(parsePage("3")).toBe(3);
    expect(params("page=7").page).toBe(7);
  });
  it("is page 1 when missing or not a number", () => {
    for (const v of [null, undefined, "", "abc", "NaN", "2abc", "-Infinity"]) expect(parsePage(v), String(v)).toBe(1);
    expect(params("").page).toBe(1);
    expect(params("page=abc").page).toBe(1);
  });
  it("is page 1 for zero and negative pages", () => {
    expect(params("page=0").page).toBe(1);
    expect(params("page=-1").page).toBe(1);
    expect(params("page=-1e9").page).toBe(1);
  });
  it("rounds a fraction down", () => {
    expect(params("page=2.5").page).toBe(2);
    expect(params("page=0.5").page).toBe(1);
  });
  it(`caps a huge page at ${MAX_PAGE} when the count is not known`, () => {
    expect(params("page=Infinity").page).toBe(MAX_PAGE);
    expect(params("page=1e9").page).toBe(MAX_PAGE);
    expect(params("page=99999999999999999999999").page).toBe(MAX_PAGE);
    expect(Number.isSafeInteger(pageOffset(params("page=1e308").page, 50))).toBe(true);
  });
  it("caps a page past the end at the last page when the count is known", () => {
    expect(parsePage("Infinity", 4)).toBe(4);
    expect(parsePage("1e9", 4)).toBe(4);
    expect(parsePage("5", 4)).toBe(4);
    expect(parsePage("3", 4)).toBe(3);
    expect(parsePage("-1", 4)).toBe(1);
    expect(parsePage("2", 1)).toBe(1);
  });
});

describe("parseDebtorId", () => {
  it("takes a positive row id", () => {
    expect(parseDebtorId("1")).toBe(1);
    expect(params("debtor=42").debtorId).toBe(42);
    expect(parseDebtorId("007")).toBe(7);
  });
  it("is null for all debtors and for anything that is not a row id", () => {
    expect(params("").debtorId).toBeNull();
    expect(params("debtor=").debtorId).toBeNull();
    expect(params("debtor=0").debtorId).toBeNull();
    expect(params("debtor=1e3").debtorId).toBeNull();
    expect(params("debtor=-3").debtorId).toBeNull();
    expect(params("debtor=2.5").debtorId).toBeNull();
    expect(params("debtor=abc").debtorId).toBeNull();
    expect(params("debtor=Infinity").debtorId).toBeNull();
    expect(params("debtor=9999999999999999").debtorId).toBeNull();
  });
});

describe("parsePeriod", () => {
  it("takes a known period", () => {
    for (const p of ["yesterday", "today", "7d", "30d", "90d"]) expect(parsePeriod(p)).toBe(p);
    expect(params("period=7d").period).toBe("7d");
  });
  it("is all time for anything else", () => {
    for (const p of [null, undefined, "", "8d", "TODAY", "all"]) expect(parsePeriod(p), String(p)).toBe("");
  });
});

describe("pages", () => {
  it("counts at least one page", () => {
    expect(pageCount(0, 50)).toBe(1);
    expect(pageCount(50, 50)).toBe(1);
    expect(pageCount(51, 50)).toBe(2);
  });
  it("skips the rows of the earlier pages", () => {
    expect(pageOffset(1, 50)).toBe(0);
    expect(pageOffset(3, 50)).toBe(100);
  });
});
