import { describe, expect, it } from "vitest";
import { advancePast, occurrenceKey, type ScheduleProgress } from "./occurrence";
import { nextRunAfter } from "./schedule-time";

const T = Date.UTC(2027, 2, 3, 10); // Wednesday 10:00 UTC
const NOW = T + 5_000;
const daily: ScheduleProgress = { frequency: "daily", timeZone: "UTC", templateStep: 1, lastRunAt: T - 86_400_000 };

describe("occurrenceKey", () => {
  it("is the schedule id and the scheduled instant", () => {
    expect(occurrenceKey("u1-abc", T)).toBe(`u1-abc:${T}`);
  });
});

describe("advancePast", () => {
  it("after a send: the next template, the occurrence recorded, the next 10:00", () => {
    expect(advancePast(daily, T, "sent", NOW)).toEqual({
      templateStep: 2,
      lastRunAt: T,
      // The e-mail went out when the occurrence was handled.
      coveredAt: NOW,
      nextRunAt: T + 86_400_000,
      state: "ENABLED",
    });
  });
  it("after a failure: the same template again next time, still enabled", () => {
    expect(advancePast(daily, T, "failed", NOW)).toMatchObject({ templateStep: 1, lastRunAt: T, state: "ENABLED" });
  });
  it("a duplicate of an occurrence not yet recorded counts as sent; one already recorded does not", () => {
    expect(advancePast(daily, T, "duplicate", NOW).templateStep).toBe(2);
    expect(advancePast({ ...daily, lastRunAt: T }, T, "duplicate", NOW).templateStep).toBe(1);
    expect(advancePast({ ...daily, lastRunAt: T }, T, "sent", NOW).templateStep).toBe(1);
  });
  it("computes the next run from now when the occurrence fired late", () => {
    const late = T + 3 * 86_400_000 + 60_000;
    expect(advancePast(daily, T, "sent", late).nextRunAt).toBe(nextRunAfter("daily", late, "UTC"));
  });
  it("weekly: the next Monday 10:00 in the schedule's zone", () => {
    const weekly: ScheduleProgress = { ...daily, frequency: "weekly", timeZone: "Asia/Kolkata" };
    expect(advancePast(weekly, T, "sent", NOW).nextRunAt).toBe(nextRunAfter("weekly", NOW, "Asia/Kolkata"));
  });
  it("a one-time schedule is complete afterwards, whatever happened", () => {
    const once: ScheduleProgress = { ...daily, frequency: "now", templateStep: 0, lastRunAt: null };
    expect(advancePast(once, T, "sent", NOW)).toEqual({
      templateStep: 1,
      lastRunAt: T,
      coveredAt: NOW,
      nextRunAt: null,
      state: "COMPLETED",
    });
    expect(advancePast(once, T, "failed", NOW)).toMatchObject({ templateStep: 0, nextRunAt: null, state: "COMPLETED" });
  });
});
