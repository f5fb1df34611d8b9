import { describe, expect, it } from "vitest";
import { archiveCutoff, archiveObjectKey, isMonth, monthLabel, monthOf, monthRange } from "./archive-months";

describe("the archive's months", () => {
  it("cuts off at the start of the UTC month 13 months before the current one", () => {
    // 2026-11-26: months up to and including Sep 2025 are archived, Oct 2025 stays live.
    const now = Date.UTC(2026, 10, 26, 5, 30);
    expect(new Date(archiveCutoff(now)).toISOString()).toBe("2025-10-01T00:00:00.000Z");
    // Across a year's turn, and on the first instant of a month.
    expect(new Date(archiveCutoff(Date.UTC(2027, 0, 1))).toISOString()).toBe("2025-12-01T00:00:00.000Z");
    expect(new Date(archiveCutoff(Date.UTC(2026, 11, 31, 23, 59))).toISOString()).toBe("2025-11-01T00:00:00.000Z");
  });

  it("names a month in UTC and gives its range", () => {
    expect(monthOf(Date.UTC(2025, 8, 30, 23, 59, 59, 999))).toBe("2025-09");
    expect(monthOf(Date.UTC(2025, 9, 1))).toBe("2025-10");
    expect(monthRange("2025-12")).toEqual({ from: Date.UTC(2025, 11, 1), before: Date.UTC(2026, 0, 1) });
    expect(monthRange("2024-02").before - monthRange("2024-02").from).toBe(29 * 86_400_000);
    expect(() => monthRange("2025-13")).toThrow(RangeError);
    expect(monthLabel("2025-01")).toBe("Jan 2025");
  });

  it("accepts only YYYY-MM months, and keys files under the account", () => {
    for (const ok of ["2025-01", "1999-12"]) expect(isMonth(ok)).toBe(true);
    for (const bad of ["2025-1", "2025-00", "2025-13", "../x", "2025-01/../../y", "", null, undefined]) {
      expect(isMonth(bad)).toBe(false);
    }
    expect(archiveObjectKey("abc", "2025-01")).toBe("deliveries/abc/2025-01.ndjson");
  });
});
