import { receiveStripeEvent, type StripeReceipt } from "~/http/stripe-webhooks.server";
import type { AppConfig } from "~/platform/config.server";
import type { StripeEndpoint } from "~/stripe/index.server";
import { STANDIN_WEBHOOK_SECRET, standInId, stripeSignatureHeader } from "~/stripe/index.server";

const nowSeconds = () => Math.floor(Date.now() / 1000);

/**
 * A Stripe event about `object`, signed with the stand-in's secret the way Stripe signs, handed to
 * the webhook code of `endpoint` (receiveStripeEvent): what Stripe's delivery would do. `account`:
 * the connected account it happened on (a Connect event). Returns the webhook's answer.
 */
export async function deliverStandInEvent(
  env: Env,
  config: AppConfig,
  endpoint: StripeEndpoint,
  type: string,
  object: Record<string, unknown>,
  account: string | null = null,
  previousAttributes?: Record<string, unknown>,
): Promise<StripeReceipt> {
  const event = {
    id: standInId("evt"),
    object: "event",
    api_version: "2025-10-29.clover",
    created: nowSeconds(),
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type,
    ...(account ? { account } : {}),
    data: { object, ...(previousAttributes ? { previous_attributes: previousAttributes } : {}) },
  };
  const payload = JSON.stringify(event);
  const signature = await stripeSignatureHeader(payload, STANDIN_WEBHOOK_SECRET, nowSeconds());
  return receiveStripeEvent(env, config, endpoint, payload, signature);
}
