import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { bankAccountLabel, WRITEBACK_SCHEMAS, writebackAccountMessage } from "./accounting-writeback";

const WritebackSchema = WRITEBACK_SCHEMAS.xero;
const errors = (input: Record<string, string>, schema = WritebackSchema) => {
  const { issues } = v.safeParse(schema, input);
  return issues ? v.flatten<typeof WritebackSchema>(issues).nested : undefined;
};
const WRITEBACK_ACCOUNT_MESSAGE = writebackAccountMessage("xero");

describe("the write-back setting", () => {
  it("is off without the checkbox, whatever account is chosen", () => {
    expect(v.parse(WritebackSchema, {})).toEqual({});
    expect(v.parse(WritebackSchema, { account: "abc" })).toEqual({ account: "abc" });
  });
  it("needs a bank account when on, as a field error on the account", () => {
    expect(errors({ writeback: "on" })).toEqual({ account: [WRITEBACK_ACCOUNT_MESSAGE] });
    expect(errors({ writeback: "on", account: "  " })).toEqual({ account: [WRITEBACK_ACCOUNT_MESSAGE] });
    expect(v.parse(WritebackSchema, { writeback: "on", account: " abc " })).toEqual({
      writeback: "on",
      account: "abc",
    });
    expect(errors({ writeback: "on", account: "x".repeat(101) })?.account).toEqual([WRITEBACK_ACCOUNT_MESSAGE]);
  });
  it("names the connected tool in its messages", () => {
    expect(WRITEBACK_ACCOUNT_MESSAGE).toBe("Choose the bank account in Xero that Dunly's payments go to");
    expect(errors({ writeback: "on" }, WRITEBACK_SCHEMAS.quickbooks)).toEqual({
      account: ["Choose the bank account in QuickBooks that Dunly's payments go to"],
    });
  });
  it("names a bank account with its code when it has one", () => {
    expect(bankAccountLabel({ name: "Business Bank Account", code: "090" })).toBe("Business Bank Account (090)");
    expect(bankAccountLabel({ name: "Savings", code: null })).toBe("Savings");
  });
});
