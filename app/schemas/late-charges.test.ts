import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { contractInWords, lateChargeTermsSchema } from "./late-charges";

/** Settings → Late charges' schema (decisions/065): amounts in the user's format, limits per kind. */

const parse = (input: Record<string, unknown>, locale = "de-DE") => v.safeParse(lateChargeTermsSchema(locale), input);
const errors = (input: Record<string, unknown>, locale?: string) => {
  const out = parse(input, locale);
  return out.success ? {} : (v.flatten(out.issues).nested ?? {});
};

describe("lateChargeTermsSchema", () => {
  it("reads a fee and a percentage typed in a German format", () => {
    const out = parse({
      rule: "contract",
      contract_kind: "fixed",
      contract_fee: "1.234,56",
      contract_fee_currency: "eur",
    });
    expect(out.success && out.output).toMatchObject({
      enabled: false,
      contract_fee: 1234.56,
      contract_fee_currency: "EUR",
      contract_grace_days: 0,
      payment_order: "principal_first",
    });
    const monthly = parse({ rule: "contract", contract_kind: "percent_monthly", contract_rate: "1,5", enabled: "on" });
    expect(monthly.success && monthly.output).toMatchObject({ enabled: true, contract_rate: 1.5 });
  });

  it("refuses out-of-range values with the field's message, and only for the kind that uses the field", () => {
    expect(
      errors({ rule: "contract", contract_kind: "fixed", contract_fee: "10.000,01", contract_fee_currency: "EUR" }),
    ).toEqual({
      contract_fee: ["Please enter a fee from 0.01 to 10,000"],
    });
    expect(errors({ rule: "contract", contract_kind: "percent_once", contract_rate: "25,01" })).toEqual({
      contract_rate: ["Please enter a percentage from 0.01 to 25"],
    });
    expect(errors({ rule: "contract", contract_kind: "percent_monthly", contract_rate: "5,5" })).toEqual({
      contract_rate: ["Please enter a monthly percentage from 0.01 to 5"],
    });
    expect(
      errors({ rule: "contract", contract_kind: "percent_once", contract_rate: "2", contract_cap: "101" }),
    ).toEqual({
      contract_cap: ["Please enter a cap from 0.01 to 100 percent of the invoice, or leave it blank"],
    });
    expect(errors({ rule: "contract" })).toEqual({
      contract_kind: ["Please choose a fixed fee, a percentage once or a monthly percentage"],
    });
    // A statutory rule ignores the contract's fields.
    expect(errors({ rule: "gb", contract_kind: "fixed", contract_fee: "99.999,00" })).toEqual({});
    expect(Object.keys(errors({ rule: "us" }))).toEqual(["rule"]);
  });
});

describe("contractInWords", () => {
  it("says the terms as a sentence, in the user's format", () => {
    expect(
      contractInWords(
        { kind: "fixed", feeCents: 2500, feeCurrency: "EUR", rateBp: null, graceDays: 14, capBp: 1000 },
        "en-US",
      ),
    ).toBe("A fee of €25.00 once, 14 days after the due date, on invoices in EUR, at most 10.00% of the invoice");
    expect(
      contractInWords(
        { kind: "percent_monthly", feeCents: null, feeCurrency: null, rateBp: 150, graceDays: 0, capBp: null },
        "de-DE",
      ),
    ).toMatch(/^1,50\s%(?: a month of what is unpaid, from the day after the due date)$/);
  });
});
