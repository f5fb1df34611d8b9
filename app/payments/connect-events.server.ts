import type Stripe from "stripe";
import type { HandledEvent, StripeEventContext } from "~/lib/stripe-events";

/**
 * The connected accounts' events (POST /webhooks/stripe/connect, decisions/017): debtors' payments
 * through Checkout on their creditor's own Stripe account. Verified and de-duplicated by
 * app/http/stripe-webhooks.server.ts before they get here.
 */
export async function handleConnectEvent(event: Stripe.Event, _context: StripeEventContext): Promise<HandledEvent> {
  return { handled: false, reason: `no handler for ${event.type}` };
}
