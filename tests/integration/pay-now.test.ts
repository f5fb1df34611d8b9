import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { verifyPaidClaimToken } from "~/links/debtor-pages.server";
import { verifyOptOutToken } from "~/links/signed-links.server";
import { readConfig } from "~/platform/config.server";
import { apiJson, formAction, replyErrors } from "./data-helpers";
import { fireAt, MINUTE } from "./engine-helpers";
import { db, debtorRow, debtorRowsOf, makeDebtor, makeOrg, makeSchedule, makeUser, orgRowsOf } from "./fixtures";
import { get, outboxFor, pageText, postForm, signIn, uniqueEmail } from "./helpers";
import { setInvoices } from "./invoice-helpers";
import { loaderData } from "./schedule-helpers";

/**
 * Pay now: the account's and the organizations' payment links, the debtor's
 * invoice number and currency, and the reminder that carries them with the "I've paid" link.
 */

const PAY_MESSAGE = "Please enter an https:// link to your payment page";
const config = () => readConfig(env);

async function paymentUrlOf(userId: string) {
  const row = await env.DB.prepare("SELECT payment_url FROM users WHERE id = ?")
    .bind(userId)
    .first<{ payment_url: string | null }>();
  return row?.payment_url ?? null;
}

async function setUserPaymentUrl(userId: string, url: string | null) {
  await env.DB.prepare("UPDATE users SET payment_url = ? WHERE id = ?").bind(url, userId).run();
}

describe("the account's payment link (Settings → Info)", () => {
  it("saves an https link, shows it on the page, and clears it when saved empty", async () => {
    const { cookie, userId } = await signIn(uniqueEmail("pay-link"));
    const page = await pageText(await get("/iam/info", { cookie }));
    expect(page).toContain("Payment link");
    const url = "https://www.paypal.com/paypalme/sallysender";
    const saved = await formAction("/iam/info", { intent: "payment-link", payment_url: `  ${url} ` }, cookie);
    expect(saved.status).toBe(200);
    expect(saved.data).toMatchObject({ intent: "payment-link", ok: true, message: "Payment link saved." });
    expect(await paymentUrlOf(userId)).toBe(url);
    expect(await pageText(await get("/iam/info", { cookie }))).toContain(`value="${url}"`);

    const cleared = await formAction("/iam/info", { intent: "payment-link", payment_url: "" }, cookie);
    expect(cleared.data).toMatchObject({ ok: true, message: "Payment link removed." });
    expect(await paymentUrlOf(userId)).toBeNull();
  });

  for (const [name, value] of [
    ["http", "http://pay.example.com/sally"],
    ["no scheme", "pay.example.com/sally"],
    ["javascript", "javascript:alert(1)"],
    ["spaces", "https://pay.example.com/a b"],
    ["credentials", "https://user:pw@pay.example.com/"],
    ["too long", `https://pay.example.com/${"a".repeat(480)}`],
  ] as const) {
    it(`refuses ${name} with 400, the message and what was typed, and keeps the saved link`, async () => {
      const { cookie, userId } = await signIn(uniqueEmail("pay-bad"));
      await setUserPaymentUrl(userId, "https://pay.example.com/kept");
      const { status, data } = await formAction("/iam/info", { intent: "payment-link", payment_url: value }, cookie);
      expect(status).toBe(400);
      expect(replyErrors(data)).toEqual({ payment_url: [PAY_MESSAGE] });
      expect(data.result.initialValue.payment_url).toBe(value);
      // Without JavaScript: the page, with the message and the value typed.
      const doc = await postForm("/iam/info", { intent: "payment-link", payment_url: value }, { cookie });
      expect(doc.status).toBe(400);
      const text = await pageText(doc);
      expect(text).toContain(PAY_MESSAGE);
      expect(text).toContain(value.slice(0, 60));
      expect(await paymentUrlOf(userId)).toBe("https://pay.example.com/kept");
    });
  }
});

describe("an organization's payment link", () => {
  it("is optional in the form and the API, listed as payment_url, and refused unless https", async () => {
    const { cookie, userId } = await signIn(uniqueEmail("org-pay"));
    const added = await formAction(
      "/iam/orgs",
      { intent: "org-add", name: "Acme Ltd", address: "1 Main St", payment_url: "https://pay.example.com/acme" },
      cookie,
    );
    expect(added.data).toMatchObject({ ok: true, message: "Organization added" });
    const plain = await formAction("/iam/orgs", { intent: "org-add", name: "Plain Ltd", address: "2 Main St" }, cookie);
    expect(plain.data).toMatchObject({ ok: true });
    expect((await orgRowsOf(userId)).map((o) => o.payment_url)).toEqual(["https://pay.example.com/acme", null]);
    expect(await pageText(await get("/iam/orgs", { cookie }))).toContain("https://pay.example.com/acme");

    const bad = await formAction(
      "/iam/orgs",
      { intent: "org-add", name: "Bad Ltd", address: "3 Main St", payment_url: "http://pay.example.com/" },
      cookie,
    );
    expect(bad.status).toBe(400);
    expect(replyErrors(bad.data)).toEqual({ payment_url: [PAY_MESSAGE] });
    expect(bad.data.result.initialValue).toMatchObject({ name: "Bad Ltd", payment_url: "http://pay.example.com/" });

    const [acme] = await orgRowsOf(userId);
    const edited = await formAction(
      "/iam/orgs",
      { intent: "org-edit", id: String(acme!.id), name: "Acme Ltd", address: "1 Main St", payment_url: "" },
      cookie,
    );
    expect(edited.data).toMatchObject({ ok: true });
    expect((await orgRowsOf(userId))[0]!.payment_url).toBeNull();

    const api = await apiJson("POST", "/org/add", {
      cookie,
      json: { name: "Api Ltd", address: "4 Main St", payment_url: "https://pay.example.com/api" },
    });
    expect(api.status).toBe(200);
    expect(api.body.data).toMatchObject({ name: "Api Ltd", payment_url: "https://pay.example.com/api" });
    const listed = await apiJson("GET", "/org", { cookie });
    expect(listed.body.map((o: { payment_url: string | null }) => o.payment_url)).toEqual([
      null,
      null,
      "https://pay.example.com/api",
    ]);
    const refused = await apiJson("POST", "/org/add", {
      cookie,
      json: { name: "X", address: "Y", payment_url: "ftp://pay.example.com/" },
    });
    expect(refused.status).toBe(400);
  });
});

describe("a debtor's invoice number and currency", () => {
  /** The 'Add Debtor' form's fields without an invoice number or currency. */
  const base = {
    intent: "debtor-add",
    full_name: "Dana",
    email: "dana@example.com",
    debt: "100",
    active_strategy: "1",
  };

  /** The number of the debtor's one invoice (the debtor form's invoice number and currency are its). */
  const invoiceNumberOf = async (debtorId: number) =>
    (
      await env.DB.prepare("SELECT number FROM invoices WHERE debtor_id = ?")
        .bind(debtorId)
        .first<{ number: string | null }>()
    )?.number;

  it("the form stores them; without a currency a new debtor gets the account's default (USD unless set), never the last debtor's", async () => {
    const { cookie, userId } = await signIn(uniqueEmail("inv"));
    // Three debtors at three addresses (an address the account has would be offered as a twin).
    expect((await formAction("/dashboard", base, cookie)).data).toMatchObject({ ok: true, message: "Debtor added" });
    expect(
      (
        await formAction(
          "/dashboard",
          { ...base, email: "dana2@example.com", currency: "EUR", invoice_number: " RE-2026/7 " },
          cookie,
        )
      ).data,
    ).toMatchObject({ ok: true });
    expect(
      (await formAction("/dashboard", { ...base, email: "dana3@example.com", currency: "" }, cookie)).data,
    ).toMatchObject({ ok: true });
    const rows = await debtorRowsOf(userId);
    expect(await Promise.all(rows.map(async (r) => [r.currency, await invoiceNumberOf(r.id)]))).toEqual([
      ["USD", null],
      ["EUR", "RE-2026/7"],
      ["USD", null],
    ]);

    // An edit without a currency keeps the debtor's; an empty invoice number clears it.
    const second = rows[1]!;
    const edit = await formAction(
      "/dashboard",
      { ...base, intent: "debtor-edit", id: String(second.id), invoice_number: "" },
      cookie,
    );
    expect(edit.data).toMatchObject({ ok: true, message: "Debtor updated" });
    expect(await debtorRow(second.id)).toMatchObject({ currency: "EUR" });
    expect(await invoiceNumberOf(second.id)).toBeNull();
    await formAction(
      "/dashboard",
      { ...base, intent: "debtor-edit", id: String(second.id), currency: "GBP", invoice_number: "A-1" },
      cookie,
    );
    expect(await debtorRow(second.id)).toMatchObject({ currency: "GBP" });
    expect(await invoiceNumberOf(second.id)).toBe("A-1");

    // The dashboard's list has them (the modal's details).
    const data = await loaderData(`/dashboard?debtor=${second.id}`, "routes/dashboard", cookie);
    expect(data.debtors.find((d: { id: number }) => d.id === second.id)).toMatchObject({
      currency: "GBP",
      invoiceNumber: "A-1",
    });
  });

  it("refuses an unknown currency and a long or multi-line invoice number with 400, keeping what was typed", async () => {
    const { cookie, userId } = await signIn(uniqueEmail("inv-bad"));
    for (const [fields, errors] of [
      [{ currency: "XXX" }, { currency: ["Please choose a currency"] }],
      [{ currency: "US" }, { currency: ["Please choose a currency"] }],
      [{ invoice_number: "x".repeat(65) }, { invoice_number: ["Please use at most 64 characters"] }],
      [{ invoice_number: "INV\n7" }, { invoice_number: ["Please enter the invoice number on one line"] }],
    ] as const) {
      const { status, data } = await formAction("/dashboard", { ...base, ...fields }, cookie);
      expect(status, JSON.stringify(fields)).toBe(400);
      expect(replyErrors(data)).toEqual(errors);
      expect(data.result.initialValue).toMatchObject({ full_name: "Dana", ...fields });
    }
    expect(await debtorRowsOf(userId)).toEqual([]);
  });

  it("the API takes and answers invoice_number and currency", async () => {
    const { cookie } = await signIn(uniqueEmail("inv-api"));
    const { status, body } = await apiJson("POST", "/debtors/add", {
      cookie,
      json: { full_name: "Dana", email: "dana@example.com", debt: 50, invoice_number: "INV-9", currency: "chf" },
    });
    expect(status).toBe(200);
    expect(body.data).toMatchObject({ invoice_number: "INV-9", currency: "CHF" });
    const got = await apiJson("GET", `/debtors/${body.data.id}`, { cookie });
    expect(got.body).toMatchObject({ invoice_number: "INV-9", currency: "CHF" });
    const next = await apiJson("POST", "/debtors/add", {
      cookie,
      json: { full_name: "Dan", email: "dan@example.com", debt: 5, invoice_number: null, currency: null },
    });
    // null: the account's default currency (USD unless set in Settings), not the CHF debtor's added before.
    expect(next.body.data).toMatchObject({ invoice_number: null, currency: "USD" });
    const bad = await apiJson("POST", "/debtors/add", {
      cookie,
      json: { full_name: "Dan", email: "dan@example.com", debt: 5, currency: "DOGE" },
    });
    expect(bad.status).toBe(400);
  });
});

describe("the reminder", () => {
  const due = () => Math.floor((Date.now() - MINUTE) / 1000) * 1000;

  async function sendOne(o: { userUrl: string | null; org?: { url: string | null } }) {
    const user = await makeUser("Sally Sender");
    await setUserPaymentUrl(user.id, o.userUrl);
    const debtor = await makeDebtor(user.id, { currency: "EUR", debtCents: 98765 });
    // Its one open invoice, numbered.
    await setInvoices(debtor, [{ number: "RE-2026/42", amountCents: 98765, dueOn: "2031-03-05" }]);
    let organizationId: number | undefined;
    if (o.org) {
      organizationId = await makeOrg(user.id, "Acme Ltd", "1 Main St");
      await env.DB.prepare("UPDATE organizations SET payment_url = ? WHERE id = ?")
        .bind(o.org.url, organizationId)
        .run();
    }
    const id = await makeSchedule(user.id, debtor.id, { organizationId });
    await fireAt(id, due());
    const [mail] = await outboxFor(debtor.email);
    expect(mail, "a reminder was sent").toBeDefined();
    return { user, debtor, mail: mail! };
  }

  /** The href of the link (or button) whose text is `label`. */
  function hrefOf(html: string, label: string) {
    const re = new RegExp(`<a [^>]*href="([^"]+)"[^>]*>(?:(?!</a>)[\\s\\S])*${label}(?:(?!</a>)[\\s\\S])*</a>`);
    return re.exec(html)?.[1]?.replaceAll("&amp;", "&") ?? null;
  }

  it("sent as the person: 'Pay now' to the user's page, the invoice number, the amount in the debtor's currency and the \"I've paid\" link", async () => {
    const userUrl = "https://pay.example.com/sally?ref=1&x=2";
    const { user, debtor, mail } = await sendOne({ userUrl });
    expect(hrefOf(mail.html, "Pay now")).toBe(userUrl);
    expect(mail.text).toContain(`Pay now <${userUrl}>`);
    expect(mail.subject).toContain("RE-2026/42");
    expect(mail.subject).toContain("€987.65");
    expect(mail.text).toMatch(/RE-2026\/42 +Mar 5, 2031 +€987\.65 +due in \d+ days/);
    expect(mail.text).toMatch(/Total due +€987\.65/);

    const paid = hrefOf(mail.html, "I&#x27;ve paid");
    expect(paid).toMatch(/^http:\/\/localhost:5173\/p\/[0-9a-f]{32}\.[A-Za-z0-9_-]{43}$/);
    expect(mail.text).toContain(`I've paid <${paid}>`);
    const token = new URL(paid!).pathname.slice(3);
    expect(await verifyPaidClaimToken(db(), config(), token)).toMatchObject({ debtorId: debtor.id, ownerId: user.id });
    // Not an opt-out token, and the opt-out link is not a paid one.
    expect(await verifyOptOutToken(db(), config(), token)).toBeNull();
    const optOut = hrefOf(mail.html, "Stop them here");
    const optOutToken = new URL(optOut!).pathname.slice(3);
    expect(optOutToken.split(".")[0]).toBe(token.split(".")[0]);
    expect(await verifyPaidClaimToken(db(), config(), optOutToken)).toBeNull();
    // The link opens the page that asks.
    const page = await get(new URL(paid!).pathname);
    expect(page.status).toBe(200);
    expect(await pageText(page)).toContain("Tell Sally Sender you have paid");
  });

  it("sent as an organization with its own link: 'Pay now' to the organization's page", async () => {
    const { mail } = await sendOne({
      userUrl: "https://pay.example.com/sally",
      org: { url: "https://pay.example.com/acme" },
    });
    expect(hrefOf(mail.html, "Pay now")).toBe("https://pay.example.com/acme");
    expect(mail.text).toContain("Pay now <https://pay.example.com/acme>");
    expect(mail.text).not.toContain("pay.example.com/sally");
  });

  it("sent as an organization without a link: the user's page", async () => {
    const { mail } = await sendOne({ userUrl: "https://pay.example.com/sally", org: { url: null } });
    expect(hrefOf(mail.html, "Pay now")).toBe("https://pay.example.com/sally");
  });

  it("without any payment link: no 'Pay now', but the \"I've paid\" link", async () => {
    const { mail } = await sendOne({ userUrl: null });
    expect(mail.html).not.toContain("Pay now");
    expect(mail.text).not.toContain("Pay now");
    expect(hrefOf(mail.html, "I&#x27;ve paid")).toMatch(/\/p\//);
  });
});
