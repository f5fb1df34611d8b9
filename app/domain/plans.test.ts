import { describe, expect, it } from "vitest";
import { getPlan, PLANS, planFeatures } from "./plans";

describe("planFeatures", () => {
  it("names the debtors each card allows: a plan's own limit, or the account cap for one without", () => {
    expect(PLANS.map((p) => planFeatures(p, 2000)[0])).toEqual([
      "Up to 25 debtors",
      "Up to 250 debtors",
      "Up to 2,000 debtors",
    ]);
    // Never "unlimited": the add past the account cap is refused.
    expect(planFeatures(getPlan("aggressive"), 500)[0]).toBe("Up to 500 debtors");
    // A cap below a plan's own limit is what the app enforces, so the card says it.
    expect(planFeatures(getPlan("medium"), 100)[0]).toBe("Up to 100 debtors");
  });
});
