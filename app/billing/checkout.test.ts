import { describe, expect, it } from "vitest";
import { trialEndSeconds } from "./checkout.server";

const HOUR = 3_600_000;

describe("trialEndSeconds", () => {
  it("keeps the trial's days: billing starts at its end, in Stripe's seconds", () => {
    const now = Date.parse("2026-11-28T12:00:00Z");
    expect(trialEndSeconds(Date.parse("2026-12-12T12:00:00Z"), now)).toBe(Date.parse("2026-12-12T12:00:00Z") / 1000);
  });
  it("bills at once when the trial has ended, or ends within Stripe's 48 hours", () => {
    const now = Date.parse("2026-11-28T12:00:00Z");
    expect(trialEndSeconds(null, now)).toBeNull();
    expect(trialEndSeconds(now - HOUR, now)).toBeNull();
    expect(trialEndSeconds(now + 47 * HOUR, now)).toBeNull();
    expect(trialEndSeconds(now + 50 * HOUR, now)).toBe(Math.floor((now + 50 * HOUR) / 1000));
  });
});
