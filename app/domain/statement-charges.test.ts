import { describe, expect, it } from "vitest";
import { computeCharges } from "./late-charges";
import { RATES } from "./late-charges/test-rates";
import { formatMoney } from "./money";
import { chargeSummary, chargesOfLine, chargesOfPaidInvoices, chargeWords, parseBasis } from "./statement-charges";

const format = { money: (cents: number, currency: string) => formatMoney(cents, currency), date: (d: string) => d };

describe("a statement's charges", () => {
  it("sums invoices and charges per currency: the invoices' currencies first, then those owing only charges", () => {
    expect(
      chargeSummary(
        [
          { currency: "USD", cents: 10_000 },
          { currency: "EUR", cents: 500 },
        ],
        [
          { currency: "GBP", cents: 4_000 },
          { currency: "USD", cents: 1_234 },
        ],
      ),
    ).toEqual([
      { currency: "USD", invoicesCents: 10_000, chargesCents: 1_234, totalCents: 11_234 },
      { currency: "EUR", invoicesCents: 500, chargesCents: 0, totalCents: 500 },
      { currency: "GBP", invoicesCents: 0, chargesCents: 4_000, totalCents: 4_000 },
    ]);
  });

  it("puts a stored basis in words through the rules, and a damaged one gets its label only", () => {
    const out = computeCharges(
      { rule: "de", compensation: true, contract: null },
      { currency: "EUR", amountCents: 1_000_000, dueOn: "2025-09-30", payments: [], pauses: [] },
      "2025-11-29",
      RATES,
    );
    if ("error" in out) throw new Error(out.error);
    const [interest] = out.charges;
    if (!interest) throw new Error("no interest");
    // As the column holds it: JSON text, parsed back.
    const stored = parseBasis(JSON.stringify(interest.basis));
    const words = chargeWords({ kind: "interest", basis: stored }, "de", format);
    expect(words.basis).toContain("§ 288 Abs. 2 BGB");
    expect(words.label.length).toBeGreaterThan(0);
    for (const damaged of [null, "text", { v: 2 }, { ...(stored as object), periods: "none" }, parseBasis("{oops")]) {
      expect(chargeWords({ kind: "interest", basis: damaged }, "en", format)).toEqual({
        label: "Interest",
        basis: null,
      });
    }
  });

  it("keeps each charge under its listed line, and those of paid invoices apart", () => {
    const line = (at: number | null) => ({
      line: at,
      invoiceNumber: null,
      invoiceDueOn: "2026-01-01",
      kind: "fee" as const,
      currency: "EUR",
      amountCents: 1,
      paidCents: 0,
      owedCents: 1,
      basis: null,
      accruedThrough: "2026-02-01",
    });
    const lines = [line(0), line(1), line(null), line(0)];
    expect(chargesOfLine(lines, 0)).toHaveLength(2);
    expect(chargesOfLine(lines, 2)).toHaveLength(0);
    expect(chargesOfPaidInvoices(lines)).toHaveLength(1);
    expect(chargesOfLine(undefined, 0)).toEqual([]);
  });
});
