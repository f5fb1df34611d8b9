import { Hono } from "hono";
import { STANDIN_ORIGIN_HEADER } from "~/stripe/standin/config";
import {
  getObject,
  parseStripeForm,
  putObject,
  type StripeJson,
  standInId,
  subscriptionsOf,
  updateObject,
  withPrice,
} from "./store.server";

/**
 * The local Stripe stand-in (decisions/017): the part of Stripe's API Dunly uses, served inside this
 * Worker for development and tests without a key (app/stripe/client.server.ts points the SDK's fetch
 * here, so the SDK's own requests and answers are exercised), and a checkout page at /dev/checkout
 * (app/http/stripe-pages/pages.server.ts) where a person completes, fails or leaves a payment
 * pending. Its events are signed the way Stripe signs them and handed to the same webhook code as
 * Stripe's (deliver.server.ts `deliverStandInEvent`). Only reachable where APP_ENV is development or test: the SDK
 * talks to it only without a key, which production never lacks silently (stripeSetup is null).
 *
 * Answers are Stripe's JSON shapes, as far as Dunly reads them; unknown routes answer Stripe's
 * error shape with 404.
 */
export const stripeStandInApi = new Hono<{ Bindings: Env }>();

const originOf = (request: Request) => request.headers.get(STANDIN_ORIGIN_HEADER) ?? "http://localhost:5173";

/** Stripe's error body; a missing object is a 404 with the code `resource_missing`, as Stripe's. */
const stripeError = (message: string, status: 400 | 404 = 400) =>
  Response.json(
    { error: { type: "invalid_request_error", message, ...(status === 404 ? { code: "resource_missing" } : {}) } },
    { status },
  );

async function form(request: Request): Promise<Record<string, unknown>> {
  return parseStripeForm(await request.text());
}

const nowSeconds = () => Math.floor(Date.now() / 1000);

// Checkout Sessions ---------------------------------------------------------------------------------

stripeStandInApi.post("/v1/checkout/sessions", async (c) => {
  const params = await form(c.req.raw);
  const account = c.req.header("Stripe-Account") ?? null;
  const mode = params.mode === "subscription" ? "subscription" : params.mode === "setup" ? "setup" : "payment";
  const lineItems = Array.isArray(params.line_items) ? (params.line_items as Record<string, unknown>[]) : [];
  // A payment's total from its line items (price_data × quantity); a subscription's from its price.
  let amountTotal = 0;
  let currency: string | null = typeof params.currency === "string" ? params.currency : null;
  for (const item of lineItems) {
    const priceData = (item.price_data ?? {}) as Record<string, unknown>;
    const quantity = Number(item.quantity ?? 1);
    if (priceData.unit_amount !== undefined) amountTotal += Number(priceData.unit_amount) * quantity;
    if (typeof priceData.currency === "string") currency = priceData.currency;
  }
  const id = standInId(mode === "subscription" ? "cs_test_sub" : "cs_test");
  const session: StripeJson = {
    id,
    object: "checkout.session",
    mode,
    status: "open",
    payment_status: "unpaid",
    amount_total: mode === "payment" ? amountTotal : null,
    currency,
    customer: typeof params.customer === "string" ? params.customer : null,
    customer_email: typeof params.customer_email === "string" ? params.customer_email : null,
    client_reference_id: typeof params.client_reference_id === "string" ? params.client_reference_id : null,
    locale: typeof params.locale === "string" ? params.locale : null,
    metadata: (params.metadata as Record<string, string> | undefined) ?? {},
    line_items_params: lineItems,
    payment_intent: null,
    subscription: null,
    success_url: typeof params.success_url === "string" ? params.success_url : null,
    cancel_url: typeof params.cancel_url === "string" ? params.cancel_url : null,
    payment_method_types: params.payment_method_types ?? ["card"],
    subscription_data: params.subscription_data ?? null,
    expires_at: nowSeconds() + 24 * 3600,
    created: nowSeconds(),
    livemode: false,
    url: `${originOf(c.req.raw)}/dev/checkout/checkout/${id}`,
  };
  return c.json(await putObject(c.env, session, account));
});

stripeStandInApi.get("/v1/checkout/sessions/:id", async (c) => {
  const found = await getObject(c.env, c.req.param("id"), "checkout.session");
  return found ? c.json(found) : stripeError(`No such checkout.session: '${c.req.param("id")}'`, 404);
});

stripeStandInApi.post("/v1/checkout/sessions/:id/expire", async (c) => {
  const found = await updateObject(c.env, c.req.param("id"), { status: "expired" });
  return found ? c.json(found) : stripeError(`No such checkout.session: '${c.req.param("id")}'`, 404);
});

// Connected accounts and their onboarding -----------------------------------------------------------

stripeStandInApi.post("/v1/accounts", async (c) => {
  const params = await form(c.req.raw);
  const account: StripeJson = {
    id: standInId("acct"),
    object: "account",
    type: typeof params.type === "string" ? params.type : "standard",
    controller: params.controller ?? null,
    email: typeof params.email === "string" ? params.email : null,
    country: typeof params.country === "string" ? params.country : "US",
    default_currency: "usd",
    charges_enabled: false,
    payouts_enabled: false,
    details_submitted: false,
    metadata: params.metadata ?? {},
    created: nowSeconds(),
    livemode: false,
  };
  return c.json(await putObject(c.env, account));
});

stripeStandInApi.get("/v1/accounts/:id", async (c) => {
  const found = await getObject(c.env, c.req.param("id"), "account");
  return found ? c.json(found) : stripeError(`No such account: '${c.req.param("id")}'`, 404);
});

// Deleted objects are kept, marked, so a person can see on the stand-in's pages what Dunly let go;
// asked for again, they answer as Stripe does for an object that is gone.
stripeStandInApi.delete("/v1/accounts/:id", async (c) => {
  const found = await getObject(c.env, c.req.param("id"), "account");
  if (!found || found.deleted) return stripeError(`No such account: '${c.req.param("id")}'`, 404);
  await updateObject(c.env, found.id, { deleted: true });
  return c.json({ id: found.id, object: "account", deleted: true });
});

stripeStandInApi.post("/v1/account_links", async (c) => {
  const params = await form(c.req.raw);
  const accountId = String(params.account ?? "");
  if (!(await getObject(c.env, accountId, "account"))) return stripeError(`No such account: '${accountId}'`);
  const query = new URLSearchParams({
    refresh_url: String(params.refresh_url ?? ""),
    return_url: String(params.return_url ?? ""),
  });
  return c.json({
    object: "account_link",
    created: nowSeconds(),
    expires_at: nowSeconds() + 300,
    url: `${originOf(c.req.raw)}/dev/checkout/onboarding/${accountId}?${query}`,
  });
});

// Customers, subscriptions and the billing portal ---------------------------------------------------

stripeStandInApi.post("/v1/customers", async (c) => {
  const params = await form(c.req.raw);
  const customer: StripeJson = {
    id: standInId("cus"),
    object: "customer",
    email: typeof params.email === "string" ? params.email : null,
    name: typeof params.name === "string" ? params.name : null,
    metadata: params.metadata ?? {},
    created: nowSeconds(),
    livemode: false,
  };
  return c.json(await putObject(c.env, customer));
});

stripeStandInApi.get("/v1/customers/:id", async (c) => {
  const found = await getObject(c.env, c.req.param("id"), "customer");
  if (found?.deleted) return c.json({ id: found.id, object: "customer", deleted: true });
  return found ? c.json(found) : stripeError(`No such customer: '${c.req.param("id")}'`, 404);
});

stripeStandInApi.delete("/v1/customers/:id", async (c) => {
  const found = await getObject(c.env, c.req.param("id"), "customer");
  if (!found || found.deleted) return stripeError(`No such customer: '${c.req.param("id")}'`, 404);
  await updateObject(c.env, found.id, { deleted: true });
  return c.json({ id: found.id, object: "customer", deleted: true });
});

stripeStandInApi.get("/v1/subscriptions/:id", async (c) => {
  const found = await getObject(c.env, c.req.param("id"), "subscription");
  return found ? c.json(found) : stripeError(`No such subscription: '${c.req.param("id")}'`, 404);
});

stripeStandInApi.post("/v1/billing_portal/sessions", async (c) => {
  const params = await form(c.req.raw);
  const customer = String(params.customer ?? "");
  if (!(await getObject(c.env, customer, "customer"))) return stripeError(`No such customer: '${customer}'`);
  const query = new URLSearchParams({ return_url: String(params.return_url ?? "") });
  return c.json({
    id: standInId("bps"),
    object: "billing_portal.session",
    customer,
    return_url: params.return_url ?? null,
    created: nowSeconds(),
    livemode: false,
    url: `${originOf(c.req.raw)}/dev/checkout/portal/${customer}?${query}`,
  });
});

// Billing: subscriptions (decisions/019) ------------------------------------------------------------
// Updated by Dunly's own code only through the portal in production; the stand-in's portal actions
// (billing-actions.server.ts) use these same shapes. Period fields live on the item, as in Stripe's
// current API versions.

stripeStandInApi.get("/v1/subscriptions", async (c) => {
  const customer = c.req.query("customer") ?? "";
  const data = await subscriptionsOf(c.env, customer);
  return c.json({ object: "list", data, has_more: false, url: "/v1/subscriptions" });
});

stripeStandInApi.post("/v1/subscriptions/:id", async (c) => {
  const found = await getObject(c.env, c.req.param("id"), "subscription");
  if (!found) return stripeError(`No such subscription: '${c.req.param("id")}'`, 404);
  const params = await form(c.req.raw);
  const changes: Record<string, unknown> = {};
  if (params.cancel_at_period_end !== undefined) changes.cancel_at_period_end = params.cancel_at_period_end === "true";
  const items = Array.isArray(params.items) ? (params.items as Record<string, unknown>[]) : [];
  const price = items[0]?.price;
  if (typeof price === "string") changes.items = withPrice(found, price);
  return c.json(await putObject(c.env, { ...found, ...changes }));
});

stripeStandInApi.delete("/v1/subscriptions/:id", async (c) => {
  const found = await getObject(c.env, c.req.param("id"), "subscription");
  if (!found) return stripeError(`No such subscription: '${c.req.param("id")}'`, 404);
  return c.json(
    await putObject(c.env, { ...found, status: "canceled", ended_at: nowSeconds(), canceled_at: nowSeconds() }),
  );
});

stripeStandInApi.all("*", (c) =>
  stripeError(`Unrecognized request URL (${c.req.method}: ${new URL(c.req.url).pathname})`, 404),
);
