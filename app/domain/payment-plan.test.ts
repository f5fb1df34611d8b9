import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  firstMissed,
  graceOver,
  instalmentStates,
  nextPayment,
  PLAN_MAX_INSTALMENTS,
  PLAN_MIN_INSTALMENT_CENTS,
  PLAN_MIN_INSTALMENTS,
  planAmounts,
  planDates,
  planInstalments,
  planProgress,
} from "./payment-plan";

const sum = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0);

describe("planAmounts by count", () => {
  it("splits equally, the last taking the remainder", () => {
    expect(planAmounts(100_000, { mode: "count", count: 3 })).toEqual({ amounts: [33_333, 33_333, 33_334] });
    expect(planAmounts(123_456, { mode: "count", count: 2 })).toEqual({ amounts: [61_728, 61_728] });
  });

  it("refuses 13 instalments, 1 instalment and under one unit each", () => {
    expect(planAmounts(100_000, { mode: "count", count: 13 })).toEqual({ error: "plan.error.count" });
    expect(planAmounts(100_000, { mode: "count", count: 1 })).toEqual({ error: "plan.error.count" });
    expect(planAmounts(100_000, { mode: "count", count: 2.5 })).toEqual({ error: "plan.error.count" });
    // 1.50 over 3: 0.50 an instalment.
    expect(planAmounts(150, { mode: "count", count: 3 })).toEqual({ error: "plan.error.tooSmall" });
    expect(planAmounts(0, { mode: "count", count: 3 })).toEqual({ error: "plan.error.nothingOwed" });
  });

  it("always sums to the total, each at least one unit, the others equal (property)", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 100_000_000_000 }),
        fc.integer({ min: PLAN_MIN_INSTALMENTS, max: PLAN_MAX_INSTALMENTS }),
        (total, count) => {
          const result = planAmounts(total, { mode: "count", count });
          if ("error" in result) {
            expect(result.error).toBe("plan.error.tooSmall");
            expect(Math.floor(total / count)).toBeLessThan(PLAN_MIN_INSTALMENT_CENTS);
            return;
          }
          expect(result.amounts).toHaveLength(count);
          expect(sum(result.amounts)).toBe(total);
          for (const a of result.amounts) expect(a).toBeGreaterThanOrEqual(PLAN_MIN_INSTALMENT_CENTS);
          const [first, ...rest] = result.amounts;
          for (const a of rest.slice(0, -1)) expect(a).toBe(first);
          expect(result.amounts.at(-1)).toBeGreaterThanOrEqual(first ?? 0);
        },
      ),
    );
  });
});

describe("planAmounts per month", () => {
  it("pays the amount each month and the rest last", () => {
    expect(planAmounts(100_000, { mode: "amount", perMonthCents: 30_000 })).toEqual({
      amounts: [30_000, 30_000, 30_000, 10_000],
    });
    // A remainder under one unit joins the instalment before it.
    expect(planAmounts(100_050, { mode: "amount", perMonthCents: 50_000 })).toEqual({ amounts: [50_000, 50_050] });
  });

  it("refuses 0.50 a month, more than 12 months and a single payment", () => {
    expect(planAmounts(100_000, { mode: "amount", perMonthCents: 50 })).toEqual({ error: "plan.error.tooSmall" });
    expect(planAmounts(100_000, { mode: "amount", perMonthCents: 5_000 })).toEqual({ error: "plan.error.tooMany" });
    expect(planAmounts(100_000, { mode: "amount", perMonthCents: 100_000 })).toEqual({ error: "plan.error.tooFew" });
    expect(planAmounts(100_000, { mode: "amount", perMonthCents: 200_000 })).toEqual({ error: "plan.error.tooFew" });
  });

  it("sums to the total within 2 to 12 instalments of at least one unit (property)", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 10_000_000_000 }), fc.integer({ min: 1, max: 10_000_000_000 }), (t, p) => {
        const result = planAmounts(t, { mode: "amount", perMonthCents: p });
        if ("error" in result) return;
        expect(sum(result.amounts)).toBe(t);
        expect(result.amounts.length).toBeGreaterThanOrEqual(PLAN_MIN_INSTALMENTS);
        expect(result.amounts.length).toBeLessThanOrEqual(PLAN_MAX_INSTALMENTS);
        for (const a of result.amounts) expect(a).toBeGreaterThanOrEqual(PLAN_MIN_INSTALMENT_CENTS);
      }),
    );
  });
});

describe("planDates", () => {
  it("falls monthly on the same day, or the month's last", () => {
    expect(planDates("2027-01-31", 4)).toEqual(["2027-01-31", "2027-02-28", "2027-03-31", "2027-04-30"]);
    expect(planDates("2027-11-15", 3)).toEqual(["2027-11-15", "2027-12-15", "2028-01-15"]);
    expect(planDates("2028-01-30", 2)).toEqual(["2028-01-30", "2028-02-29"]);
  });

  it("is increasing, one a month (property)", () => {
    fc.assert(
      fc.property(
        fc.date({ min: new Date("2000-01-01"), max: new Date("2099-01-01"), noInvalidDate: true }),
        fc.integer({ min: 1, max: 12 }),
        (d, n) => {
          const dates = planDates(d.toISOString().slice(0, 10), n);
          expect(dates).toHaveLength(n);
          for (let i = 1; i < n; i++) expect((dates[i] ?? "") > (dates[i - 1] ?? "")).toBe(true);
        },
      ),
    );
  });
});

describe("planInstalments", () => {
  it("refuses a first date in the past or more than 90 days away", () => {
    const shape = { mode: "count", count: 3 } as const;
    expect(planInstalments(90_000, shape, "2027-03-09", "2027-03-10")).toEqual({ error: "plan.error.firstRange" });
    expect(planInstalments(90_000, shape, "2027-06-09", "2027-03-10")).toEqual({ error: "plan.error.firstRange" });
    expect(planInstalments(90_000, shape, "2027-02-30", "2027-03-10")).toEqual({ error: "plan.error.firstDate" });
    expect(planInstalments(90_000, shape, "2027-03-10", "2027-03-10")).toEqual({
      instalments: [
        { seq: 1, dueOn: "2027-03-10", amountCents: 30_000 },
        { seq: 2, dueOn: "2027-04-10", amountCents: 30_000 },
        { seq: 3, dueOn: "2027-05-10", amountCents: 30_000 },
      ],
    });
  });
});

describe("instalmentStates and nextPayment", () => {
  const plan = [
    { seq: 1, dueOn: "2027-01-10", amountCents: 10_000 },
    { seq: 2, dueOn: "2027-02-10", amountCents: 10_000 },
    { seq: 3, dueOn: "2027-03-10", amountCents: 5_000 },
  ];

  it("meets instalment k when the payments cover 1..k", () => {
    expect(instalmentStates(plan, 15_000, "2027-01-20").map((s) => [s.state, s.unpaidCents])).toEqual([
      ["paid", 0],
      ["next", 5_000],
      ["later", 5_000],
    ]);
    expect(nextPayment(plan, 15_000, "2027-01-20")).toEqual({ seq: 2, dueOn: "2027-02-10", cents: 5_000 });
  });

  it("says missed after the date, and pay now pays the missed and the next", () => {
    expect(instalmentStates(plan, 5_000, "2027-01-11").map((s) => s.state)).toEqual(["missed", "next", "later"]);
    expect(nextPayment(plan, 5_000, "2027-01-11")).toEqual({ seq: 2, dueOn: "2027-02-10", cents: 15_000 });
    expect(firstMissed(plan, 5_000, "2027-01-10")).toBeNull();
    expect(firstMissed(plan, 5_000, "2027-01-11")?.seq).toBe(1);
    expect(nextPayment(plan, 25_000, "2027-01-11")).toBeNull();
    expect(planProgress(plan, 30_000)).toEqual({ totalCents: 25_000, paidCents: 25_000, leftCents: 0 });
  });

  it("never asks more than is left, and all paid means nothing next (property)", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 40_000 }), (paid) => {
        const next = nextPayment(plan, paid, "2027-02-15");
        const { leftCents } = planProgress(plan, paid);
        if (leftCents === 0) expect(next).toBeNull();
        else expect(next?.cents).toBeLessThanOrEqual(leftCents);
      }),
    );
  });

  it("ends the grace after the chosen days", () => {
    expect(graceOver({ dueOn: "2027-01-10" }, 7, "2027-01-17")).toBe(false);
    expect(graceOver({ dueOn: "2027-01-10" }, 7, "2027-01-18")).toBe(true);
    expect(graceOver({ dueOn: "2027-01-10" }, 0, "2027-01-11")).toBe(true);
  });
});
