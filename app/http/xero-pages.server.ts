import { Hono } from "hono";
import {
  addStandInPayment,
  changeStandInInvoice,
  connectionOf,
  getStandInObject,
  listStandInObjects,
  putStandInObject,
  type StandInPayment,
  seedTenant,
  sha256,
  voidStandInInvoice,
  type XeroAccount,
  type XeroInvoice,
} from "~/accounting/index.server";
import { getDb } from "~/db/client.server";
import type { AppBindings } from "~/http/hono-env";
import { appOrigin } from "~/platform/config.server";
import { escapeHtml, standInPage } from "./standin-page";
import { deliverStandInXeroEvent } from "./xero-webhooks.server";

/**
 * The local Xero stand-in's pages (decisions/060), under /dev/xero (development and test only, like
 * /dev/checkout): Xero's consent page with one "Allow" button (it makes a new organisation, seeded
 * with customers and open invoices, and answers the app's callback with a code), and the
 * organisation's invoices with what a bookkeeper does in Xero: record or delete a payment, change
 * the due date or the amount, void an invoice. Each change is followed by Xero's webhook, signed
 * with the stand-in's key and handed to the webhook's own code (decisions/062), which syncs the
 * account after answering; the app sees the change only through its Xero client.
 */
export const xeroPages = new Hono<AppBindings>();

const STANDIN_CLIENT_ID = "dunly-local-xero-standin";
const CODE_TTL = 10 * 60_000;

function render(title: string, body: string): string {
  return standInPage({
    title,
    banner: "This page stands in for Xero in local development and tests. Nothing here touches real books.",
    accent: { background: "#0b6e8f", border: "#13b5ea" },
    // Wide enough for the invoices' actions beside them on a desktop; a phone scrolls the table.
    width: "72rem",
    css: `table{border-collapse:collapse;width:100%}th,td{text-align:left;padding:.35rem .5rem;border-bottom:1px solid #ddd;vertical-align:top}
form{display:inline-flex;gap:.25rem;align-items:center;margin:.15rem 0}input{font:inherit;width:6rem;padding:.3rem}input[type=date]{width:auto}
button{padding:.4rem .8rem}.wrap{overflow-x:auto}`,
    body,
  });
}

/** The consent request must be the stand-in's client, coming back to this app's own callback. */
function consentRequest(c: import("hono").Context<AppBindings>, params: URLSearchParams) {
  const callback = `${appOrigin(c.get("config"), c.req.url)}/iam/accounting/xero/callback`;
  const ok =
    params.get("client_id") === STANDIN_CLIENT_ID &&
    params.get("redirect_uri") === callback &&
    params.get("response_type") === "code" &&
    params.get("code_challenge_method") === "S256" &&
    Boolean(params.get("code_challenge")) &&
    Boolean(params.get("state"));
  return ok
    ? {
        callback,
        state: params.get("state") ?? "",
        challenge: params.get("code_challenge") ?? "",
        scope: params.get("scope") ?? "",
      }
    : null;
}

xeroPages.get("/authorize", (c) => {
  const params = new URL(c.req.url).searchParams;
  if (!consentRequest(c, params))
    return c.html(render("Xero (local stand-in)", "<p>This consent request is not valid.</p>"), 400);
  const hidden = [
    "client_id",
    "redirect_uri",
    "response_type",
    "code_challenge",
    "code_challenge_method",
    "state",
    "scope",
  ]
    .map((k) => `<input type="hidden" name="${k}" value="${escapeHtml(params.get(k))}">`)
    .join("");
  return c.html(
    render(
      "Xero: allow access (local stand-in)",
      `<p>Dunly asks to read your contacts, invoices and bank accounts, and to see and record payments, offline.</p>
<p>Allowing connects a new demo organisation with three customers and their open invoices.</p>
<form method="post" action="/dev/xero/authorize">${hidden}<button type="submit" name="decision" value="allow">Allow access</button>
<button class="secondary" type="submit" name="decision" value="deny">Cancel</button></form>`,
    ),
  );
});

xeroPages.post("/authorize", async (c) => {
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
  const tenantId = await seedTenant(c.env);
  const code = crypto.randomUUID();
  await putStandInObject(c.env, "code", await sha256(code), tenantId, {
    tenantId,
    challenge: request.challenge,
    redirectUri: request.callback,
    // What the grant may do: the stand-in refuses what the scopes asked for do not cover, as Xero does.
    scope: request.scope,
    expiresAt: Date.now() + CODE_TTL,
  });
  back.searchParams.set("code", code);
  return c.redirect(back.href, 303);
});

type Stored = XeroInvoice & { _tenant?: string };

/** The signed-in user's connected organisation, or the newest one when they have none. */
async function tenantShown(c: import("hono").Context<AppBindings>) {
  const user = c.get("user");
  if (!user) return null;
  const connection = await connectionOf(getDb(c.env.DB), user.id);
  return connection?.tenantId ?? null;
}

xeroPages.get("/", async (c) => {
  const tenantId = await tenantShown(c);
  if (!tenantId) {
    return c.html(
      render(
        "Xero (local stand-in)",
        "<p>Sign in and connect Xero from Settings → Accounting: its invoices show here.</p>",
      ),
    );
  }
  const tenant = await getStandInObject<{ tenantName: string }>(c.env, "tenant", tenantId);
  const invoices = (await listStandInObjects<Stored>(c.env, tenantId, "invoice")).sort((a, b) =>
    String(a.InvoiceNumber).localeCompare(String(b.InvoiceNumber)),
  );
  const rows = invoices
    .map((i) => {
      const n = escapeHtml(i.InvoiceNumber);
      const id = `<input type="hidden" name="invoice" value="${escapeHtml(i.InvoiceID)}">`;
      const open = i.Status === "AUTHORISED";
      const actions = [
        open
          ? `<form method="post" action="/dev/xero/pay">${id}
<label>Amount <input name="amount" inputmode="decimal" value="${escapeHtml(i.AmountDue.toFixed(2))}" aria-label="Payment amount for ${n}"></label>
<button type="submit">Add payment to ${n}</button></form>`
          : "",
        open
          ? `<form method="post" action="/dev/xero/change">${id}
<label>Due <input name="due" type="date" value="${escapeHtml(String(i.DueDateString ?? "").slice(0, 10))}" aria-label="Due date of ${n}"></label>
<button class="secondary" type="submit">Change due date of ${n}</button></form>
<form method="post" action="/dev/xero/change">${id}
<label>Total <input name="total" inputmode="decimal" value="${escapeHtml(i.Total.toFixed(2))}" aria-label="Total of ${n}"></label>
<button class="secondary" type="submit">Change amount of ${n}</button></form>`
          : "",
        (open || i.Status === "PAID") && (i.AmountPaid ?? 0) > 0
          ? `<form method="post" action="/dev/xero/unpay">${id}<button class="secondary" type="submit">Delete the newest payment on ${n}</button></form>`
          : "",
        open && (i.AmountPaid ?? 0) === 0
          ? `<form method="post" action="/dev/xero/void">${id}<button class="secondary" type="submit">Void ${n}</button></form>`
          : "",
      ].join("\n");
      return `<tr id="invoice-${escapeHtml(encodeURIComponent(i.InvoiceID))}" data-invoice="${escapeHtml(i.InvoiceNumber)}"><td>${escapeHtml(i.InvoiceNumber)}</td><td>${escapeHtml(i.Type)}</td><td>${escapeHtml(i.Contact.Name)}</td><td>${escapeHtml(i.Status)}</td><td>${escapeHtml(String(i.DueDateString ?? "").slice(0, 10))}</td><td>${escapeHtml(`${i.AmountDue.toFixed(2)} of ${i.Total.toFixed(2)} ${i.CurrencyCode}`)}</td><td>${actions}</td></tr>`;
    })
    .join("\n");
  // The payments, newest first: those a bookkeeper added here and those Dunly wrote (decisions/063).
  const accounts = await listStandInObjects<XeroAccount>(c.env, tenantId, "account");
  const payments = (await listStandInObjects<StandInPayment>(c.env, tenantId, "payment")).reverse();
  const paymentRows = payments
    .map(
      (p) =>
        `<tr data-payment="${escapeHtml(p.PaymentID)}"><td>${escapeHtml(p.Invoice.InvoiceNumber)}</td><td>${escapeHtml(p.Amount.toFixed(2))}</td><td>${escapeHtml(new Date(Number(/\d+/.exec(p.Date)?.[0] ?? 0)).toISOString().slice(0, 10))}</td><td>${escapeHtml(p.Account ? `${p.Account.Name} (${p.Account.Code ?? ""})` : "—")}</td><td>${escapeHtml(p.Reference ?? "")}</td><td><code>${escapeHtml(p.PaymentID)}</code></td></tr>`,
    )
    .join("\n");
  const accountRows = accounts
    .map(
      (a) =>
        `<tr><td>${escapeHtml(a.Code)}</td><td>${escapeHtml(a.Name)}</td><td>${escapeHtml(a.Type)}</td><td>${escapeHtml(a.Status)}</td></tr>`,
    )
    .join("\n");
  return c.html(
    render(
      tenant ? `Xero: ${tenant.data.tenantName}` : "Xero (local stand-in)",
      `<div class="wrap"><table><caption>Invoices and bills</caption><thead><tr><th scope="col">Number</th><th scope="col">Type</th><th scope="col">Contact</th><th scope="col">Status</th><th scope="col">Due date</th><th scope="col">Due</th><th scope="col">Do as in Xero</th></tr></thead>
<tbody>${rows}</tbody></table></div>
<h2>Payments</h2>
${
  payments.length === 0
    ? "<p>No payments yet.</p>"
    : `<div class="wrap"><table data-testid="xero-payments"><caption>Payments, newest first</caption><thead><tr><th scope="col">Invoice</th><th scope="col">Amount</th><th scope="col">Date</th><th scope="col">Bank account</th><th scope="col">Reference</th><th scope="col">Payment id</th></tr></thead>
<tbody>${paymentRows}</tbody></table></div>`
}
<h2>Chart of accounts</h2>
<div class="wrap"><table><caption>Accounts (only active bank accounts take payments)</caption><thead><tr><th scope="col">Code</th><th scope="col">Name</th><th scope="col">Type</th><th scope="col">Status</th></tr></thead>
<tbody>${accountRows}</tbody></table></div>
<p><a href="/iam/accounting">Back to Dunly's Settings → Accounting</a></p>`,
    ),
  );
});

/** The invoice named by the form, when it is in the signed-in user's organisation. */
async function formInvoice(c: import("hono").Context<AppBindings>) {
  const tenantId = await tenantShown(c);
  const form = await c.req.formData();
  const id = String(form.get("invoice") ?? "");
  const found = tenantId ? await getStandInObject<Stored>(c.env, "invoice", id) : undefined;
  return tenantId && found && found.tenantId === tenantId ? { id, tenantId, form } : null;
}

/** After a change, Xero's webhook (signed, to the webhook's own code), then back to the list. */
async function changed(c: import("hono").Context<AppBindings>, found: { id: string; tenantId: string }) {
  await deliverStandInXeroEvent(c.env, c.get("config"), { tenantId: found.tenantId, invoiceId: found.id }, (p) =>
    c.executionCtx.waitUntil(p),
  );
  return c.redirect("/dev/xero", 303);
}

const refused = (c: import("hono").Context<AppBindings>, message: string) =>
  c.html(render("Xero (local stand-in)", `<p>${escapeHtml(message)} <a href="/dev/xero">Back</a></p>`), 400);

const amountOf = (value: FormDataEntryValue | null) => Number(String(value ?? "").replace(",", "."));

xeroPages.post("/pay", async (c) => {
  const found = await formInvoice(c);
  if (!found) return c.text("Not found", 404);
  const amount = amountOf(found.form.get("amount"));
  if (!(amount > 0)) return refused(c, "Enter an amount above 0.");
  if (!(await addStandInPayment(c.env, found.id, Math.round(amount * 100) / 100))) {
    return refused(c, "Xero records payments only on an invoice awaiting payment.");
  }
  return changed(c, found);
});

xeroPages.post("/unpay", async (c) => {
  const found = await formInvoice(c);
  if (!found) return c.text("Not found", 404);
  if (!(await changeStandInInvoice(c.env, found.id, { deletePayment: true }))) {
    return refused(c, "This invoice has no payment to delete.");
  }
  return changed(c, found);
});

xeroPages.post("/change", async (c) => {
  const found = await formInvoice(c);
  if (!found) return c.text("Not found", 404);
  const due = found.form.get("due");
  const total = found.form.get("total");
  const change =
    due !== null ? { dueOn: String(due) } : total !== null ? { total: Math.round(amountOf(total) * 100) / 100 } : {};
  if (!(await changeStandInInvoice(c.env, found.id, change))) {
    return refused(
      c,
      due !== null ? "Enter a date." : "Enter a total above 0 and not below what was paid or credited on it.",
    );
  }
  return changed(c, found);
});

xeroPages.post("/void", async (c) => {
  const found = await formInvoice(c);
  if (!found) return c.text("Not found", 404);
  if (!(await voidStandInInvoice(c.env, found.id)))
    return refused(c, "Xero voids only an invoice nothing was paid on.");
  return changed(c, found);
});
