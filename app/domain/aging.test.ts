import { describe, expect, it } from "vitest";
import {
  AGING_BUCKETS,
  agingBounds,
  agingBucket,
  agingCsv,
  agingRowsOf,
  averageDaysLate,
  chargesCollectedOf,
  collectedOf,
  daysLateLabel,
  paymentWindow,
} from "./aging";
import { addDays } from "./promise";

const today = "2026-03-01";
const ago = (days: number) => addDays(today, -days) as string;

/** The bucket the SQL's bounds put `dueOn` in (due_on >= bound, as app/ledger/money.server.ts compares). */
function bucketByBounds(dueOn: string) {
  const b = agingBounds(today);
  if (dueOn >= b.today) return "notYetDue";
  if (dueOn >= b.overdue30) return "days1to30";
  if (dueOn >= b.overdue60) return "days31to60";
  if (dueOn >= b.overdue90) return "days61to90";
  return "over90";
}

describe("aging buckets", () => {
  it("puts due today, 30, 31, 60, 61, 90 and 91 days overdue in their buckets, on either side of each edge", () => {
    const cases: [number, string][] = [
      [-5, "notYetDue"],
      [0, "notYetDue"],
      [1, "days1to30"],
      [30, "days1to30"],
      [31, "days31to60"],
      [60, "days31to60"],
      [61, "days61to90"],
      [90, "days61to90"],
      [91, "over90"],
      [400, "over90"],
    ];
    for (const [days, bucket] of cases) {
      expect(agingBucket(ago(days), today), `${days} days overdue`).toBe(bucket);
      // The SQL's bounds agree with the day count.
      expect(bucketByBounds(ago(days)), `${days} days overdue, by bounds`).toBe(bucket);
    }
  });

  it("counts calendar days across month ends and a leap day", () => {
    // 2028-03-01 minus 30 days is 2028-01-31 (February 2028 has 29 days).
    expect(agingBounds("2028-03-01")).toEqual({
      today: "2028-03-01",
      overdue30: "2028-01-31",
      overdue60: "2028-01-01",
      overdue90: "2027-12-02",
    });
    expect(agingBucket("2028-01-31", "2028-03-01")).toBe("days1to30");
    expect(agingBucket("2028-01-30", "2028-03-01")).toBe("days31to60");
    expect(agingBucket("2026-02-30", today)).toBeNull();
  });

  it("has five buckets, youngest first", () => {
    expect(AGING_BUCKETS.map((b) => b.label)).toEqual([
      "Not yet due",
      "1–30 days",
      "31–60 days",
      "61–90 days",
      "Over 90 days",
    ]);
  });
});

describe("aging rows", () => {
  const sums = [
    { currency: "USD", invoices: 3, notYetDue: 100, days1to30: 200, days31to60: 0, days61to90: 0, over90: 50 },
    { currency: "EUR", invoices: 1, notYetDue: 0, days1to30: 0, days31to60: 75, days61to90: 0, over90: 0 },
    { currency: "GBP", invoices: 0, notYetDue: 0, days1to30: 0, days31to60: 0, days61to90: 0, over90: 0 },
  ];

  it("sums overdue and outstanding per currency, leaves out currencies owing nothing, sorts by code", () => {
    const rows = agingRowsOf(sums);
    expect(rows.map((r) => r.currency)).toEqual(["EUR", "USD"]);
    expect(rows[1]).toMatchObject({ overdueCents: 250, outstandingCents: 350, invoices: 3 });
    expect(rows[0]).toMatchObject({ overdueCents: 75, outstandingCents: 75 });
  });

  it("exports a row per currency in decimal amounts", () => {
    const { header, rows } = agingCsv(agingRowsOf(sums), today);
    expect(header).toEqual([
      "Currency",
      "Not yet due",
      "1–30 days overdue",
      "31–60 days overdue",
      "61–90 days overdue",
      "Over 90 days overdue",
      "Overdue",
      "Outstanding",
      "Open invoices",
      "Charges not yet due",
      "Charges 1–30 days overdue",
      "Charges 31–60 days overdue",
      "Charges 61–90 days overdue",
      "Charges over 90 days overdue",
      "Charges overdue",
      "Charges outstanding",
      "Outstanding with charges",
      "As of",
    ]);
    expect(rows[1]).toEqual(["USD", 1, 2, 0, 0, 0.5, 2.5, 3.5, 3, 0, 0, 0, 0, 0, 0, 0, 3.5, today]);
  });

  it("exports the charges still owed apart, by their invoice's due date, and a currency owing only charges", () => {
    const charges = agingRowsOf([
      { currency: "USD", invoices: 2, notYetDue: 0, days1to30: 40, days31to60: 0, days61to90: 0, over90: 12 },
      { currency: "GBP", invoices: 1, notYetDue: 0, days1to30: 0, days31to60: 0, days61to90: 7000, over90: 0 },
    ]);
    const { rows } = agingCsv(agingRowsOf(sums), today, charges);
    expect(rows.map((r) => r[0])).toEqual(["EUR", "GBP", "USD"]);
    // GBP: no invoice owed, £70 of charges 61–90 days overdue.
    expect(rows[1]).toEqual(["GBP", 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 70, 0, 70, 70, 70, today]);
    // USD: the invoices' $3.50 and, apart, $0.52 of charges; both together $4.02.
    expect(rows[2]).toEqual(["USD", 1, 2, 0, 0, 0.5, 2.5, 3.5, 3, 0, 0.4, 0, 0, 0.12, 0.52, 0.52, 4.02, today]);
  });
});

describe("payment figures", () => {
  it("the month starts on the first of the user's month and the window is the last 90 days, today included", () => {
    expect(paymentWindow("2026-03-15")).toEqual({
      today: "2026-03-15",
      monthStart: "2026-03-01",
      windowStart: "2025-12-16",
    });
  });

  it("averages days late per allocation over every currency; no allocation, no average", () => {
    const sums = [
      { currency: "USD", collectedCents: 1000, allocations: 2, daysLate: 10 },
      { currency: "EUR", collectedCents: 0, allocations: 1, daysLate: 0 },
    ];
    expect(averageDaysLate(sums)).toBe(3.3);
    expect(averageDaysLate([])).toBeNull();
    expect(collectedOf(sums)).toEqual([{ currency: "USD", cents: 1000 }]);
    // What paid charges is collected apart: the invoices' principal is the rest.
    const withCharges = [
      { currency: "EUR", collectedCents: 5000, chargesCollectedCents: 1200, allocations: 1, daysLate: 3 },
    ];
    expect(collectedOf(withCharges)).toEqual([{ currency: "EUR", cents: 3800 }]);
    expect(chargesCollectedOf(withCharges)).toEqual([{ currency: "EUR", cents: 1200 }]);
    expect(daysLateLabel(1)).toBe("1 day");
    expect(daysLateLabel(3.3)).toBe("3.3 days");
  });
});
