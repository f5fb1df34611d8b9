import { describe, expect, it } from "vitest";
import {
  daysLabel,
  daysOverdue,
  dueLabel,
  formatAmount,
  formatTotals,
  invoiceCount,
  invoicesLabel,
  orderStatement,
  type StatementLine,
  statementOf,
  statementTiming,
  statementTotals,
  todayIn,
} from "./statement";

const line = (dueOn: string, balanceCents: number, currency = "USD", number: string | null = null): StatementLine => ({
  number,
  dueOn,
  balanceCents,
  currency,
});

describe("orderStatement", () => {
  it("puts the oldest due first and keeps the order of lines due the same day", () => {
    const a = line("2027-03-05", 100, "USD", "A");
    const b = line("2026-12-31", 200, "USD", "B");
    const c = line("2027-03-05", 300, "USD", "C");
    const d = line("2027-01-10", 400, "EUR", "D");
    expect(orderStatement([a, b, c, d]).map((l) => l.number)).toEqual(["B", "D", "A", "C"]);
    expect(orderStatement([c, a]).map((l) => l.number)).toEqual(["C", "A"]);
  });

  it("does not change the array it is given", () => {
    const lines = [line("2027-03-05", 1), line("2027-01-01", 2)];
    orderStatement(lines);
    expect(lines.map((l) => l.balanceCents)).toEqual([1, 2]);
  });
});

describe("statementTotals", () => {
  it("sums one currency", () => {
    expect(statementTotals([line("2027-01-01", 100), line("2027-02-01", 250)])).toEqual([
      { currency: "USD", cents: 350, count: 2 },
    ]);
  });

  it("keeps currencies apart, the one of the earliest due invoice first, ties by code", () => {
    const lines = [
      line("2027-02-01", 100, "USD"),
      line("2027-01-15", 50, "EUR"),
      line("2027-03-01", 25, "EUR"),
      line("2027-01-15", 7, "CHF"),
    ];
    expect(statementTotals(lines)).toEqual([
      { currency: "CHF", cents: 7, count: 1 },
      { currency: "EUR", cents: 75, count: 2 },
      { currency: "USD", cents: 100, count: 1 },
    ]);
    expect(invoiceCount(statementTotals(lines))).toBe(4);
  });

  it("is empty for an empty statement", () => {
    expect(statementTotals([])).toEqual([]);
    expect(invoiceCount([])).toBe(0);
  });
});

describe("daysOverdue and dueLabel", () => {
  it("counts calendar days, over month, year and leap-day boundaries", () => {
    expect(daysOverdue("2027-03-05", "2027-03-05")).toBe(0);
    expect(daysOverdue("2027-03-05", "2027-03-17")).toBe(12);
    expect(daysOverdue("2027-03-05", "2027-03-02")).toBe(-3);
    expect(daysOverdue("2026-12-31", "2027-01-01")).toBe(1);
    expect(daysOverdue("2024-02-28", "2024-03-01")).toBe(2);
    expect(daysOverdue("2023-02-28", "2023-03-01")).toBe(1);
    // Across a DST change (Europe and the US both change in March): still whole days.
    expect(daysOverdue("2027-03-01", "2027-04-01")).toBe(31);
    expect(daysOverdue("2026-01-01", "2027-01-01")).toBe(365);
  });

  it("is null for a date that is not on the calendar", () => {
    expect(daysOverdue("2027-02-30", "2027-03-05")).toBeNull();
    expect(daysOverdue("2027-03-05", "soon")).toBeNull();
    expect(dueLabel("", "2027-03-05")).toBeNull();
  });

  it("says how overdue, or when due", () => {
    expect(dueLabel("2027-03-05", "2027-03-17")).toBe("12 days overdue");
    expect(dueLabel("2027-03-05", "2027-03-06")).toBe("1 day overdue");
    expect(dueLabel("2027-03-05", "2027-03-05")).toBe("due today");
    expect(dueLabel("2027-03-05", "2027-03-04")).toBe("due in 1 day");
    expect(dueLabel("2027-03-05", "2027-03-02")).toBe("due in 3 days");
  });
});

describe("statementTiming", () => {
  it("is not yet due when every invoice is due after today", () => {
    const lines = [line("2027-03-06", 100), line("2027-04-01", 100)];
    expect(statementTiming(lines, "2027-03-05")).toEqual({ kind: "not-yet-due" });
  });

  it("is due today when the earliest is due today and none is overdue", () => {
    const lines = [line("2027-04-01", 100), line("2027-03-05", 100)];
    expect(statementTiming(lines, "2027-03-05")).toEqual({ kind: "due-today" });
  });

  it("is overdue when one invoice is, with the most days any is overdue", () => {
    const lines = [line("2027-03-20", 100), line("2027-03-04", 100), line("2027-02-03", 100)];
    expect(statementTiming(lines, "2027-03-05")).toEqual({ kind: "overdue", daysOverdue: 30 });
    expect(statementTiming([line("2027-03-04", 100)], "2027-03-05")).toEqual({ kind: "overdue", daysOverdue: 1 });
  });

  it("leaves out dates that are not on the calendar; null when none is left", () => {
    expect(statementTiming([line("2027-02-30", 100), line("2027-03-09", 100)], "2027-03-05")).toEqual({
      kind: "not-yet-due",
    });
    expect(statementTiming([line("soon", 100)], "2027-03-05")).toBeNull();
    expect(statementTiming([], "2027-03-05")).toBeNull();
    expect(statementTiming([line("2027-03-05", 100)], "today")).toBeNull();
  });

  it("counts in the debtor's zone: due yesterday there while it is still the due date in UTC, and the other way round", () => {
    // 2027-03-05 12:00 UTC: already March 6 on Kiritimati (UTC+14).
    const noon = Date.UTC(2027, 2, 5, 12);
    const dueToday = [line("2027-03-05", 100)];
    expect(todayIn("UTC", noon)).toBe("2027-03-05");
    expect(statementTiming(dueToday, todayIn("UTC", noon))).toEqual({ kind: "due-today" });
    expect(statementTiming(dueToday, todayIn("Pacific/Kiritimati", noon))).toEqual({
      kind: "overdue",
      daysOverdue: 1,
    });
    // 2027-03-06 05:00 UTC: still March 5 in Pago Pago (UTC-11).
    const early = Date.UTC(2027, 2, 6, 5);
    expect(statementTiming(dueToday, todayIn("UTC", early))).toEqual({ kind: "overdue", daysOverdue: 1 });
    expect(statementTiming(dueToday, todayIn("Pacific/Pago_Pago", early))).toEqual({ kind: "due-today" });
    // An invoice due March 6: not yet due in Pago Pago, due today in UTC, on that instant.
    expect(statementTiming([line("2027-03-06", 100)], todayIn("Pacific/Pago_Pago", early))).toEqual({
      kind: "not-yet-due",
    });
  });
});

describe("daysLabel", () => {
  it("says one day in the singular", () => {
    expect(daysLabel(1)).toBe("1 day");
    expect(daysLabel(30)).toBe("30 days");
  });
});

describe("todayIn", () => {
  it("is the date in the debtor's zone, UTC for an unknown one", () => {
    // 2027-03-05 23:30 UTC: already March 6 in Berlin, still March 5 in New York.
    const at = Date.UTC(2027, 2, 5, 23, 30);
    expect(todayIn("UTC", at)).toBe("2027-03-05");
    expect(todayIn("Europe/Berlin", at)).toBe("2027-03-06");
    expect(todayIn("America/New_York", at)).toBe("2027-03-05");
    expect(todayIn("Pacific/Kiritimati", Date.UTC(2027, 2, 5, 10, 30))).toBe("2027-03-06");
    expect(todayIn("Not/AZone", at)).toBe("2027-03-05");
    expect(todayIn(null, at)).toBe("2027-03-05");
  });
});

describe("amounts", () => {
  it("formats each total in its currency, and joins several with a plus", () => {
    const one = [{ currency: "USD", cents: 123400, count: 3 }];
    const two = [
      { currency: "USD", cents: 10000, count: 1 },
      { currency: "EUR", cents: 5000, count: 2 },
    ];
    expect(formatTotals(two)).toEqual(["$100.00", "€50.00"]);
    expect(formatAmount(one)).toBe("$1,234.00");
    expect(formatAmount(two)).toBe("$100.00 + €50.00");
  });

  it("counts invoices in words", () => {
    expect(invoicesLabel(1)).toBe("1 invoice");
    expect(invoicesLabel(12)).toBe("12 invoices");
  });
});

describe("statementOf", () => {
  it("lists only open invoices with something left to pay, oldest due first, with their balances", () => {
    const invoice = (number: string, dueOn: string, status: string, amountCents = 10000, paidCents = 0) => ({
      number,
      dueOn,
      amountCents,
      paidCents,
      currency: number.startsWith("E") ? "EUR" : "USD",
      status,
    });
    const lines = statementOf([
      invoice("U-3", "2027-03-01", "open", 10000, 2500),
      invoice("U-1", "2027-01-01", "open"),
      invoice("U-D", "2026-12-01", "disputed"),
      invoice("U-P", "2026-11-01", "paid", 10000, 10000),
      invoice("U-V", "2026-10-01", "void"),
      invoice("U-0", "2026-09-01", "open", 10000, 10000),
      invoice("E-1", "2027-02-01", "open", 5000),
    ]);
    expect(lines).toEqual([
      { number: "U-1", dueOn: "2027-01-01", balanceCents: 10000, currency: "USD" },
      { number: "E-1", dueOn: "2027-02-01", balanceCents: 5000, currency: "EUR" },
      { number: "U-3", dueOn: "2027-03-01", balanceCents: 7500, currency: "USD" },
    ]);
  });
});
