import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { bankAccountLabel, WRITEBACK_ACCOUNT_MESSAGE, WritebackSchema } from "./accounting-writeback";

const errors = (input: Record<string, string>) => {
  const { issues } = v.safeParse(WritebackSchema, input);
  return issues ? v.flatten<typeof WritebackSchema>(issues).nested : undefined;
};

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
  it("names a bank account with its code when it has one", () => {
    expect(bankAccountLabel({ name: "Business Bank Account", code: "090" })).toBe("Business Bank Account (090)");
    expect(bankAccountLabel({ name: "Savings", code: null })).toBe("Savings");
  });
});
