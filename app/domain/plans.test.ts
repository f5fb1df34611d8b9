import { describe, expect, it } from "vitest";
import { getPlan, PLANS, planFeatures, textAllowanceMessage } from "./plans";

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

describe("text allowance", () => {
  it("has none on the lowest plan and more on each plan above", () => {
    expect(PLANS.map((p) => p.monthlyTexts)).toEqual([0, 100, 500]);
  });

  it("says on each card exactly what the send allows", () => {
    expect(PLANS.map((p) => planFeatures(p, 2000).at(-1))).toEqual([
      "No text messages",
      "Up to 100 text messages a month, to the countries you enable",
      "Up to 500 text messages a month, to the countries you enable",
    ]);
    expect(textAllowanceMessage(getPlan("medium"), "1 Dec 2026")).toBe(
      "Your Medium plan's 100 text messages this month are used. Texts go again on 1 Dec 2026, or upgrade on the Pricing page.",
    );
    expect(textAllowanceMessage(getPlan("soft"), "1 Dec 2026")).toMatch(/has no text messages/);
  });
});
