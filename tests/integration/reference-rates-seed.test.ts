import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { computeCharges, type ReferenceRate, rateInForce } from "~/domain/late-charges";

/**
 * The reference_rates_seed migration (decisions/064) as D1 runs it: its rows are there with their
 * sources, and the published worked examples come out of them.
 */

async function seededRates(): Promise<(ReferenceRate & { source: string })[]> {
  const { results } = await env.DB.prepare(
    "SELECT series, effective_on AS effectiveOn, rate_bp AS rateBp, source FROM reference_rates ORDER BY series, effective_on",
  ).all<ReferenceRate & { source: string }>();
  return results;
}

const noPayments = { payments: [], pauses: [] };

describe("the reference-rate seed in D1", () => {
  it("holds the three series, each row with its source", async () => {
    const rates = await seededRates();
    const count = (series: string) => rates.filter((r) => r.series === series).length;
    expect(count("ecb_mro")).toBeGreaterThanOrEqual(19);
    expect(count("boe_base")).toBeGreaterThanOrEqual(20);
    expect(count("de_basiszins")).toBeGreaterThanOrEqual(9);
    for (const r of rates) expect(r.source).toMatch(/https:\/\//);
    expect(rateInForce("ecb_mro", "2024-01-01", rates)?.rateBp).toBe(450);
    expect(rateInForce("boe_base", "2024-12-31", rates)?.rateBp).toBe(475);
    expect(rateInForce("de_basiszins", "2026-01-01", rates)?.rateBp).toBe(127);
  });

  it("gives the worked examples: €10,000 sixty days late at 4.5% + 8%, the Act's 12.75%, § 288 BGB", async () => {
    const rates = await seededRates();
    const nl = computeCharges(
      { rule: "nl", compensation: true, contract: null },
      { currency: "EUR", amountCents: 1_000_000, dueOn: "2024-02-29", ...noPayments },
      "2024-04-29",
      rates,
    );
    expect("charges" in nl && nl.charges.map((c) => [c.kind, c.cents])).toEqual([
      ["interest", 20_548],
      ["compensation", 4000],
    ]);
    const gb = computeCharges(
      { rule: "gb", compensation: true, contract: null },
      { currency: "GBP", amountCents: 400_000, dueOn: "2025-03-30", ...noPayments },
      "2025-05-28",
      rates,
    );
    expect("charges" in gb && gb.charges.map((c) => [c.kind, c.cents])).toEqual([
      ["interest", 8244],
      ["compensation", 7000],
    ]);
    const de = computeCharges(
      { rule: "de", compensation: false, contract: null },
      { currency: "EUR", amountCents: 1_000_000, dueOn: "2024-06-15", ...noPayments },
      "2024-07-15",
      rates,
    );
    expect("charges" in de && de.charges.map((c) => c.cents)).toEqual([10_270]);
  });
});
