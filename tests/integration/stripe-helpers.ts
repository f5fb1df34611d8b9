import { env } from "cloudflare:workers";
import { expect } from "vitest";
import { portalLink } from "~/links/debtor-pages.server";
import { readConfig } from "~/platform/config.server";
import { stripeSetup } from "~/stripe/client.server";
import { stripeSignatureHeader } from "~/stripe/signature";
import { STANDIN_WEBHOOK_SECRET } from "~/stripe/standin/config";
import { db, makeDebtor, makeInvoice, makeSignedInUser } from "./fixtures";
import { location, postForm, request } from "./helpers";

/**
 * Stripe in the integration tests (decisions/017): the SDK talks to the local stand-in served
 * inside the Worker (no key in the test configuration), and events are signed here the way Stripe
 * signs them, with the stand-in's secret, and posted to the real endpoints.
 */
export function testStripe() {
  const setup = stripeSetup(readConfig(env), env);
  if (!setup) throw new Error("Stripe is not set up for the tests");
  return setup;
}

let counter = 0;

/** A Stripe event of `type` about `object` (a Connect event when `account` is given), as JSON. */
export function stripeEvent(
  type: string,
  object: Record<string, unknown>,
  options: { account?: string; id?: string; livemode?: boolean; created?: number } = {},
) {
  counter += 1;
  return {
    id: options.id ?? `evt_test_${Date.now().toString(36)}_${counter}_${Math.random().toString(36).slice(2, 8)}`,
    object: "event",
    api_version: "2025-10-29.clover",
    created: options.created ?? Math.floor(Date.now() / 1000),
    livemode: options.livemode ?? false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type,
    ...(options.account ? { account: options.account } : {}),
    data: { object },
  };
}

/**
 * Posts `event` to /webhooks/stripe/<endpoint>, signed at `at` (default now) with `secret` (default
 * the stand-in's); `signature: null` sends none.
 */
export async function postStripeEvent(
  endpoint: "connect" | "billing",
  event: unknown,
  options: { secret?: string; at?: number; signature?: string | null; body?: string } = {},
) {
  const body = options.body ?? JSON.stringify(event);
  const signature =
    options.signature !== undefined
      ? options.signature
      : await stripeSignatureHeader(
          body,
          options.secret ?? STANDIN_WEBHOOK_SECRET,
          Math.floor((options.at ?? Date.now()) / 1000),
        );
  const headers: Record<string, string> = { "Content-Type": "application/json" };
  if (signature !== null) headers["Stripe-Signature"] = signature;
  return request(`/webhooks/stripe/${endpoint}`, { method: "POST", body, headers });
}

/** A user with a connected account that takes charges, and a debtor owing €42.00 on one invoice. */
export async function connectSetup(options: { invoices?: number[]; currency?: string } = {}) {
  const currency = options.currency ?? "EUR";
  const user = await makeSignedInUser("Sally Sender");
  const account = `acct_test_${crypto.randomUUID().replaceAll("-", "").slice(0, 16)}`;
  const now = Date.now();
  await env.DB.prepare(
    "INSERT INTO stripe_accounts (user_id, account_id, charges_enabled, details_submitted, livemode, connected_at, updated_at) VALUES (?, ?, 1, 1, 0, ?, ?)",
  )
    .bind(user.id, account, now, now)
    .run();
  const amounts = options.invoices ?? [4200];
  const debtor = await makeDebtor(user.id, {
    invoice: false,
    currency,
    debtCents: amounts.reduce((a, b) => a + b, 0),
    timeZone: "America/New_York",
  });
  for (const [i, amountCents] of amounts.entries()) {
    await makeInvoice(user.id, debtor.id, {
      number: `INV-${i + 1}-${debtor.id}`,
      amountCents,
      currency,
      dueOn: `2026-01-${String(10 + i).padStart(2, "0")}`,
    });
  }
  const portal = new URL(await portalLink(db(), readConfig(env), { id: debtor.id, ownerId: user.id, optOutKey: null }))
    .pathname;
  return { user, account, debtor, portal };
}

/** Pay on the debtor's page: the 303 to the session's page and the session id. */
export async function pay(portal: string, fields: Record<string, string> = {}) {
  const res = await postForm(portal, { intent: "portal-pay", ...fields });
  expect(res.status).toBe(303);
  const to = String(location(res));
  const sessionId = /\/dev\/checkout\/checkout\/(cs_test_[A-Za-z0-9]+)/.exec(to)?.[1];
  expect(sessionId).toBeTruthy();
  return sessionId!;
}

/** The session as Stripe's events carry it. */
export function session(id: string, fields: Record<string, unknown>) {
  return { id, object: "checkout.session", mode: "payment", status: "complete", currency: "eur", ...fields };
}

export const onlineRow = (sessionId: string) =>
  env.DB.prepare("SELECT * FROM online_payments WHERE session_id = ?")
    .bind(sessionId)
    .first<{ status: string; amount_cents: number; debtor_id: number; refunded_cents: number }>();
