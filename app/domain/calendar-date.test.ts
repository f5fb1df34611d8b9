import { describe, expect, it } from "vitest";
import { isCalendarDate, parseCalendarDate } from "./calendar-date";

describe("isCalendarDate", () => {
  it("accepts real dates, leap days included", () => {
    for (const d of ["2027-03-05", "2024-02-29", "2000-02-29", "1999-12-31", "2027-01-01"]) {
      expect(isCalendarDate(d), d).toBe(true);
    }
  });
  it("rejects impossible dates and other shapes", () => {
    for (const d of ["2027-02-30", "2023-02-29", "1900-02-29", "2027-13-01", "2027-00-10", "2027-04-31"]) {
      expect(isCalendarDate(d), d).toBe(false);
    }
    for (const d of ["", "2027-3-5", "27-03-05", " 2027-03-05", "2027-03-05T00:00", "2027/03/05", "abcd-ef-gh"]) {
      expect(isCalendarDate(d), JSON.stringify(d)).toBe(false);
    }
  });
  it("parses the parts", () => {
    expect(parseCalendarDate("2027-03-05")).toEqual({ year: 2027, month: 3, day: 5 });
    expect(parseCalendarDate("2027-02-30")).toBeNull();
  });
});
