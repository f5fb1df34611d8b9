import { describe, expect, it } from "vitest";
import { currencyDecimals, minorUnitCents, roundDown, roundHalfUp } from "./rounding";

describe("rounding once, half up, to the currency's unit", () => {
  it("knows each currency's decimals", () => {
    expect([currencyDecimals("EUR"), currencyDecimals("JPY"), currencyDecimals("KWD")]).toEqual([2, 0, 3]);
    expect([minorUnitCents("EUR"), minorUnitCents("JPY"), minorUnitCents("KWD"), minorUnitCents("BHD")]).toEqual([
      1, 100, 1, 1,
    ]);
    // Counted in whole units where Dunly's payments are (money.ts), though ISO gives it decimals.
    expect(minorUnitCents("MGA")).toBe(100);
    // An unknown code counts as two decimals rather than throwing.
    expect(minorUnitCents("nope")).toBe(1);
  });

  it("rounds a half up and the rest to the nearest", () => {
    expect(roundHalfUp({ num: 5n, den: 2n }, 1)).toBe(3); // 2.5 → 3
    expect(roundHalfUp({ num: 249n, den: 100n }, 1)).toBe(2); // 2.49 → 2
    expect(roundHalfUp({ num: 0n, den: 7n }, 1)).toBe(0);
    // Yen: 150 Dunly cents (¥1.50) → ¥2; 149 → ¥1.
    expect(roundHalfUp({ num: 150n, den: 1n }, 100)).toBe(200);
    expect(roundHalfUp({ num: 14_999n, den: 100n }, 100)).toBe(100);
    // €205.479452… → €205.48
    expect(roundHalfUp({ num: 1_000_000n * 1250n * 60n, den: 3_650_000n }, 1)).toBe(20_548);
  });

  it("rounds a cap down, never over", () => {
    expect(roundDown({ num: 19_999n, den: 100n }, 1)).toBe(199);
    expect(roundDown({ num: 19_999n, den: 1n }, 100)).toBe(19_900);
  });
});
