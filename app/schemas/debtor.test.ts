import { parseWithValibot } from "@conform-to/valibot";
import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { PHONE_MESSAGES } from "~/domain/phone";
import { CONSENT_NEEDS_PHONE_MESSAGE, DebtorJsonSchema, debtorSchema } from "./debtor";

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

describe("the debtor's mobile and consent to text (decisions/069)", () => {
  function formWith(fields: Record<string, string>) {
    const form = new FormData();
    form.set("full_name", base.full_name);
    form.set("email", base.email);
    form.set("debt", "10");
    for (const [k, value] of Object.entries(fields)) form.set(k, value);
    return parseWithValibot(form, { schema: debtorSchema("en-US") });
  }

  it("stores the form's mobile in E.164 with the consent ticked, or none when blank", () => {
    const ok = formWith({ phone: "+49 151 2345 6789", text_consent: "on" });
    expect(ok.status).toBe("success");
    expect(ok.status === "success" && [ok.value.phone, ok.value.text_consent]).toEqual(["+4915123456789", true]);
    const none = formWith({});
    expect(none.status === "success" && [none.value.phone, none.value.text_consent]).toEqual([null, false]);
  });

  it("refuses what is not a number or lacks its country code, keeping what was typed (the server refuses a landline)", () => {
    const words = formWith({ phone: "+44 call me" });
    expect(words.reply().error?.phone).toEqual([PHONE_MESSAGES.invalid]);
    expect(words.reply().initialValue?.phone).toBe("+44 call me");
    expect(formWith({ phone: "07400 123456" }).reply().error?.phone).toEqual([PHONE_MESSAGES.international]);
  });

  it("refuses consent without a number, on the form and in JSON", () => {
    expect(formWith({ text_consent: "on" }).reply().error?.text_consent).toEqual([CONSENT_NEEDS_PHONE_MESSAGE]);
    const json = v.safeParse(DebtorJsonSchema, { ...base, debt: 10, phone: null, text_consent: true });
    expect(json.success).toBe(false);
    expect(json.issues?.map((i) => i.message)).toEqual([CONSENT_NEEDS_PHONE_MESSAGE]);
  });

  it("keeps JSON's absent number and consent absent (an edit keeps them), null removes the number", () => {
    const kept = v.parse(DebtorJsonSchema, { ...base, debt: 10 });
    expect([kept.phone, kept.text_consent]).toEqual([undefined, undefined]);
    const cleared = v.parse(DebtorJsonSchema, { ...base, debt: 10, phone: null });
    expect(cleared.phone).toBeNull();
    const given = v.parse(DebtorJsonSchema, { ...base, debt: 10, phone: "+1 416 555 0123", text_consent: true });
    expect([given.phone, given.text_consent]).toEqual(["+14165550123", true]);
    const bad = v.safeParse(DebtorJsonSchema, { ...base, debt: 10, phone: "+33 1" });
    expect(bad.issues?.map((i) => i.message)).toEqual([PHONE_MESSAGES.invalid]);
  });
});
