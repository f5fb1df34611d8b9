import { describe, expect, it } from "vitest";
import { bankLines, paymentReference } from "./bank-transfer";

const account = {
  currency: "EUR",
  holder: "Ada Lovelace",
  iban: "DE89370400440532013000",
  bic: "COBADEFFXXX",
  accountNumber: null,
  sortCode: null,
  routingNumber: null,
  reference: "{invoice}",
};

describe("bank-transfer lines", () => {
  it("shows an IBAN in groups of four and copies it without spaces", () => {
    expect(bankLines(account)).toEqual([
      { label: "Account holder", shown: "Ada Lovelace", copy: "Ada Lovelace" },
      { label: "IBAN", shown: "DE89 3704 0044 0532 0130 00", copy: "DE89370400440532013000" },
      { label: "BIC", shown: "COBADEFFXXX", copy: "COBADEFFXXX" },
    ]);
  });
  it("a UK account: number and sort code", () => {
    const uk = { ...account, currency: "GBP", iban: null, bic: null, accountNumber: "31926819", sortCode: "601613" };
    expect(bankLines(uk).slice(1)).toEqual([
      { label: "Account number", shown: "31926819", copy: "31926819" },
      { label: "Sort code", shown: "60-16-13", copy: "601613" },
    ]);
  });
  it("the reference quotes the invoices, or the debtor without numbers", () => {
    expect(paymentReference("{invoice}", ["INV-101", null, "INV-107"], "Acme")).toBe("INV-101, INV-107");
    expect(paymentReference("Dunly {invoice}", [null], "Acme Ltd")).toBe("Dunly Acme Ltd");
    expect(paymentReference("Rechnung", ["A-1"], "Acme")).toBe("Rechnung");
  });
});
