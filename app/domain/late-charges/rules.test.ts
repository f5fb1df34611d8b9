import { describe, expect, it } from "vitest";
import {
  CONTRACT_LIMITS,
  compensationFor,
  contractTermsProblems,
  isLateChargeRule,
  RATE_SERIES,
  ruleSummary,
  STATUTORY_RULES,
  statutoryRule,
} from "./rules";

describe("the rule table", () => {
  it("holds each rule once, with its currency, series and a margin of at least 8 points", () => {
    const ids = STATUTORY_RULES.map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const rule of STATUTORY_RULES) {
      expect(RATE_SERIES).toContain(rule.series);
      expect(rule.marginBp).toBeGreaterThanOrEqual(800);
      expect(rule.currency).toBe(rule.id === "gb" ? "GBP" : "EUR");
      expect(rule.fixing).toBe(rule.id === "gb" ? "fixed_at_start" : "half_year");
      expect(rule.interestLaw.law).not.toBe("");
      expect(rule.source).toMatch(/^https:\/\//);
    }
    expect(statutoryRule("de")).toMatchObject({ series: "de_basiszins", marginBp: 900 });
    expect(statutoryRule("fr")).toMatchObject({ series: "ecb_mro", marginBp: 1000 });
    expect(statutoryRule("gb")).toMatchObject({ series: "boe_base", marginBp: 800 });
  });

  it("knows its rule ids and 'contract', nothing else", () => {
    expect(isLateChargeRule("contract")).toBe(true);
    expect(isLateChargeRule("gb")).toBe(true);
    expect(isLateChargeRule("us")).toBe(false);
    expect(isLateChargeRule(null)).toBe(false);
    expect(statutoryRule("contract")).toBeUndefined();
  });

  it("gives the EU's €40 whatever the debt", () => {
    const nl = statutoryRule("nl");
    if (!nl) throw new Error("nl");
    expect([compensationFor(nl, 1), compensationFor(nl, 100_000_000)]).toEqual([4000, 4000]);
  });
});

describe("contract terms' limits", () => {
  const base = { kind: "fixed" as const, feeCents: 2500, feeCurrency: "EUR", rateBp: null, graceDays: 0, capBp: null };

  it("accepts terms within the limits", () => {
    expect(contractTermsProblems(base)).toEqual({});
    expect(
      contractTermsProblems({ ...base, kind: "percent_monthly", rateBp: 500, capBp: 10_000, graceDays: 365 }),
    ).toEqual({});
  });

  it("refuses each out-of-range field with its own message", () => {
    expect(Object.keys(contractTermsProblems({ ...base, feeCents: 0, feeCurrency: null }))).toEqual([
      "feeCents",
      "feeCurrency",
    ]);
    expect(
      contractTermsProblems({ ...base, kind: "percent_once", rateBp: CONTRACT_LIMITS.percentOnceBp.max + 1 }),
    ).toHaveProperty("rateBp");
    expect(contractTermsProblems({ ...base, kind: "percent_monthly", rateBp: 501 })).toHaveProperty("rateBp");
    expect(contractTermsProblems({ ...base, graceDays: -1 })).toHaveProperty("graceDays");
    expect(contractTermsProblems({ ...base, graceDays: 1.5 })).toHaveProperty("graceDays");
    expect(contractTermsProblems({ ...base, capBp: 10_001 })).toHaveProperty("capBp");
  });
});

describe("a rule in one line", () => {
  it("says the reference, margin, fixing, compensation and currency", () => {
    const de = statutoryRule("de");
    const gb = statutoryRule("gb");
    const be = statutoryRule("be");
    if (!de || !gb || !be) throw new Error("rules");
    expect(ruleSummary(de)).toBe(
      "Germany (§ 288 Abs. 2 BGB): the Basiszinssatz + 9 points, set each half-year; €40 compensation per invoice; invoices in EUR only",
    );
    expect(ruleSummary(gb)).toBe(
      "United Kingdom (Late Payment of Commercial Debts (Interest) Act 1998): the Bank of England Bank Rate + 8 points, fixed for the life of each debt; £40, £70, £100 compensation by the debt's size; invoices in GBP only",
    );
    expect(ruleSummary(be)).toContain("+ 8 points, rounded up to the next 0.5 point, set each half-year");
  });
});
