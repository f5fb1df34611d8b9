import { describe, expect, it } from "vitest";
import { apiJson, decodeTurbo, formAction, type Json, postMultipart, replyErrors } from "./data-helpers";
import { debtorRowsOf, invoicesOf, paymentsOf } from "./fixtures";
import { signIn, uniqueEmail } from "./helpers";

/**
 * Amounts as people type them (docs/decisions/050): every amount field reads the user's number
 * format; an amount that could be read two ways is refused with both readings and nothing is
 * written; the API stays dot-decimal and says so for a comma; the CSV import follows the same rule.
 */

const debtorForm = (email: string, debt: string) => ({
  intent: "debtor-add",
  full_name: "Europa GmbH",
  email,
  debt,
  active_strategy: "1",
});

const setFormat = (cookie: string, number_locale: string) =>
  formAction("/iam/info", { intent: "default-currency", default_currency: "EUR", number_locale }, cookie);

describe("amounts in the user's number format", () => {
  it("a US-format account refuses '99,90' with both readings, keeps what was typed and writes nothing", async () => {
    const { cookie, userId } = await signIn(uniqueEmail("amount-us"));
    const refused = await formAction("/dashboard", debtorForm("ninety@example.com", "99,90"), cookie);
    expect(refused.status).toBe(400);
    expect(replyErrors(refused.data).debt).toEqual([
      '"99,90" could be read as 99.90 or as 9,990.00. Please type the amount with its decimals, as in 1,234.56.',
    ]);
    expect((refused.data as Json).result.initialValue.debt).toBe("99,90");
    expect(await debtorRowsOf(userId)).toEqual([]);
    // "1,234" too: thousands, or three decimals.
    const thousand = await formAction("/dashboard", debtorForm("thousand@example.com", "1,234"), cookie);
    expect(replyErrors(thousand.data).debt?.[0]).toMatch(/could be read as 1,234\.00 or as 1\.234/);
    // Written in the US format, it is saved.
    const saved = await formAction("/dashboard", debtorForm("ok@example.com", "1,234.56"), cookie);
    expect(saved.status, JSON.stringify(saved.data)).toBe(200);
    expect((await debtorRowsOf(userId)).map((d) => d.debt_cents)).toEqual([123456]);
  });

  it("a German-format account types 1.234,56 in every amount field; the US writing is refused with how to type it", async () => {
    const { cookie, userId } = await signIn(uniqueEmail("amount-de"));
    const format = await setFormat(cookie, "de-DE");
    expect(format.status, JSON.stringify(format.data)).toBe(200);

    expect((await formAction("/dashboard", debtorForm("de@example.com", "99,90"), cookie)).status).toBe(200);
    const [debtor] = await debtorRowsOf(userId);
    expect(debtor?.debt_cents).toBe(9990);

    const us = await formAction(
      `/debtors/${debtor!.id}`,
      { intent: "invoice-add", debtor_id: String(debtor!.id), amount: "1,234.56" },
      cookie,
    );
    expect(us.status).toBe(400);
    expect(replyErrors(us.data).amount).toEqual([
      '"1,234.56" is written in another number format than yours (1.234,56). Please type it as 1.234,56, or change your number format in Settings.',
    ]);
    const invoice = await formAction(
      `/debtors/${debtor!.id}`,
      { intent: "invoice-add", debtor_id: String(debtor!.id), amount: "1.234,56" },
      cookie,
    );
    expect(invoice.status, JSON.stringify(invoice.data)).toBe(200);
    expect((await invoicesOf(debtor!.id)).map((i) => i.amount_cents)).toEqual([9990, 123456]);

    // A payment of "600,50": six hundred euros and fifty cents, never 60,050.
    const paid = await formAction(
      `/debtors/${debtor!.id}`,
      { intent: "payment-add", debtor_id: String(debtor!.id), amount: "600,50", paid_on: "2026-11-01" },
      cookie,
    );
    expect(paid.status, JSON.stringify(paid.data)).toBe(200);
    expect((await paymentsOf(debtor!.id)).map((p) => p.amount_cents)).toEqual([60050]);
  });

  it("a format not in the list is refused on its field", async () => {
    const { cookie } = await signIn(uniqueEmail("amount-format"));
    const refused = await setFormat(cookie, "xx-YY");
    expect(refused.status).toBe(400);
    expect(replyErrors(refused.data)).toEqual({ number_locale: ["Please choose a number format from the list"] });
  });

  it("the API takes dot-decimal amounts and refuses a comma with its own message", async () => {
    const { cookie } = await signIn(uniqueEmail("amount-api"));
    const comma = await apiJson("POST", "/debtors/add", {
      cookie,
      json: { full_name: "Api", email: "api@example.com", debt: "99,90" },
    });
    expect(comma.status, JSON.stringify(comma.body)).toBe(400);
    expect(JSON.stringify(comma.body)).toContain(
      'Amounts in the API use a dot for decimals and no thousands separators, as in 1234.56: \\"99,90\\" has a comma.',
    );
    const dot = await apiJson("POST", "/debtors/add", {
      cookie,
      json: { full_name: "Api", email: "api@example.com", debt: "99.90" },
    });
    expect(dot.status, JSON.stringify(dot.body)).toBe(200);
  });

  it("the CSV import reads the user's format and refuses an ambiguous cell, naming both readings", async () => {
    const { cookie } = await signIn(uniqueEmail("amount-csv"));
    await setFormat(cookie, "de-DE");
    const form = new FormData();
    form.set("intent", "import-preview");
    form.set("csv", "name;email;amount\nEins;eins@example.com;1.234,56\nZwei;zwei@example.com;1.234\n");
    const res = await postMultipart("/debtors/import.data", form, cookie);
    const data = (await decodeTurbo(res))?.data as Json;
    const rows = data.preview.rows.map((r: Json) => [r.line, r.status, r.messages]);
    expect(rows[0]).toEqual([2, "ok", []]);
    expect(rows[1]).toEqual([
      3,
      "error",
      ['"1.234" could be read as 1.234,00 or as 1,234. Please type the amount with its decimals, as in 1.234,56.'],
    ]);
  });
});
