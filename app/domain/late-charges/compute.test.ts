import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  type ComputeResult,
  computeCharges,
  type InvoiceHistory,
  isChargeBasis,
  type RatePeriod,
  statutoryInterestExact,
} from "./compute";
import { addDays } from "./days";
import { minorUnitCents, roundHalfUp } from "./rounding";
import { type LateChargeTerms, type ReferenceRate, STATUTORY_RULES, statutoryRule } from "./rules";
import { RATES } from "./test-rates";

const statutory = (rule: LateChargeTerms["rule"], compensation = false): LateChargeTerms => ({
  rule,
  compensation,
  contract: null,
});

const invoice = (over: Partial<InvoiceHistory> = {}): InvoiceHistory => ({
  currency: "EUR",
  amountCents: 1_000_000,
  dueOn: "2024-02-29",
  payments: [],
  pauses: [],
  ...over,
});

function charges(result: ComputeResult) {
  if ("error" in result) throw new Error(`no rate: ${result.series} on ${result.on}`);
  return result.charges;
}

function periodsOf(result: ComputeResult): RatePeriod[] {
  const basis = charges(result).find((c) => c.kind === "interest")?.basis;
  return basis?.type === "statutory_interest" ? basis.periods : [];
}

function interestOf(result: ComputeResult): number {
  return charges(result).find((c) => c.kind === "interest")?.cents ?? 0;
}

describe("statutory interest: published worked examples", () => {
  it("€10,000 paid 60 days late at 4.5% + 8% is €205.48", () => {
    // The Netherlands: ECB rate + 8 points; 4.50% was in force on 1 January 2024.
    const result = computeCharges(statutory("nl"), invoice(), "2024-04-29", RATES);
    const [interest] = charges(result);
    expect(interest?.cents).toBe(20_548);
    expect(interest?.basis).toMatchObject({
      type: "statutory_interest",
      rule: "nl",
      periods: [{ from: "2024-03-01", to: "2024-04-29", days: 60, principalCents: 1_000_000, rateBp: 1250 }],
    });
  });

  it("UK: £5,000 for 101 days at a 4.25% base rate + 8% (12.25%) is £169.49 exactly, not a rounded day rate × days", () => {
    // A published UK guide's example (Paidnice, "How to calculate statutory interest in the UK")
    // rounds the day's interest first, £1.68 × 101 = £169.68; the Act's interest is simple and exact:
    // £5,000 × 12.25% × 101 / 365 = £169.486… A debt whose interest started in July–December 2025
    // takes the 4.25% in force on 30 June 2025.
    const result = computeCharges(
      statutory("gb"),
      invoice({ currency: "GBP", amountCents: 500_000, dueOn: "2025-07-31" }),
      addDays("2025-07-31", 101),
      RATES,
    );
    expect(interestOf(result)).toBe(16_949);
  });

  it("UK: the Act's 12.75% on £4,000 for 59 days, fixed at the 4.75% of 31 December 2024 through the 2025 cuts", () => {
    const result = computeCharges(
      statutory("gb", true),
      invoice({ currency: "GBP", amountCents: 400_000, dueOn: "2025-03-30" }),
      "2025-05-28",
      RATES,
    );
    const [interest, compensation] = charges(result);
    // £4,000 × 12.75% × 59 / 365 = £82.438…
    expect(interest).toMatchObject({ kind: "interest", cents: 8244 });
    expect(interest?.basis).toMatchObject({
      periods: [{ days: 59, rateBp: 1275, referenceBp: 475, fixedOn: "2024-12-31" }],
    });
    expect(compensation).toMatchObject({ kind: "compensation", cents: 7000 });
  });

  it("Germany (§ 288 Abs. 2 BGB): Basiszinssatz + 9 points, each half-year at its own Basiszinssatz", () => {
    // €10,000 due 15 June 2024: 15 days at 3.62% + 9 = 12.62%, then 15 days at 3.37% + 9 = 12.37%.
    // 10,000 × (12.62% × 15 + 12.37% × 15) / 365 = €102.698…
    const result = computeCharges(statutory("de", true), invoice({ dueOn: "2024-06-15" }), "2024-07-15", RATES);
    const [interest, compensation] = charges(result);
    expect(interest?.cents).toBe(10_270);
    expect(interest?.basis).toMatchObject({
      periods: [
        { from: "2024-06-16", to: "2024-06-30", days: 15, rateBp: 1262, referenceBp: 362 },
        { from: "2024-07-01", to: "2024-07-15", days: 15, rateBp: 1237, referenceBp: 337 },
      ],
    });
    expect(compensation?.cents).toBe(4000);
  });

  it("France: ECB rate + 10 points, €40", () => {
    // €1,000 due 31 December 2024: the 3.15% of 1 January 2025 + 10 = 13.15% for 31 days = €11.168…
    const result = computeCharges(
      statutory("fr", true),
      invoice({ amountCents: 100_000, dueOn: "2024-12-31" }),
      "2025-01-31",
      RATES,
    );
    expect(charges(result).map((c) => [c.kind, c.cents])).toEqual([
      ["interest", 1117],
      ["compensation", 4000],
    ]);
  });
});

describe("the rate table's dates", () => {
  it("an EU rate change mid-debt changes the rate from the next half-year, not on the day", () => {
    // The ECB cut to 4.25% on 12 June 2024; the Dutch rate stays 12.50% through 30 June.
    const result = computeCharges(statutory("nl"), invoice({ dueOn: "2024-05-31" }), "2024-07-31", RATES);
    const periods = periodsOf(result);
    expect(periods.map((p) => [p.from, p.to, p.rateBp])).toEqual([
      ["2024-06-01", "2024-06-30", 1250],
      ["2024-07-01", "2024-07-31", 1225],
    ]);
  });

  it("a UK rate change mid-debt does not: the rate is fixed for the debt's life", () => {
    // Interest from 1 July 2024: the 5.25% in force on 30 June 2024, through three cuts and two half-years.
    const result = computeCharges(
      statutory("gb"),
      invoice({ currency: "GBP", amountCents: 100_000, dueOn: "2024-06-30" }),
      "2025-03-31",
      RATES,
    );
    const periods = periodsOf(result);
    expect(periods).toHaveLength(1);
    expect(periods[0]).toMatchObject({ rateBp: 1325, fixedOn: "2024-06-30", days: 274 });
  });

  it("UK: a debt late from 1 January takes the rate in force on the 31 December before", () => {
    const rates: ReferenceRate[] = [
      { series: "boe_base", effectiveOn: "2025-12-18", rateBp: 375 },
      { series: "boe_base", effectiveOn: "2026-01-01", rateBp: 999 },
    ];
    const result = computeCharges(
      statutory("gb"),
      invoice({ currency: "GBP", dueOn: "2025-12-31" }),
      "2026-01-10",
      rates,
    );
    expect(charges(result)[0]?.basis).toMatchObject({ periods: [{ rateBp: 1175, fixedOn: "2025-12-31" }] });
  });

  it("says which rate is missing rather than guessing", () => {
    expect(computeCharges(statutory("nl"), invoice({ dueOn: "2021-12-31" }), "2022-01-05", RATES)).toEqual({
      error: "no-rate",
      series: "ecb_mro",
      on: "2022-01-01",
    });
    // The Basiszinssatz is published every half-year: without 1 January 2026's own row it is missing.
    expect(computeCharges(statutory("de"), invoice({ dueOn: "2025-12-20" }), "2026-01-05", RATES)).toEqual({
      error: "no-rate",
      series: "de_basiszins",
      on: "2026-01-01",
    });
  });

  it("needs no rate for days that bear no interest", () => {
    const paid = invoice({ dueOn: "2021-12-31", payments: [{ on: "2021-12-31", cents: 1_000_000 }] });
    expect(computeCharges(statutory("nl"), paid, "2022-03-01", RATES)).toEqual({
      charges: [],
      none: { reason: "paid" },
    });
  });
});

describe("payments and pauses", () => {
  it("a payment on day D stops interest on what it paid from D on", () => {
    // €10,000 at 12.5%: 10 days on €10,000, then €4,000 paid on day 11, 10 days on €6,000.
    const result = computeCharges(
      statutory("nl"),
      invoice({ payments: [{ on: "2024-03-11", cents: 400_000 }] }),
      "2024-03-20",
      RATES,
    );
    const [interest] = charges(result);
    expect(interest?.basis).toMatchObject({
      periods: [
        { from: "2024-03-01", to: "2024-03-10", days: 10, principalCents: 1_000_000 },
        { from: "2024-03-11", to: "2024-03-20", days: 10, principalCents: 600_000 },
      ],
    });
    // (10,000 × 10 + 6,000 × 10) × 12.5% / 365 = €54.794…
    expect(interest?.cents).toBe(5479);
  });

  it("paused days bear no interest: from inclusive, to exclusive, open while still paused", () => {
    const closed = computeCharges(
      statutory("nl"),
      invoice({ pauses: [{ fromOn: "2024-03-06", toOn: "2024-03-16" }] }),
      "2024-03-20",
      RATES,
    );
    expect(periodsOf(closed)).toMatchObject([
      { from: "2024-03-01", to: "2024-03-05", days: 5 },
      { from: "2024-03-16", to: "2024-03-20", days: 5 },
    ]);
    const open = computeCharges(
      statutory("nl"),
      invoice({ pauses: [{ fromOn: "2024-03-06", toOn: null }] }),
      "2024-12-31",
      RATES,
    );
    expect(periodsOf(open)).toMatchObject([{ from: "2024-03-01", to: "2024-03-05", days: 5 }]);
  });

  it("a dispute lost resumes interest: removing the pause charges its days after all", () => {
    const paused = invoice({ pauses: [{ fromOn: "2024-03-01", toOn: "2024-04-01" }] });
    const with_ = interestOf(computeCharges(statutory("nl"), paused, "2024-04-29", RATES));
    const without = interestOf(computeCharges(statutory("nl"), invoice(), "2024-04-29", RATES));
    expect(with_).toBeLessThan(without);
    expect(without).toBe(20_548);
  });
});

describe("when nothing applies", () => {
  it("not late, paid on time, or the invoice in another currency than the rule's", () => {
    expect(computeCharges(statutory("nl"), invoice(), "2024-02-29", RATES)).toEqual({
      charges: [],
      none: { reason: "not-late" },
    });
    expect(
      computeCharges(
        statutory("nl"),
        invoice({ payments: [{ on: "2024-02-01", cents: 1_000_000 }] }),
        "2024-04-29",
        RATES,
      ),
    ).toEqual({ charges: [], none: { reason: "paid" } });
    expect(computeCharges(statutory("gb", true), invoice({ currency: "EUR" }), "2024-04-29", RATES)).toEqual({
      charges: [],
      none: { reason: "other-currency", currency: "GBP" },
    });
    expect(computeCharges(statutory("de", true), invoice({ currency: "USD" }), "2024-04-29", RATES)).toEqual({
      charges: [],
      none: { reason: "other-currency", currency: "EUR" },
    });
  });

  it("an unknown rule or contract without terms charges nothing", () => {
    expect(
      computeCharges({ rule: "xx" as "nl", compensation: true, contract: null }, invoice(), "2024-04-29", RATES),
    ).toEqual({ charges: [], none: { reason: "unknown-rule" } });
    expect(
      computeCharges({ rule: "contract", compensation: true, contract: null }, invoice(), "2024-04-29", RATES),
    ).toEqual({ charges: [], none: { reason: "no-contract" } });
  });
});

describe("statutory compensation", () => {
  it("UK: £40 below £1,000, £70 from £1,000 to £9,999.99, £100 from £10,000", () => {
    const comp = (amountCents: number) =>
      charges(
        computeCharges(
          statutory("gb", true),
          invoice({ currency: "GBP", amountCents, dueOn: "2025-03-30" }),
          "2025-03-31",
          RATES,
        ),
      ).find((c) => c.kind === "compensation")?.cents;
    expect(comp(99_999)).toBe(4000);
    expect(comp(100_000)).toBe(7000);
    expect(comp(999_999)).toBe(7000);
    expect(comp(1_000_000)).toBe(10_000);
  });

  it("by the debt unpaid when it became late, and only when the terms ask for it", () => {
    const part = invoice({
      currency: "GBP",
      amountCents: 150_000,
      dueOn: "2025-03-30",
      payments: [{ on: "2025-03-01", cents: 60_000 }],
    });
    const result = charges(computeCharges(statutory("gb", true), part, "2025-04-30", RATES));
    expect(result.find((c) => c.kind === "compensation")).toMatchObject({ cents: 4000, basis: { debtCents: 90_000 } });
    expect(charges(computeCharges(statutory("gb", false), part, "2025-04-30", RATES)).map((c) => c.kind)).toEqual([
      "interest",
    ]);
  });
});

describe("contract terms", () => {
  const contract = (over: Partial<NonNullable<LateChargeTerms["contract"]>>): LateChargeTerms => ({
    rule: "contract",
    compensation: true,
    contract: { kind: "fixed", feeCents: 2500, feeCurrency: "USD", rateBp: null, graceDays: 0, capBp: null, ...over },
  });
  const usd = (over: Partial<InvoiceHistory> = {}) =>
    invoice({ currency: "USD", amountCents: 100_000, dueOn: "2026-01-31", ...over });

  it("a fixed fee after the grace days, in its own currency only", () => {
    const terms = contract({ graceDays: 7 });
    expect(computeCharges(terms, usd(), "2026-02-07", RATES)).toEqual({ charges: [], none: { reason: "grace" } });
    const [fee] = charges(computeCharges(terms, usd(), "2026-02-08", RATES));
    expect(fee).toMatchObject({
      kind: "fee",
      cents: 2500,
      basis: { type: "contract", kind: "fixed", fromOn: "2026-02-08" },
    });
    expect(computeCharges(terms, usd({ currency: "EUR" }), "2026-03-01", RATES)).toEqual({
      charges: [],
      none: { reason: "other-currency", currency: "USD" },
    });
  });

  it("nothing when paid before grace ended", () => {
    const paid = usd({ payments: [{ on: "2026-02-05", cents: 100_000 }] });
    expect(computeCharges(contract({ graceDays: 7 }), paid, "2026-03-01", RATES)).toEqual({
      charges: [],
      none: { reason: "paid" },
    });
  });

  it("a percentage once, of the principal unpaid when grace ended", () => {
    const terms = contract({ kind: "percent_once", feeCents: null, feeCurrency: null, rateBp: 500, graceDays: 10 });
    const partly = usd({ payments: [{ on: "2026-02-05", cents: 40_000 }] });
    const [fee] = charges(computeCharges(terms, partly, "2026-03-31", RATES));
    expect(fee).toMatchObject({ kind: "fee", cents: 3000, basis: { principalCents: 60_000, rateBp: 500 } });
  });

  it("a monthly percentage per started month, on the principal unpaid at each month's start", () => {
    const terms = contract({ kind: "percent_monthly", feeCents: null, feeCurrency: null, rateBp: 150 });
    const partly = usd({ payments: [{ on: "2026-03-15", cents: 40_000 }] });
    // Months start 1 Feb, 1 Mar (on $1,000: $15 each), 1 Apr ($600: $9); 1 May not started on 30 Apr.
    const [interest] = charges(computeCharges(terms, partly, "2026-04-30", RATES));
    expect(interest).toMatchObject({
      kind: "interest",
      cents: 3900,
      basis: {
        months: [
          { from: "2026-02-01", months: 2, principalCents: 100_000 },
          { from: "2026-04-01", months: 1, principalCents: 60_000 },
        ],
      },
    });
  });

  it("months from a 31st run on the months' last days", () => {
    const terms = contract({ kind: "percent_monthly", feeCents: null, feeCurrency: null, rateBp: 100, graceDays: 0 });
    const result = charges(computeCharges(terms, usd({ dueOn: "2026-01-30" }), "2026-03-30", RATES));
    // From 31 Jan: 31 Jan, 28 Feb, 31 Mar (not yet started on 30 Mar).
    expect(result[0]).toMatchObject({ cents: 2000, basis: { months: [{ from: "2026-01-31", months: 2 }] } });
  });

  it("a cap of the invoice's amount, rounded down, and said", () => {
    const terms = contract({ kind: "percent_monthly", feeCents: null, feeCurrency: null, rateBp: 500, capBp: 1234 });
    const [interest] = charges(computeCharges(terms, usd({ amountCents: 100_001 }), "2026-12-31", RATES));
    // 11 months started (1 Feb – 1 Dec) × 5% = 55% of $1,000.01 = $550.01, capped at 12.34% = $123.401… → $123.40.
    expect(interest).toMatchObject({ cents: 12_340, basis: { capped: true, capCents: 12_340, uncappedCents: 55_001 } });
  });

  it("a month starting on a paused day is not charged", () => {
    const terms = contract({ kind: "percent_monthly", feeCents: null, feeCurrency: null, rateBp: 100 });
    const paused = usd({ pauses: [{ fromOn: "2026-02-20", toOn: "2026-03-05" }] });
    const [interest] = charges(computeCharges(terms, paused, "2026-04-30", RATES));
    expect(interest?.cents).toBe(2000);
  });

  it("in yen, to the whole yen", () => {
    const terms = contract({ kind: "percent_once", feeCents: null, feeCurrency: null, rateBp: 333 });
    // ¥12,345 (1,234,500 Dunly cents) × 3.33% = ¥411.0885 → ¥411.
    const [fee] = charges(computeCharges(terms, usd({ currency: "JPY", amountCents: 1_234_500 }), "2026-03-01", RATES));
    expect(fee?.cents).toBe(41_100);
  });
});

describe("a stored basis", () => {
  it("is recognised after a JSON round trip, and anything else is not", () => {
    const stored = [
      ...charges(computeCharges(statutory("gb", true), invoice({ currency: "GBP" }), "2024-04-29", RATES)),
      ...charges(
        computeCharges(
          {
            rule: "contract",
            compensation: false,
            contract: {
              kind: "percent_monthly",
              feeCents: null,
              feeCurrency: null,
              rateBp: 100,
              graceDays: 0,
              capBp: 500,
            },
          },
          invoice(),
          "2024-06-29",
          RATES,
        ),
      ),
    ];
    expect(stored.map((c) => c.basis.type)).toEqual(["statutory_interest", "statutory_compensation", "contract"]);
    for (const c of stored) expect(isChargeBasis(JSON.parse(JSON.stringify(c.basis)))).toBe(true);
    for (const bad of [
      null,
      "x",
      {},
      { v: 2, type: "contract" },
      { v: 1, type: "statutory_interest", currency: "EUR" },
    ]) {
      expect(isChargeBasis(bad)).toBe(false);
    }
  });
});

describe("properties", () => {
  const rule = fc.constantFrom(...STATUTORY_RULES.map((r) => r.id));
  const currencyFor = (id: string) => statutoryRule(id)?.currency ?? "EUR";
  const day = fc.integer({ min: 0, max: 700 }).map((n) => addDays("2023-07-01", n));
  const history = fc.record({
    amountCents: fc.integer({ min: 1, max: 100_000_000_00 }),
    dueOn: day,
    payments: fc.array(fc.record({ on: day, cents: fc.integer({ min: 1, max: 50_000_000_00 }) }), { maxLength: 4 }),
    pauses: fc.array(
      fc.record({ fromOn: day, length: fc.option(fc.integer({ min: 1, max: 90 }), { nil: null }) }).map((p) => ({
        fromOn: p.fromOn,
        toOn: p.length === null ? null : addDays(p.fromOn, p.length),
      })),
      { maxLength: 3 },
    ),
  });

  it("accrual is additive over days: exactly before rounding, within one minor unit after", () => {
    fc.assert(
      fc.property(rule, history, fc.integer({ min: 1, max: 200 }), fc.integer({ min: 1, max: 200 }), (id, h, a, b) => {
        const r = statutoryRule(id);
        if (!r) return;
        const inv = { ...h, currency: r.currency };
        const mid = addDays(inv.dueOn, a);
        const end = addDays(mid, b);
        const first = statutoryInterestExact(r, inv, mid, RATES);
        const whole = statutoryInterestExact(r, inv, end, RATES);
        // The tail: the same invoice with every day through `mid` paused.
        const tailInv = { ...inv, pauses: [...inv.pauses, { fromOn: addDays(inv.dueOn, 1), toOn: addDays(mid, 1) }] };
        const tail = statutoryInterestExact(r, tailInv, end, RATES);
        if ("error" in first || "error" in whole || "error" in tail) return;
        expect(first.exact.den).toBe(whole.exact.den);
        expect(first.exact.num + tail.exact.num).toBe(whole.exact.num);
        const unit = minorUnitCents(inv.currency);
        const rounded = roundHalfUp(first.exact, unit) + roundHalfUp(tail.exact, unit);
        expect(Math.abs(rounded - roundHalfUp(whole.exact, unit))).toBeLessThanOrEqual(unit);
      }),
    );
  });

  it("never negative, whatever was paid", () => {
    fc.assert(
      fc.property(rule, history, fc.integer({ min: 0, max: 400 }), fc.boolean(), (id, h, n, comp) => {
        const result = computeCharges(
          statutory(id, comp),
          { ...h, currency: currencyFor(id) },
          addDays(h.dueOn, n),
          RATES,
        );
        if ("error" in result) return;
        for (const c of result.charges) expect(c.cents).toBeGreaterThanOrEqual(0);
      }),
    );
  });

  it("a payment never raises interest", () => {
    fc.assert(
      fc.property(
        rule,
        history,
        fc.integer({ min: 0, max: 400 }),
        fc.record({ at: fc.integer({ min: -30, max: 400 }), cents: fc.integer({ min: 1, max: 100_000_000_00 }) }),
        (id, h, n, p) => {
          const inv = { ...h, currency: currencyFor(id) };
          const through = addDays(h.dueOn, n);
          const before = computeCharges(statutory(id), inv, through, RATES);
          const after = computeCharges(
            statutory(id),
            { ...inv, payments: [...inv.payments, { on: addDays(h.dueOn, p.at), cents: p.cents }] },
            through,
            RATES,
          );
          if ("error" in before || "error" in after) return;
          expect(interestOf(after)).toBeLessThanOrEqual(interestOf(before));
        },
      ),
    );
  });

  it("rounds once, half up, to the currency's unit: never more than half a unit from the exact interest", () => {
    fc.assert(
      fc.property(
        history,
        fc.integer({ min: 1, max: 500 }),
        fc.constantFrom("JPY", "KWD", "EUR", "GBP"),
        (h, n, currency) => {
          const r = statutoryRule("nl");
          if (!r) return;
          const inv = { ...h, currency };
          const accrued = statutoryInterestExact(r, inv, addDays(h.dueOn, n), RATES);
          if ("error" in accrued) return;
          const unit = minorUnitCents(currency);
          const cents = roundHalfUp(accrued.exact, unit);
          expect(cents % unit).toBe(0);
          // |cents − exact| ≤ unit / 2, and exactly half a unit only rounds up.
          const diff = BigInt(cents) * accrued.exact.den - accrued.exact.num;
          expect(2n * (diff < 0n ? -diff : diff) <= BigInt(unit) * accrued.exact.den).toBe(true);
          if (2n * diff === -BigInt(unit) * accrued.exact.den) throw new Error("a half rounded down");
        },
      ),
    );
  });

  it("charges are whole minor units: yen to the yen, a 3-decimal currency to the hundredth Dunly keeps", () => {
    const terms = (rateBp: number): LateChargeTerms => ({
      rule: "contract",
      compensation: false,
      contract: { kind: "percent_monthly", feeCents: null, feeCurrency: null, rateBp, graceDays: 0, capBp: null },
    });
    fc.assert(
      fc.property(
        fc.constantFrom("JPY", "KWD", "EUR"),
        fc.integer({ min: 1, max: 10_000_000_00 }),
        fc.integer({ min: 1, max: 500 }),
        fc.integer({ min: 1, max: 400 }),
        (currency, amountCents, rateBp, n) => {
          const result = computeCharges(
            terms(rateBp),
            invoice({ currency, amountCents }),
            addDays("2024-02-29", n),
            RATES,
          );
          if ("error" in result) return;
          for (const c of result.charges) {
            expect(c.cents % (currency === "JPY" ? 100 : 1)).toBe(0);
            expect(Number.isSafeInteger(c.cents)).toBe(true);
          }
        },
      ),
    );
  });
});
