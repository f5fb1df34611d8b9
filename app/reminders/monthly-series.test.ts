import { describe, expect, it } from "vitest";
import { monthlySeries } from "./deliveries.server";

describe("monthlySeries (the dashboard chart)", () => {
  // 2026-03-31 12:00 UTC: in New York the month turns over three weeks after DST began (Mar 8).
  const now = Date.UTC(2026, 2, 31, 12);

  it("counts each sent reminder in its local month, six months oldest first", () => {
    const series = monthlySeries(
      [
        { sentAt: Date.UTC(2026, 2, 1, 4, 59) }, // Feb 28, 23:59 in New York (UTC−5)
        { sentAt: Date.UTC(2026, 2, 1, 5, 0) }, // Mar 1, 00:00 in New York
        { sentAt: Date.UTC(2026, 2, 31, 11) },
        { sentAt: Date.UTC(2025, 9, 1, 4, 0) }, // Oct 1, 00:00 in New York (UTC−4): the first month
        { sentAt: Date.UTC(2025, 9, 1, 3, 59) }, // Sep 30 in New York: before the range, not counted
      ],
      "America/New_York",
      now,
    );
    expect(series).toEqual([
      { month: "Oct 2025", value: 1 },
      { month: "Nov 2025", value: 0 },
      { month: "Dec 2025", value: 0 },
      { month: "Jan 2026", value: 0 },
      { month: "Feb 2026", value: 1 },
      { month: "Mar 2026", value: 2 },
    ]);
  });

  it("takes the months of the viewer's zone: the same instants fall in other months in Tokyo", () => {
    const series = monthlySeries(
      [{ sentAt: Date.UTC(2026, 1, 28, 15) }], // Mar 1, 00:00 in Tokyo (UTC+9)
      "Asia/Tokyo",
      now,
    );
    expect(series.map((p) => p.value)).toEqual([0, 0, 0, 0, 0, 1]);
    expect(series.at(-1)?.month).toBe("Mar 2026");
  });

  it("spans a year's turn and counts a row without a send time in the first month", () => {
    const jan = Date.UTC(2026, 0, 15, 12);
    const series = monthlySeries([{ sentAt: null }, { sentAt: jan }], "UTC", jan);
    expect(series.map((p) => p.month)).toEqual([
      "Aug 2025",
      "Sep 2025",
      "Oct 2025",
      "Nov 2025",
      "Dec 2025",
      "Jan 2026",
    ]);
    expect(series.map((p) => p.value)).toEqual([1, 0, 0, 0, 0, 1]);
  });
});
