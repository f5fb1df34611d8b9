import { describe, expect, it } from "vitest";
import { fixingDate, latestRate, rateInForce, ruleRateBp, ruleRateOn } from "./rates";
import { type StatutoryRule, statutoryRule } from "./rules";
import { RATES } from "./test-rates";

const rule = (id: string): StatutoryRule => {
  const r = statutoryRule(id);
  if (!r) throw new Error(id);
  return r;
};

describe("reference rates in force", () => {
  it("is the series' latest change on or before the day", () => {
    expect(rateInForce("ecb_mro", "2024-06-11", RATES)?.rateBp).toBe(450);
    expect(rateInForce("ecb_mro", "2024-06-12", RATES)?.rateBp).toBe(425);
    expect(rateInForce("boe_base", "2024-12-31", RATES)?.rateBp).toBe(475);
    expect(rateInForce("ecb_mro", "2022-07-26", RATES)).toBeNull();
    expect(rateInForce("nope", "2024-01-01", RATES)).toBeNull();
  });

  it("requires the Basiszinssatz's own half-year row", () => {
    expect(rateInForce("de_basiszins", "2025-12-31", RATES)?.rateBp).toBe(127);
    expect(rateInForce("de_basiszins", "2026-01-01", RATES)).toBeNull();
  });

  it("fixes EU rates per half-year and the UK's once, the day before the half-year interest starts in", () => {
    expect(fixingDate(rule("nl"), "2024-06-01", "2024-06-30")).toBe("2024-01-01");
    expect(fixingDate(rule("nl"), "2024-06-01", "2024-07-01")).toBe("2024-07-01");
    expect(fixingDate(rule("gb"), "2024-06-01", "2025-09-01")).toBe("2023-12-31");
    expect(fixingDate(rule("gb"), "2024-07-01", "2025-09-01")).toBe("2024-06-30");
  });

  it("adds the margin, never below zero", () => {
    expect(ruleRateBp(rule("de"), -88)).toBe(812);
    expect(ruleRateBp(rule("fr"), 215)).toBe(1215);
    expect(ruleRateBp({ ...rule("nl"), roundUpBp: 50 }, 215)).toBe(1050);
    expect(ruleRateBp({ ...rule("nl"), roundUpBp: 50 }, 450)).toBe(1250);
    expect(ruleRateBp(rule("nl"), -900)).toBe(0);
  });
});

describe("each rule's yearly rate, against the rates the states published", () => {
  /** The rule's rate for interest on `day` (a debt late since `day`). */
  const rateOn = (id: string, day: string) => {
    const r = rule(id);
    const reference = rateInForce(r.series, fixingDate(r, day, day), RATES);
    if (!reference) throw new Error(`no ${r.series} rate for ${day}`);
    return ruleRateBp(r, reference.rateBp);
  };

  it.each([
    // Belgium (FPS Finance notices): ECB + 8, rounded up to the half point.
    ["be", "2024-03-01", 1250],
    ["be", "2026-03-01", 1050],
    // Finland (Suomen Pankki): viitekorko (ECB rounded up to the half point) + 8.
    ["fi", "2024-09-01", 1250],
    ["fi", "2025-03-01", 1150],
    ["fi", "2026-03-01", 1050],
    // The Netherlands: wettelijke handelsrente 12% from 1 July 2023.
    ["nl", "2023-07-01", 1200],
    // Ireland's table (ECB on 1 January / 1 July + 8): the same ECB figures.
    ["es", "2024-07-01", 1225],
    ["it", "2024-01-01", 1250],
    ["lu", "2023-01-02", 1050],
    // Germany: Basiszinssatz + 9; France: ECB + 10.
    ["de", "2025-07-01", 1027],
    ["fr", "2025-07-01", 1215],
  ])("%s on %s: %i bp", (id, day, bp) => {
    expect(rateOn(id, day)).toBe(bp);
  });
});

describe("a rule's rate for a settings page", () => {
  it("says the rate now, or which rate is missing", () => {
    expect(ruleRateOn(rule("fr"), RATES, "2026-03-01")).toEqual({
      rateBp: 1215,
      referenceBp: 215,
      fixedOn: "2026-01-01",
    });
    expect(ruleRateOn(rule("gb"), RATES, "2026-03-01")).toEqual({
      rateBp: 1200,
      referenceBp: 400,
      fixedOn: "2025-12-31",
    });
    expect(ruleRateOn(rule("de"), RATES, "2026-03-01")).toEqual({
      error: "no-rate",
      series: "de_basiszins",
      on: "2026-01-01",
    });
    expect(latestRate("boe_base", RATES)).toEqual({ series: "boe_base", effectiveOn: "2025-08-07", rateBp: 400 });
    expect(latestRate("nope", RATES)).toBeNull();
  });
});
