import { Hono } from "hono";
import type { AppBindings } from "~/http/hono-env";
import { accountOf, getObject, type StripeJson } from "~/stripe/index.server";
import { escapeHtml, standInPage } from "../standin-page";
import { LEAVE_CHECKOUT, type StandInAction } from "./actions.server";
import { BILLING_STANDIN_ACTIONS } from "./billing-actions.server";
import { CONNECT_STANDIN_ACTIONS } from "./connect-actions.server";

/**
 * The local Stripe stand-in's pages (decisions/017), under /dev/checkout (development and test only,
 * like the dev mailbox): a Checkout Session's page, a connected account's onboarding and a
 * customer's billing portal, each with the actions a person may take there (actions.server.ts).
 */
export const standInPages = new Hono<AppBindings>();

const ACTIONS: readonly StandInAction[] = [...CONNECT_STANDIN_ACTIONS, ...BILLING_STANDIN_ACTIONS, LEAVE_CHECKOUT];

const PAGES = {
  checkout: { object: "checkout.session", title: "Checkout (local stand-in)" },
  onboarding: { object: "account", title: "Stripe onboarding (local stand-in)" },
  portal: { object: "customer", title: "Billing portal (local stand-in)" },
} as const;
type Page = keyof typeof PAGES;

/** What the page says about the object: the figures a person checks before they click. */
function summary(object: StripeJson): string {
  const rows: [string, unknown][] = [["Id", object.id]];
  if (object.object === "checkout.session") {
    rows.push(["Mode", object.mode], ["Status", object.status], ["Payment status", object.payment_status]);
    if (typeof object.amount_total === "number") {
      const currency = String(object.currency ?? "usd").toUpperCase();
      rows.push(["Amount", `${(object.amount_total / 100).toFixed(2)} ${currency}`]);
    }
  } else if (object.object === "account") {
    rows.push(["Charges enabled", object.charges_enabled], ["Details submitted", object.details_submitted]);
  } else if (object.object === "customer") {
    rows.push(["E-mail", object.email]);
  }
  return `<dl>${rows.map(([k, v]) => `<dt>${escapeHtml(k)}</dt><dd>${escapeHtml(v)}</dd>`).join("")}</dl>`;
}

function render(title: string, body: string): string {
  return standInPage({
    title,
    banner: "This page stands in for Stripe in local development and tests. Nothing here moves real money.",
    accent: { background: "#635bff", border: "#635bff" },
    width: "40rem",
    css: `dl{display:grid;grid-template-columns:max-content 1fr;gap:.25rem 1rem}dt{color:#555}dd{margin:0;word-break:break-all}
form{margin:1rem 0;padding:1rem;border:1px solid #ddd;border-radius:8px}p.note{color:#555;font-size:.9rem;margin:.5rem 0 0}`,
    body,
  });
}

async function loadPage(env: Env, page: Page, id: string) {
  const object = await getObject(env, id, PAGES[page].object);
  return object ? { object, account: await accountOf(env, id) } : undefined;
}

// Each page under its own static segment (a Checkout Session's is /dev/checkout/checkout/<session
// id>, its `url`): a parameter beside a static segment or a pattern at the same place makes Hono
// route every request of the Worker through its slower trie router.
for (const page of Object.keys(PAGES) as Page[]) {
  standInPages.get(`/${page}/:id`, async (c) => showPage(c, page));
  standInPages.post(`/${page}/:id/:action`, async (c) => runAction(c, page));
}

async function showPage(c: import("hono").Context<AppBindings>, page: Page) {
  const id = c.req.param("id") ?? "";
  const found = await loadPage(c.env, page, id);
  if (!found) return c.html(render("Not found", "<p>No such object in the local stand-in.</p>"), 404);
  const query = new URL(c.req.url).search;
  const forms = ACTIONS.filter((a) => a.page === page && a.applies(found.object))
    .map(
      (
        a,
      ) => `<form method="post" action="/dev/checkout/${page}/${escapeHtml(id)}/${escapeHtml(a.id)}${escapeHtml(query)}">
  <button type="submit">${escapeHtml(a.label)}</button><p class="note">${escapeHtml(a.description)}</p></form>`,
    )
    .join("\n");
  return c.html(render(PAGES[page].title, summary(found.object) + (forms || "<p>Nothing more to do here.</p>")));
}

async function runAction(c: import("hono").Context<AppBindings>, page: Page) {
  const id = c.req.param("id") ?? "";
  const found = await loadPage(c.env, page, id);
  const action = ACTIONS.find((a) => a.page === page && a.id === c.req.param("action"));
  if (!(found && action?.applies(found.object))) return c.text("Not found", 404);
  const url = new URL(c.req.url);
  const to = await action.run({
    env: c.env,
    config: c.get("config"),
    object: found.object,
    account: found.account,
    query: url.searchParams,
    form: await c.req.formData(),
    pageUrl: `/dev/checkout/${page}/${id}${url.search}`,
  });
  return c.redirect(to, 303);
}
