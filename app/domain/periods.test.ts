import { describe, expect, it } from "vitest";
import { periodRange } from "./periods";

describe("periodRange", () => {
  const now = Date.parse("2026-03-30T12:00:00Z"); // Berlin switched to summer time on the 29th

  it("today starts at local midnight", () => {
    expect(periodRange("today", now, "Europe/Berlin")).toEqual({
      from: Date.parse("2026-03-29T22:00:00Z"),
      before: null,
    });
  });

  it("yesterday is the whole previous local day, even across a DST change", () => {
    expect(periodRange("yesterday", now, "Europe/Berlin")).toEqual({
      from: Date.parse("2026-03-28T23:00:00Z"),
      before: Date.parse("2026-03-29T22:00:00Z"),
    });
  });

  it("last 7 days includes today and starts six local days before", () => {
    expect(periodRange("7d", now, "Europe/Berlin").from).toBe(Date.parse("2026-03-23T23:00:00Z"));
    expect(periodRange("30d", now, "UTC").from).toBe(Date.parse("2026-03-01T00:00:00Z"));
    expect(periodRange("90d", now, "UTC").from).toBe(Date.parse("2025-12-31T00:00:00Z"));
  });
});
