import { describe, expect, it } from "vitest";
import { addDays, addMonths, dayNumber, halfYearStart, isoDay } from "./days";

describe("calendar days", () => {
  it("steps across month, year and leap days", () => {
    expect(addDays("2024-02-28", 1)).toBe("2024-02-29");
    expect(addDays("2023-02-28", 1)).toBe("2023-03-01");
    expect(addDays("2025-12-31", 1)).toBe("2026-01-01");
    expect(addDays("2026-01-01", -1)).toBe("2025-12-31");
    expect(isoDay(dayNumber("2026-11-29"))).toBe("2026-11-29");
    expect(() => dayNumber("2026-02-30")).toThrow(RangeError);
  });

  it("adds months on the same day or the month's last", () => {
    expect(addMonths("2026-01-31", 1)).toBe("2026-02-28");
    expect(addMonths("2024-01-31", 1)).toBe("2024-02-29");
    expect(addMonths("2026-01-31", 2)).toBe("2026-03-31");
    expect(addMonths("2026-11-15", 2)).toBe("2027-01-15");
    expect(addMonths("2026-01-15", -1)).toBe("2025-12-15");
  });

  it("finds a day's half-year", () => {
    expect(halfYearStart("2026-06-30")).toBe("2026-01-01");
    expect(halfYearStart("2026-07-01")).toBe("2026-07-01");
    expect(halfYearStart("2026-12-31")).toBe("2026-07-01");
  });
});
