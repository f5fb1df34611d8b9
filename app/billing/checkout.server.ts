import { getBilling, linkCustomer } from "~/billing/subscriptions.server";
import type { Db } from "~/db/client.server";
import type { PlanId } from "~/domain/plans";
import type { StripeSetup } from "~/stripe/index.server";

/** Stripe refuses a trial_end less than 48 hours ahead: a trial closer to its end than this is billed at once. */
const MIN_TRIAL_LEFT_MS = 49 * 60 * 60 * 1000;

/**
 * The Unix second billing starts at when the user subscribes during Dunly's trial (Stripe's
 * trial_end): the trial's end, so its days are kept; null when the trial has ended (or nearly).
 */
export function trialEndSeconds(trialEndsAt: number | null, now: number): number | null {
  return trialEndsAt !== null && trialEndsAt > now + MIN_TRIAL_LEFT_MS ? Math.floor(trialEndsAt / 1000) : null;
}

/** Subscription statuses during which the account is subscribed: a plan change goes through the portal. */
const LIVE = new Set(["active", "trialing", "past_due"]);

/**
 * Where "Subscribe" sends the signed-in user (docs/decisions/019): a Stripe Checkout Session in
 * subscription mode on Dunly's own account with the plan's configured price, for the user's Stripe
 * customer (made and linked on the first checkout, reused after), client_reference_id the user. An
 * account already subscribed goes to the billing portal instead, where the plan is changed. The
 * plan itself changes only from the webhook's verified events, never from this redirect.
 */
export async function checkoutUrl(
  stripe: StripeSetup,
  db: Db,
  user: { id: string; email: string; fullName: string },
  plan: PlanId,
  origin: string,
): Promise<string> {
  const billing = await getBilling(db, user.id);
  if (!billing) throw new Error("The signed-in user is missing");
  if (billing.stripeCustomerId && billing.subscriptionStatus && LIVE.has(billing.subscriptionStatus)) {
    return portalUrl(stripe, billing.stripeCustomerId, `${origin}/iam/subscription`);
  }
  let customerId = billing.stripeCustomerId;
  if (!customerId) {
    const customer = await stripe.client.customers.create({
      email: user.email,
      name: user.fullName || undefined,
      metadata: { user_id: user.id },
    });
    // Two checkouts at once: the first link wins and the second uses it.
    customerId = (await linkCustomer(db, user.id, customer.id))
      ? customer.id
      : ((await getBilling(db, user.id))?.stripeCustomerId ?? customer.id);
  }
  const trialEnd = trialEndSeconds(billing.trialEndsAt, Date.now());
  const session = await stripe.client.checkout.sessions.create({
    mode: "subscription",
    customer: customerId,
    client_reference_id: user.id,
    line_items: [{ price: stripe.prices[plan], quantity: 1 }],
    metadata: { plan, user_id: user.id },
    // Subscribing during the trial keeps its days: billing starts when it ends (docs/decisions/019).
    subscription_data: { metadata: { plan, user_id: user.id }, ...(trialEnd ? { trial_end: trialEnd } : {}) },
    // Prices exclude VAT: a business customer gives its VAT number, and its billing address with it.
    tax_id_collection: { enabled: true },
    billing_address_collection: "required",
    customer_update: { name: "auto", address: "auto" },
    success_url: `${origin}/iam/subscription?checkout=done`,
    cancel_url: `${origin}/pricing`,
  });
  if (!session.url) throw new Error("Stripe returned no Checkout URL");
  return session.url;
}

/** A billing portal session of the customer: change plan, update the card, cancel. */
export async function portalUrl(stripe: StripeSetup, customerId: string, returnUrl: string): Promise<string> {
  const session = await stripe.client.billingPortal.sessions.create({ customer: customerId, return_url: returnUrl });
  return session.url;
}
