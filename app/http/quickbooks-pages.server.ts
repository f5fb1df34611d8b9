import { type Context, Hono } from "hono";
import {
  addQboPayment,
  changeQboDueDate,
  connectionOf,
  getQboObject,
  listQboObjects,
  putQboObject,
  type QboAccount,
  QUICKBOOKS_STANDIN_VERIFIER,
  type StoredQboInvoice,
  type StoredQboPayment,
  seedCompany,
  voidQboInvoice,
} from "~/accounting/index.server";
import { getDb } from "~/db/client.server";
import type { AppBindings } from "~/http/hono-env";
import { appOrigin } from "~/platform/config.server";
import { intuitSignature, quickBooksWebhook } from "./quickbooks-webhook.server";
import { escapeHtml, standInPage } from "./standin-page";

/**
 * The local QuickBooks Online stand-in's pages (decisions/061), under /dev/quickbooks (development
 * and test only, like /dev/xero): Intuit's consent page with one "Connect" button (it makes a new
 * company, seeded with customers and open invoices, and answers the app's callback with a code and
 * the company's realmId), and the company's invoices with what a bookkeeper does in QuickBooks:
 * receive a payment, void an invoice, change its due date; below, the payments (those received
 * here and those Dunly wrote, decisions/063) and the chart of accounts' bank accounts, each of which
 * can be made inactive (QuickBooks then refuses a payment into it) or active again. Each change to
 * an invoice fires QuickBooks' webhook, signed with the stand-in's verifier, at Dunly's own
 * /webhooks/quickbooks route: the app learns of it exactly as from Intuit, and reads the change
 * through its QuickBooks client.
 */
export const quickBooksPages = new Hono<AppBindings>();

const STANDIN_CLIENT_ID = "dunly-local-quickbooks-standin";
const CODE_TTL = 10 * 60_000;

function render(title: string, body: string): string {
  return standInPage({
    title,
    banner:
      "This page stands in for QuickBooks Online in local development and tests. Nothing here touches real books.",
    accent: { background: "#1d6b12", border: "#2ca01c" },
    width: "52rem",
    css: `table{border-collapse:collapse;width:100%}th,td{text-align:left;padding:.35rem .5rem;border-bottom:1px solid #ddd;vertical-align:top}
form{display:inline-flex;gap:.25rem;align-items:center;margin:.15rem 0;flex-wrap:wrap}input{font:inherit;width:8rem;padding:.3rem}
button{padding:.4rem .8rem}.wrap{overflow-x:auto}`,
    body,
  });
}

/** The consent request must be the stand-in's client, asking the accounting scope, coming back to this app's own callback. */
function consentRequest(c: Context<AppBindings>, params: URLSearchParams) {
  const callback = `${appOrigin(c.get("config"), c.req.url)}/iam/accounting/quickbooks/callback`;
  const ok =
    params.get("client_id") === STANDIN_CLIENT_ID &&
    params.get("redirect_uri") === callback &&
    params.get("response_type") === "code" &&
    (params.get("scope") ?? "").split(" ").includes("com.intuit.quickbooks.accounting") &&
    Boolean(params.get("state"));
  return ok ? { callback, state: params.get("state") ?? "" } : null;
}

quickBooksPages.get("/authorize", (c) => {
  const params = new URL(c.req.url).searchParams;
  if (!consentRequest(c, params)) {
    return c.html(render("QuickBooks (local stand-in)", "<p>This consent request is not valid.</p>"), 400);
  }
  const hidden = ["client_id", "redirect_uri", "response_type", "scope", "state"]
    .map((k) => `<input type="hidden" name="${k}" value="${escapeHtml(params.get(k))}">`)
    .join("");
  return c.html(
    render(
      "QuickBooks: connect Dunly (local stand-in)",
      `<p>Dunly asks to read your company's customers, invoices and payments.</p>
<p>Connecting makes a new sandbox company with three customers and their open invoices.</p>
<form method="post" action="/dev/quickbooks/authorize">${hidden}<button type="submit" name="decision" value="allow">Connect</button>
<button class="secondary" type="submit" name="decision" value="deny">Cancel</button></form>`,
    ),
  );
});

quickBooksPages.post("/authorize", async (c) => {
  const form = new URLSearchParams();
  for (const [k, v] of await c.req.formData()) if (typeof v === "string") form.set(k, v);
  const request = consentRequest(c, form);
  if (!request) return c.text("Not a valid consent request", 400);
  const back = new URL(request.callback);
  back.searchParams.set("state", request.state);
  if (form.get("decision") !== "allow") {
    back.searchParams.set("error", "access_denied");
    return c.redirect(back.href, 303);
  }
  const realmId = await seedCompany(c.env);
  const code = crypto.randomUUID();
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(code));
  const key = [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
  await putQboObject(c.env, "code", null, key, {
    realmId,
    redirectUri: request.callback,
    expiresAt: Date.now() + CODE_TTL,
  });
  back.searchParams.set("code", code);
  back.searchParams.set("realmId", realmId);
  return c.redirect(back.href, 303);
});

/** The signed-in user's connected company, or null. */
async function realmShown(c: Context<AppBindings>) {
  const user = c.get("user");
  if (!user) return null;
  const connection = await connectionOf(getDb(c.env.DB), user.id);
  return connection?.provider === "quickbooks" ? connection.tenantId : null;
}

const money = (n: number | undefined) => (n ?? 0).toFixed(2);

quickBooksPages.get("/", async (c) => {
  const realmId = await realmShown(c);
  if (!realmId) {
    return c.html(
      render(
        "QuickBooks (local stand-in)",
        "<p>Sign in and connect QuickBooks from Settings → Accounting: its invoices show here.</p>",
      ),
    );
  }
  const company = await getQboObject<{ CompanyName: string }>(c.env, "company", realmId, realmId);
  const invoices = (await listQboObjects<StoredQboInvoice>(c.env, realmId, "invoice"))
    .filter((i) => i.status !== "Deleted")
    .sort((a, b) => String(a.DocNumber).localeCompare(String(b.DocNumber), "en", { numeric: true }));
  const rows = invoices
    .map((i) => {
      const no = escapeHtml(i.DocNumber);
      const id = `<input type="hidden" name="invoice" value="${escapeHtml(i.Id)}">`;
      const voided = /voided/i.test(i.PrivateNote ?? "");
      const actions =
        (i.Balance ?? 0) > 0
          ? `<form method="post" action="/dev/quickbooks/pay">${id}
<label>Amount <input name="amount" inputmode="decimal" value="${escapeHtml(money(i.Balance))}" aria-label="Payment amount for ${no}"></label>
<button type="submit">Add payment to ${no}</button></form>
${(i.Balance ?? 0) === (i.TotalAmt ?? 0) ? `<form method="post" action="/dev/quickbooks/void">${id}<button class="secondary" type="submit">Void ${no}</button></form>` : ""}
<form method="post" action="/dev/quickbooks/due">${id}<label>Due <input name="due" type="date" value="${escapeHtml(i.DueDate)}" aria-label="New due date for ${no}"></label>
<button class="secondary" type="submit">Change due date of ${no}</button></form>`
          : "";
      const state = voided ? "Voided" : (i.Balance ?? 0) > 0 ? "Open" : "Paid";
      return `<tr id="invoice-${escapeHtml(encodeURIComponent(i.Id))}" data-invoice="${no}"><td>${no}</td><td>${escapeHtml(i.CustomerRef?.name)}</td><td>${state}</td><td>${escapeHtml(i.DueDate)}</td><td>${escapeHtml(`${money(i.Balance)} of ${money(i.TotalAmt)} ${i.CurrencyRef?.value ?? ""}`)}</td><td>${actions}</td></tr>`;
    })
    .join("\n");
  // The payments, newest first: those a bookkeeper received here and those Dunly wrote (decisions/063).
  const accounts = await listQboObjects<QboAccount>(c.env, realmId, "account");
  const accountName = (id: string | undefined) => {
    const a = accounts.find((x) => x.Id === id);
    return a ? (a.AcctNum ? `${a.Name} (${a.AcctNum})` : a.Name) : "Undeposited Funds";
  };
  const numbers = new Map(invoices.map((i) => [i.Id, i.DocNumber]));
  const payments = (await listQboObjects<StoredQboPayment>(c.env, realmId, "payment")).reverse();
  const paymentRows = payments
    .map((p) => {
      const linked = (p.Line ?? []).flatMap((l) => l.LinkedTxn ?? []).map((t) => numbers.get(t.TxnId ?? "") ?? t.TxnId);
      return `<tr data-payment="${escapeHtml(p.Id)}"><td>${escapeHtml(linked.join(", "))}</td><td>${escapeHtml(money(p.TotalAmt))}</td><td>${escapeHtml(p.TxnDate)}</td><td>${escapeHtml(p.DepositToAccountRef?.value ? accountName(p.DepositToAccountRef.value) : "Undeposited Funds")}</td><td>${escapeHtml(p.PrivateNote ?? "")}</td><td><code>${escapeHtml(p.Id)}</code></td></tr>`;
    })
    .join("\n");
  const accountRows = accounts
    .filter((a) => a.AccountType === "Bank")
    .map(
      (a) =>
        `<tr data-account="${escapeHtml(a.Id)}"><td>${escapeHtml(a.AcctNum ?? "")}</td><td>${escapeHtml(a.Name)}</td><td>${escapeHtml(a.Active ? "Active" : "Inactive")}</td><td><form method="post" action="/dev/quickbooks/account"><input type="hidden" name="account" value="${escapeHtml(a.Id)}"><input type="hidden" name="active" value="${a.Active ? "false" : "true"}"><button class="secondary" type="submit">${escapeHtml(`${a.Active ? "Make inactive" : "Make active"}: ${a.Name}`)}</button></form></td></tr>`,
    )
    .join("\n");
  return c.html(
    render(
      `QuickBooks: ${company?.data.CompanyName ?? "company"}`,
      `<div class="wrap"><table><caption>Invoices</caption><thead><tr><th scope="col">No.</th><th scope="col">Customer</th><th scope="col">Status</th><th scope="col">Due date</th><th scope="col">Balance</th><th scope="col">Do as in QuickBooks</th></tr></thead>
<tbody>${rows}</tbody></table></div>
<h2>Payments</h2>
${
  payments.length === 0
    ? "<p>No payments yet.</p>"
    : `<div class="wrap"><table data-testid="quickbooks-payments"><caption>Payments, newest first</caption><thead><tr><th scope="col">Invoice</th><th scope="col">Amount</th><th scope="col">Date</th><th scope="col">Deposited to</th><th scope="col">Memo</th><th scope="col">Payment id</th></tr></thead>
<tbody>${paymentRows}</tbody></table></div>`
}
<h2>Bank accounts</h2>
<div class="wrap"><table><caption>Bank accounts (only active ones take payments)</caption><thead><tr><th scope="col">Number</th><th scope="col">Name</th><th scope="col">Status</th><th scope="col">Do as in QuickBooks</th></tr></thead>
<tbody>${accountRows}</tbody></table></div>
<p><a href="/iam/accounting">Back to Dunly's Settings → Accounting</a></p>`,
    ),
  );
});

/** The invoice named by the form, when it is in the signed-in user's company. */
async function formInvoice(c: Context<AppBindings>) {
  const realmId = await realmShown(c);
  const form = await c.req.formData();
  const id = String(form.get("invoice") ?? "");
  const found = realmId ? await getQboObject<StoredQboInvoice>(c.env, "invoice", realmId, id) : undefined;
  return found && realmId ? { realmId, id, form } : null;
}

/**
 * QuickBooks' webhook for a change, signed with the stand-in's verifier and handed to Dunly's own
 * /webhooks/quickbooks route (the same code as for Intuit's), in this request's execution context.
 */
async function notify(
  c: Context<AppBindings>,
  realmId: string,
  changed: { name: string; id: string; operation: string }[],
) {
  // Intuit's CloudEvents: one event per change, the company in intuitaccountid.
  const time = new Date().toISOString();
  const body = JSON.stringify(
    changed.map((e) => ({
      specversion: "1.0",
      id: crypto.randomUUID(),
      source: "intuit.dunly-local-standin",
      type: `qbo.${e.name.toLowerCase()}.${e.operation}.v1`,
      datacontenttype: "application/json",
      time,
      intuitentityid: e.id,
      intuitaccountid: realmId,
      data: {},
    })),
  );
  const response = await quickBooksWebhook.request(
    "/",
    {
      method: "POST",
      headers: {
        "Content-Type": "application/json",
        "intuit-signature": await intuitSignature(body, QUICKBOOKS_STANDIN_VERIFIER),
      },
      body,
    },
    c.env,
    c.executionCtx,
  );
  await response.body?.cancel();
}

quickBooksPages.post("/pay", async (c) => {
  const found = await formInvoice(c);
  if (!found) return c.text("Not found", 404);
  const amount = Number(String(found.form.get("amount") ?? "").replace(",", "."));
  if (!(amount > 0)) {
    return c.html(
      render("QuickBooks (local stand-in)", '<p>Enter an amount above 0. <a href="/dev/quickbooks">Back</a></p>'),
      400,
    );
  }
  const payment = await addQboPayment(c.env, found.realmId, found.id, Math.round(amount * 100) / 100);
  if (payment) {
    await notify(c, found.realmId, [
      { name: "Payment", id: payment.Id, operation: "created" },
      { name: "Invoice", id: found.id, operation: "updated" },
    ]);
  }
  return c.redirect("/dev/quickbooks", 303);
});

quickBooksPages.post("/void", async (c) => {
  const found = await formInvoice(c);
  if (!found) return c.text("Not found", 404);
  if (await voidQboInvoice(c.env, found.realmId, found.id)) {
    await notify(c, found.realmId, [{ name: "Invoice", id: found.id, operation: "voided" }]);
  }
  return c.redirect("/dev/quickbooks", 303);
});

/** A bank account made inactive (QuickBooks then refuses deposits into it) or active again. */
quickBooksPages.post("/account", async (c) => {
  const realmId = await realmShown(c);
  const form = await c.req.formData();
  const id = String(form.get("account") ?? "");
  const found = realmId ? await getQboObject<QboAccount>(c.env, "account", realmId, id) : undefined;
  if (!realmId || !found || found.data.AccountType !== "Bank") return c.text("Not found", 404);
  await putQboObject(c.env, "account", realmId, id, {
    ...found.data,
    Active: form.get("active") === "true",
    SyncToken: String(Number(found.data.SyncToken) + 1),
  });
  return c.redirect("/dev/quickbooks", 303);
});

quickBooksPages.post("/due", async (c) => {
  const found = await formInvoice(c);
  if (!found) return c.text("Not found", 404);
  const due = String(found.form.get("due") ?? "");
  if (!(await changeQboDueDate(c.env, found.realmId, found.id, due))) {
    return c.html(
      render("QuickBooks (local stand-in)", '<p>Enter a date. <a href="/dev/quickbooks">Back</a></p>'),
      400,
    );
  }
  await notify(c, found.realmId, [{ name: "Invoice", id: found.id, operation: "updated" }]);
  return c.redirect("/dev/quickbooks", 303);
});
