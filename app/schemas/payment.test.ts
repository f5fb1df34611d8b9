import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { overOwedMessage, paymentSchema } from "./payment";

const schema = paymentSchema({ today: "2026-11-26", maxCents: 1000, currency: "USD" });
const messagesFor = (amount: number) => {
  const parsed = v.safeParse(schema, { amount, paid_on: "2026-11-26" });
  return parsed.success ? [] : parsed.issues.map((issue) => issue.message);
};

describe("a payment's amount", () => {
  it("says one thing at a time, the owed check last", () => {
    expect(messagesFor(Number.POSITIVE_INFINITY)).toEqual(["Please enter a number greater than 0"]);
    expect(messagesFor(10.005)).toEqual(["Please enter an amount with at most two decimals"]);
    expect(messagesFor(20)).toEqual([overOwedMessage(1000, "USD")]);
    expect(messagesFor(10)).toEqual([]);
  });
});
