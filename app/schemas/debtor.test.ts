import { parseWithValibot } from "@conform-to/valibot";
import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { DebtorJsonSchema, debtorSchema } from "./debtor";

const DECIMALS = "Please enter an amount with at most two decimals";
const base = { full_name: "Dana Debtor", email: "dana@example.com" };

function formDebt(debt: string) {
  const form = new FormData();
  form.set("full_name", base.full_name);
  form.set("email", base.email);
  form.set("debt", debt);
  return parseWithValibot(form, { schema: debtorSchema("en-US") });
}

describe("debt amounts", () => {
  it("accept whole cents from the form and the JSON API", () => {
    for (const debt of ["19.99", "5", "1.5", "1.10"]) expect(formDebt(debt).status, debt).toBe("success");
    for (const debt of [19.99, 5, "1.05", " 7.2 "]) {
      expect(v.safeParse(DebtorJsonSchema, { ...base, debt }).success, String(debt)).toBe(true);
    }
  });

  it("say one thing at a time: a number too large for JavaScript gets one message, not also over the maximum and inexact", () => {
    const submission = formDebt("1e400");
    expect(submission.status).toBe("error");
    expect(submission.reply().error?.debt).toEqual(["Please enter a number greater than 0"]);
    expect(formDebt("0").reply().error?.debt).toHaveLength(1);
    expect(formDebt("2000000000.005").reply().error?.debt).toHaveLength(1);
  });

  it("refuse a third decimal instead of rounding it away", () => {
    const submission = formDebt("1000.005");
    expect(submission.status).toBe("error");
    expect(submission.reply().error?.debt).toEqual([DECIMALS]);
    for (const debt of [1.005, "1.005", 100.001]) {
      const parsed = v.safeParse(DebtorJsonSchema, { ...base, debt });
      expect(parsed.success, String(debt)).toBe(false);
      expect(parsed.issues?.map((i) => i.message)).toContain(DECIMALS);
    }
  });
});
