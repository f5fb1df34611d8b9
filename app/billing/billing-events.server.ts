import type Stripe from "stripe";
import type { HandledEvent, StripeEventContext } from "~/lib/stripe-events";

/**
 * Dunly's own billing events (POST /webhooks/stripe/billing, decisions/017): the users'
 * subscriptions to its plans. Verified and de-duplicated by app/http/stripe-webhooks.server.ts
 * before they get here.
 */
export async function handleBillingEvent(event: Stripe.Event, _context: StripeEventContext): Promise<HandledEvent> {
  return { handled: false, reason: `no handler for ${event.type}` };
}
