import { describe, expect, it } from "vitest";
import { dateTimeFormatter, formatDate, formatDateTime, formatDayOf, formatWhen } from "./dates";
import { NUMBER_LOCALES } from "./number-locale";

const AT = Date.UTC(2026, 10, 9, 14, 5); // 9 November 2026, 14:05 UTC

describe("dates in the user's format", () => {
  it("writes one style per format: the month named in English locales, digits in the others", () => {
    expect(formatDate("2026-11-09")).toBe("Nov 9, 2026");
    expect(formatDate("2026-11-09", "en-US")).toBe("Nov 9, 2026");
    expect(formatDate("2026-11-09", "en-GB")).toBe("9 Nov 2026");
    expect(formatDate("2026-11-09", "de-DE")).toBe("09.11.2026");
    expect(formatDate("2026-11-09", "fr-FR")).toBe("09/11/2026");
    expect(formatDate("2026-11-09", "nl-NL")).toBe("09-11-2026");
    expect(formatDate("2026-11-09", "sv-SE")).toBe("2026-11-09");
  });

  it("never shifts a calendar date by a zone, and gives anything that is not one back as it was", () => {
    expect(formatDate("2026-01-01", "en-GB")).toBe("1 Jan 2026");
    expect(formatDate("2026-02-30")).toBe("2026-02-30");
    expect(formatDate("soon")).toBe("soon");
  });

  it("writes an instant's day and time in its zone, on the locale's clock", () => {
    expect(formatDayOf(AT, "Pacific/Kiritimati", "en-US")).toBe("Nov 10, 2026");
    expect(formatDateTime(AT, "UTC", "en-US")).toBe("Nov 9, 2026, 2:05 PM");
    expect(formatDateTime(AT, "Europe/Berlin", "de-DE")).toBe("09.11.2026, 15:05");
    expect(formatDateTime(null, "UTC")).toBe("—");
    expect(dateTimeFormatter("UTC", "en-GB")(AT)).toBe("9 Nov 2026, 14:05");
    expect(formatWhen(AT, "UTC", "en-US")).toBe("Mon, Nov 9, 2:05 PM");
    expect(formatWhen(AT, "UTC", "de-DE")).toBe("09.11., 14:05");
  });

  it("writes every supported format's dates with the year and both day and month in it", () => {
    for (const locale of NUMBER_LOCALES) {
      const written = formatDate("2026-11-09", locale);
      expect(written, locale).toContain("2026");
      expect(written, locale).toMatch(/9/);
    }
  });
});
