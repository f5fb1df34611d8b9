import { env } from "cloudflare:workers";
import { readConfig } from "~/platform/config.server";
import { stripeSetup } from "~/stripe/client.server";
import { stripeSignatureHeader } from "~/stripe/signature";
import { STANDIN_WEBHOOK_SECRET } from "~/stripe/standin/config";
import { request } from "./helpers";

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
