import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { ACCOUNT_OR_IBAN_MESSAGE, BankAccountSchema, IBAN_MESSAGE } from "./bank";

const errors = (input: Record<string, string>) => {
  const { issues } = v.safeParse(BankAccountSchema, { currency: "EUR", holder: "Ada", ...input });
  return issues ? v.flatten<typeof BankAccountSchema>(issues).nested : undefined;
};

describe("bank details", () => {
  it("takes an IBAN as people type it and stores its electronic form", () => {
    const parsed = v.parse(BankAccountSchema, {
      currency: "eur",
      holder: " Ada ",
      iban: "de89 3704 0044 0532 0130 00",
      bic: "cobadeffxxx",
    });
    expect(parsed).toMatchObject({
      currency: "EUR",
      holder: "Ada",
      iban: "DE89370400440532013000",
      bic: "COBADEFFXXX",
    });
    expect(parsed.reference).toBe("{invoice}");
  });
  it("refuses an IBAN with wrong check digits, a bad BIC, and neither an IBAN nor a routed account", () => {
    expect(errors({ iban: "DE89 3704 0044 0532 0130 01" })).toEqual({ iban: [IBAN_MESSAGE] });
    expect(errors({ iban: "DE89370400440532013000", bic: "NOPE" })?.bic).toHaveLength(1);
    expect(errors({})).toEqual({ iban: [ACCOUNT_OR_IBAN_MESSAGE] });
    expect(errors({ account_number: "31926819" })).toEqual({ iban: [ACCOUNT_OR_IBAN_MESSAGE] });
    expect(errors({ account_number: "31926819", sort_code: "60-16-13" })).toBeUndefined();
    expect(errors({ account_number: "12345678", routing_number: "12345" })?.routing_number).toHaveLength(1);
  });
});
