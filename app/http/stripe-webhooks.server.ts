import Stripe from "stripe";
import { handleBillingEvent } from "~/billing/index.server";
import { getDb } from "~/db/client.server";
import { handleConnectEvent } from "~/ledger/index.server";
import type { AppConfig } from "~/platform/config.server";
import { forgetWebhookEvent, recordWebhookEvent } from "~/responses/index.server";
import type { StripeEndpoint } from "~/stripe/index.server";
import { stripeSetup } from "~/stripe/index.server";

/**
 * Stripe's webhooks (decisions/017): POST /webhooks/stripe/connect takes
 * the connected accounts' events (payments of debtors), POST /webhooks/stripe/billing Dunly's own
 * (subscriptions). Both are authenticated by their signature on the raw body, checked by Stripe's
 * SDK with Web Crypto (`constructEventAsync`; five minutes of tolerance), never by a session. An
 * event id is handled once (webhook_events): a repeat changes nothing; a handler that throws forgets
 * it, so Stripe's retry is handled. A test-mode event where the key is live is ignored. The local
 * stand-in hands its signed events to `receiveStripeEvent` too: one code path.
 */
/** Stripe's events are small JSON objects; anything larger is not one. */
export const MAX_STRIPE_EVENT_BYTES = 256 * 1024;

export interface StripeReceipt {
  status: 200 | 400 | 404;
  body: { received: boolean; duplicate?: boolean; ignored?: string; error?: string };
}

/**
 * Verifies and handles one delivery to `endpoint`: 404 without Stripe, 400 for a missing or bad
 * signature (or a stale timestamp), 200 for everything verified (a repeat, an ignored kind included).
 */
export async function receiveStripeEvent(
  env: Env,
  config: AppConfig,
  endpoint: StripeEndpoint,
  rawBody: string,
  signature: string | null,
  now = Date.now(),
): Promise<StripeReceipt> {
  const stripe = stripeSetup(config, env);
  if (!stripe) return { status: 404, body: { received: false, error: "Stripe is not configured" } };
  if (!signature) return { status: 400, body: { received: false, error: "Missing Stripe-Signature" } };
  let event: Stripe.Event;
  try {
    event = await stripe.client.webhooks.constructEventAsync(
      rawBody,
      signature,
      endpoint === "connect" ? stripe.connectSecret : stripe.billingSecret,
      300,
      Stripe.createSubtleCryptoProvider(),
      // Milliseconds (the SDK divides by 1000).
      now,
    );
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { status: 400, body: { received: false, error: `Bad signature: ${message.slice(0, 200)}` } };
  }
  if (stripe.livemode && !event.livemode) return { status: 200, body: { received: true, ignored: "test-mode event" } };
  const db = getDb(env.DB);
  const key = `stripe:${event.id}`;
  if (!(await recordWebhookEvent(db, key, event.type, now))) {
    return { status: 200, body: { received: true, duplicate: true } };
  }
  try {
    const context = { env, config, db, stripe, now };
    const outcome =
      endpoint === "connect" ? await handleConnectEvent(event, context) : await handleBillingEvent(event, context);
    if (!outcome.handled) console.log(`[dunly] stripe ${endpoint} event ${event.type} ignored: ${outcome.reason}`);
    return { status: 200, body: outcome.handled ? { received: true } : { received: true, ignored: outcome.reason } };
  } catch (error) {
    await forgetWebhookEvent(db, key);
    throw error;
  }
}
