import { describe, expect, it } from "vitest";
import { apiJson, decodeTurbo, formAction, type Json, postMultipart, replyErrors } from "./data-helpers";
import { debtorRowsOf, invoicesOf } from "./fixtures";
import { get, pageText, signIn, uniqueEmail } from "./helpers";
import { loaderData } from "./schedule-helpers";

/**
 * The account's currency: set in Settings → Info, it is what a new
 * debtor, their first invoice and a CSV row without a currency are in; a currency the form, the API
 * body or the file names wins, and the debtor added last no longer decides anything.
 */

const DEBTOR = { intent: "debtor-add", full_name: "Dana", debt: "640", active_strategy: "1" };

const setCurrency = (cookie: string, default_currency: string) =>
  formAction("/iam/info", { intent: "default-currency", default_currency }, cookie);

/** The debtor with this address and the currency of their first invoice. */
async function currencyOf(userId: string, email: string) {
  const debtor = (await debtorRowsOf(userId)).find((d) => d.email === email);
  if (!debtor) throw new Error(`no debtor ${email}`);
  const [invoice] = await invoicesOf(debtor.id);
  return { debtor: debtor.currency, invoice: invoice?.currency };
}

async function importCsv(cookie: string, intent: string, csv: string) {
  const form = new FormData();
  form.set("intent", intent);
  form.set("csv", csv);
  const res = await postMultipart("/debtors/import.data", form, cookie);
  return { status: res.status, data: (await decodeTurbo(res))?.data as Json };
}

describe("the account's default currency", () => {
  it("is USD for a new account and is saved from Settings → Info, refusing a currency Dunly does not know", async () => {
    const { cookie } = await signIn(uniqueEmail("cur-settings"));
    const page = await pageText(await get("/iam/info", { cookie }));
    expect(page).toContain("Default currency");
    expect(page).toMatch(/<option value="USD" selected="">USD<\/option>/);

    for (const bad of ["XXX", "", "dollars"]) {
      const refused = await setCurrency(cookie, bad);
      expect(refused.status).toBe(400);
      expect(replyErrors(refused.data)).toEqual({ default_currency: ["Please choose a currency"] });
    }
    const saved = await setCurrency(cookie, "eur");
    expect(saved.status).toBe(200);
    expect(saved.data).toMatchObject({ ok: true, message: "Currency and format saved." });
    expect(await pageText(await get("/iam/info", { cookie }))).toMatch(/<option value="EUR" selected="">EUR<\/option>/);
    // The pages with the Add Debtor form hand it to the form.
    expect((await loaderData("/debtors-list", "routes/debtors-list", cookie)).accountCurrency).toBe("EUR");
    expect((await loaderData("/dashboard", "routes/dashboard", cookie)).accountCurrency).toBe("EUR");
  });

  it("is a new debtor's and their first invoice's currency when none is given; the last debtor's currency is not", async () => {
    const { cookie, userId } = await signIn(uniqueEmail("cur-debtor"));
    await setCurrency(cookie, "EUR");
    // A GBP client added first (the old behaviour took the last debtor's currency).
    await formAction("/dashboard", { ...DEBTOR, email: "gbp@example.com", currency: "GBP" }, cookie);
    await formAction("/dashboard", { ...DEBTOR, email: "form@example.com" }, cookie);
    await formAction("/dashboard", { ...DEBTOR, email: "empty@example.com", currency: "" }, cookie);
    const api = await apiJson("POST", "/debtors/add", {
      cookie,
      json: { full_name: "Api", email: "api@example.com", debt: 640, active_strategy: 1 },
    });
    expect(api.status).toBe(200);
    const apiNull = await apiJson("POST", "/debtors/add", {
      cookie,
      json: { full_name: "Api", email: "api-null@example.com", debt: 640, active_strategy: 1, currency: null },
    });
    expect(apiNull.status).toBe(200);

    expect(await currencyOf(userId, "gbp@example.com")).toEqual({ debtor: "GBP", invoice: "GBP" });
    for (const email of ["form@example.com", "empty@example.com", "api@example.com", "api-null@example.com"]) {
      expect(await currencyOf(userId, email), email).toEqual({ debtor: "EUR", invoice: "EUR" });
    }

    // Changing the setting changes new debtors only.
    await setCurrency(cookie, "CHF");
    await formAction("/dashboard", { ...DEBTOR, email: "later@example.com" }, cookie);
    expect(await currencyOf(userId, "later@example.com")).toEqual({ debtor: "CHF", invoice: "CHF" });
    expect(await currencyOf(userId, "form@example.com")).toEqual({ debtor: "EUR", invoice: "EUR" });

    // An invoice added to a debtor without a currency is still in the debtor's.
    const gbp = (await debtorRowsOf(userId)).find((d) => d.email === "gbp@example.com")!;
    const added = await formAction(
      `/debtors/${gbp.id}`,
      { intent: "invoice-add", debtor_id: String(gbp.id), amount: "5" },
      cookie,
    );
    expect(added.status, JSON.stringify(added.data)).toBe(200);
    expect((await invoicesOf(gbp.id)).map((i) => i.currency)).toEqual(["GBP", "GBP"]);
  });

  it("is a CSV-imported new debtor's currency when their row has none; a row's own currency wins", async () => {
    const { cookie, userId } = await signIn(uniqueEmail("cur-csv"));
    await setCurrency(cookie, "SEK");
    const csv = [
      "name,email,amount,currency,invoice number",
      "Gbp Client,gbp@example.com,10,GBP,G-1",
      "No Currency,none@example.com,20,,N-1",
      "No Currency,none@example.com,30,,N-2",
    ].join("\n");
    const preview = await importCsv(cookie, "import-preview", csv);
    expect(preview.status, JSON.stringify(preview.data)).toBe(200);
    const confirmed = await importCsv(cookie, "import-confirm", csv);
    expect(confirmed.status, JSON.stringify(confirmed.data)).toBe(200);
    expect(await currencyOf(userId, "gbp@example.com")).toEqual({ debtor: "GBP", invoice: "GBP" });
    const none = (await debtorRowsOf(userId)).find((d) => d.email === "none@example.com")!;
    expect(none.currency).toBe("SEK");
    expect((await invoicesOf(none.id)).map((i) => i.currency)).toEqual(["SEK", "SEK"]);
  });
});
