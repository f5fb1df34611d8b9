import { describe, expect, it } from "vitest";
import { formatDate } from "./dates";
import {
  addDays,
  isWithinPromiseWindow,
  PROMISE_MAX_DAYS,
  promiseDetail,
  promiseEndsAt,
  promiseWindow,
} from "./promise";
import { startOfLocalDate } from "./schedule-time";

const utc = (s: string) => Date.parse(s);

describe("addDays", () => {
  it("moves across months, years and leap days", () => {
    expect(addDays("2026-12-30", 1)).toBe("2026-12-31");
    expect(addDays("2026-12-31", 1)).toBe("2027-01-01");
    expect(addDays("2028-02-28", 1)).toBe("2028-02-29");
    expect(addDays("2027-02-28", 1)).toBe("2027-03-01");
    expect(addDays("2026-11-01", PROMISE_MAX_DAYS)).toBe("2026-12-31");
  });

  it("refuses what is not a calendar date", () => {
    expect(addDays("2027-02-30", 1)).toBeNull();
    expect(addDays("tomorrow", 1)).toBeNull();
  });
});

describe("promiseWindow", () => {
  it("is the debtor's today to 60 days later, in the debtor's zone (not UTC's)", () => {
    // 2026-11-25 11:00 UTC: already the 26th in Kiritimati (UTC+14), still the 25th in Pago Pago (UTC-11).
    const now = utc("2026-11-25T11:00:00Z");
    expect(promiseWindow(now, "Pacific/Kiritimati")).toEqual({ min: "2026-11-26", max: "2027-01-25" });
    expect(promiseWindow(now, "Pacific/Pago_Pago")).toEqual({ min: "2026-11-25", max: "2027-01-24" });
    expect(promiseWindow(now, "UTC")).toEqual({ min: "2026-11-25", max: "2027-01-24" });
  });

  it("holds the dates between its ends, and nothing else", () => {
    const w = { min: "2026-11-25", max: "2027-01-24" };
    expect(isWithinPromiseWindow("2026-11-25", w)).toBe(true);
    expect(isWithinPromiseWindow("2027-01-24", w)).toBe(true);
    expect(isWithinPromiseWindow("2026-11-24", w)).toBe(false);
    expect(isWithinPromiseWindow("2027-01-25", w)).toBe(false);
    expect(isWithinPromiseWindow("2026-12-32", w)).toBe(false);
    expect(isWithinPromiseWindow("", w)).toBe(false);
  });
});

describe("promiseEndsAt", () => {
  it("is the start of the next day in the debtor's zone", () => {
    // Kiritimati is UTC+14: 31 December starts there at 10:00 UTC on the 30th.
    expect(promiseEndsAt("2026-12-30", "Pacific/Kiritimati")).toBe(utc("2026-12-30T10:00:00Z"));
    // Pago Pago is UTC-11: 31 December starts there at 11:00 UTC on the 31st.
    expect(promiseEndsAt("2026-12-30", "Pacific/Pago_Pago")).toBe(utc("2026-12-31T11:00:00Z"));
    expect(promiseEndsAt("2026-12-30", "UTC")).toBe(utc("2026-12-31T00:00:00Z"));
  });

  it("follows DST: the next day's midnight at that day's offset", () => {
    // Berlin's clocks go forward on Mar 29, 2026 (at 02:00), so 30 March starts at UTC+2.
    expect(promiseEndsAt("2026-03-29", "Europe/Berlin")).toBe(utc("2026-03-29T22:00:00Z"));
    expect(promiseEndsAt("2026-03-28", "Europe/Berlin")).toBe(utc("2026-03-28T23:00:00Z"));
  });

  it("is null for a date that is not on the calendar", () => {
    expect(promiseEndsAt("2026-02-30", "UTC")).toBeNull();
  });
});

describe("startOfLocalDate", () => {
  it("is the end of the gap when midnight does not exist, and the next day's start for a skipped day", () => {
    // Brazil's DST began at local midnight on Nov 4, 2018: that day started at 01:00 (UTC-2).
    expect(startOfLocalDate(2018, 11, 4, "America/Sao_Paulo")).toBe(utc("2018-11-04T03:00:00Z"));
    // Samoa skipped Dec 30, 2011: it "starts" when the 31st does (UTC+14).
    expect(startOfLocalDate(2011, 12, 30, "Pacific/Apia")).toBe(utc("2011-12-30T10:00:00Z"));
  });
});

describe("wording", () => {
  it("writes dates the way the timeline and the dashboard say them", () => {
    expect(formatDate("2026-12-30")).toBe("Dec 30, 2026");
    expect(formatDate("2026-12-30")).toBe("Dec 30, 2026");
    expect(promiseDetail("2026-12-30")).toBe("Promised to pay by Dec 30, 2026");
    expect(formatDate("soon")).toBe("soon");
  });
});
