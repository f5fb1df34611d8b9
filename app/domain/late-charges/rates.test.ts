import { describe, expect, it } from "vitest";
import { fixingDate, rateInForce, ruleRateBp } from "./rates";
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
