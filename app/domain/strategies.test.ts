import { describe, expect, it } from "vitest";
import { DEFAULT_STRATEGY, isTone, STRATEGIES, strategyLabel, TONES, toTone } from "./strategies";

describe("tone", () => {
  it("lists the three tones of the strategies, mildest first", () => {
    expect(TONES).toEqual([1, 2, 3]);
    expect(STRATEGIES.map((s) => s.value)).toEqual(TONES);
    expect(DEFAULT_STRATEGY).toBe(1);
  });
  it("keeps 1, 2 and 3", () => {
    for (const t of [1, 2, 3]) expect(toTone(t)).toBe(t);
    expect(isTone(2)).toBe(true);
  });
  it("reads anything else as Polite", () => {
    for (const bad of [0, 4, -1, 1.5, Number.NaN, "2", null, undefined]) {
      expect(toTone(bad), String(bad)).toBe(1);
      expect(isTone(bad), String(bad)).toBe(false);
    }
  });
  it("labels each strategy, unknown ones as Polite", () => {
    expect(strategyLabel(1)).toBe("Polite");
    expect(strategyLabel(2)).toBe("Middle Ground");
    expect(strategyLabel(3)).toBe("Aggressive");
    expect(strategyLabel(9)).toBe("Polite");
  });
});
