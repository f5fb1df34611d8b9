import { describe, expect, it } from "vitest";
import {
  DEFAULT_DEBTOR_SORT,
  DEFAULT_SCHEDULE_SORT,
  debtorListParams,
  listParams,
  MAX_PAGE,
  pageCount,
  pageOffset,
  parseDebtorId,
  parsePage,
  parseQuery,
  scheduleSearchParams,
  searchKey,
} from "./list-params";

const url = (query: string) => new URL(`https://dunly.test/list?${query}`).searchParams;
const params = (query: string) => listParams(url(query));
/** `?period=` as a list reads it; null and undefined: no parameter at all. */
const period = (value: string | null | undefined) =>
  params(value == null ? "" : `period=${encodeURIComponent(value)}`).period;
/** `?sort=&dir=` of the debtors list (null: no parameter), as it reads them. */
const debtorSort = (sort: string, dir: string | null) => {
  const { sort: key, dir: direction } = debtorListParams(url(`sort=${sort}${dir === null ? "" : `&dir=${dir}`}`));
  return { sort: key, dir: direction };
};

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
    for (const p of ["yesterday", "today", "7d", "30d", "90d"]) expect(period(p)).toBe(p);
    expect(params("period=7d").period).toBe("7d");
  });
  it("is all time for anything else", () => {
    for (const p of [null, undefined, "", "8d", "TODAY", "all"]) expect(period(p), String(p)).toBe("");
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

describe("search and sort", () => {
  it("trims the search and cuts it to its maximum", () => {
    expect(parseQuery(null)).toBe("");
    expect(parseQuery("  ann  ")).toBe("ann");
    expect(parseQuery("x".repeat(500))).toHaveLength(100);
  });
  it("folds only ASCII letters, as SQLite's lower() does", () => {
    expect(searchKey("Ann BROWN")).toBe("ann brown");
    expect(searchKey("ÖZIL 100%_")).toBe("Özil 100%_");
  });
  it("takes a known sort and direction, else the default and the key's own direction", () => {
    expect(debtorSort("name", "desc")).toEqual({ sort: "name", dir: "desc" });
    expect(debtorSort("owed", null)).toEqual({ sort: "owed", dir: "desc" });
    expect(debtorSort("owed", "sideways")).toEqual({ sort: "owed", dir: "desc" });
    expect(debtorSort("constructor", "asc")).toEqual({ sort: DEFAULT_DEBTOR_SORT, dir: "asc" });
    expect(scheduleSearchParams(url("sort=__proto__"))).toMatchObject({
      sort: DEFAULT_SCHEDULE_SORT,
      dir: "desc",
    });
  });
  it("reads a list's search, order and page from its URL", () => {
    expect(debtorListParams(url("q=%20bo%20&sort=owed&dir=asc&page=2"))).toEqual({
      q: "bo",
      sort: "owed",
      dir: "asc",
      page: 2,
    });
    expect(debtorListParams(url("sort=nope"))).toEqual({ q: "", sort: "created", dir: "asc", page: 1 });
    expect(scheduleSearchParams(url("sort=next"))).toEqual({ q: "", sort: "next", dir: "asc" });
    expect(scheduleSearchParams(url(""))).toEqual({ q: "", sort: "created", dir: "desc" });
  });
});
