import type Stripe from "stripe";
import { applySubscription, getBilling, markPastDue } from "~/billing/subscriptions.server";
import { formatDate } from "~/domain/dates";
import { userLocale } from "~/domain/number-locale";
import { effectivePlan, isPlanId } from "~/domain/plans";
import { linkOrigin } from "~/platform/config.server";
import { resumeForPlan } from "~/reminders/index.server";
import { type HandledEvent, isMissingAtStripe, type StripeEventContext } from "~/stripe/index.server";
import { sendAccountNotice } from "./account-notices.server";

/**
 * Dunly's own billing events (POST /webhooks/stripe/billing, decisions/017, decisions/019): the
 * users' subscriptions to its plans. Verified and de-duplicated by app/http/stripe-webhooks.server.ts
 * before they get here. Only these events change a plan: never the Checkout redirect. Events for a
 * customer Dunly did not link to a user are ignored. Each subscription event carries its full state
 * and is applied only if no newer one was (users.subscription_event_at), so order does not matter.
 */
export async function handleBillingEvent(event: Stripe.Event, context: StripeEventContext): Promise<HandledEvent> {
  switch (event.type) {
    case "checkout.session.completed":
      return checkoutCompleted(event.data.object, event, context);
    case "customer.subscription.created":
    case "customer.subscription.updated":
    case "customer.subscription.deleted":
      return subscriptionChanged(event.data.object, event, context);
    case "invoice.payment_failed":
      return paymentFailed(event.data.object, context);
    default:
      return { handled: false, reason: `no handler for ${event.type}` };
  }
}

const idOf = (value: string | { id: string } | null | undefined) =>
  typeof value === "string" ? value : (value?.id ?? null);

/** The plan of a Stripe price id (STRIPE_PRICE_*), or null for a price that is none of them. */
export function planOfPrice(prices: StripeEventContext["stripe"]["prices"], priceId: string | null | undefined) {
  const found = Object.entries(prices).find(([, id]) => id && id === priceId)?.[0];
  return isPlanId(found) ? found : null;
}

/**
 * Checkout finished (subscription mode): the session's customer must be the one Dunly made for the
 * client_reference_id user at checkout (never trust the reference alone); then the subscription's
 * state is read from Stripe and applied, so the plan is right even if this comes before
 * customer.subscription.created.
 */
async function checkoutCompleted(
  session: Stripe.Checkout.Session,
  event: Stripe.Event,
  context: StripeEventContext,
): Promise<HandledEvent> {
  if (session.mode !== "subscription") return { handled: false, reason: "not a subscription checkout" };
  const userId = session.client_reference_id;
  const customerId = idOf(session.customer);
  const subscriptionId = idOf(session.subscription);
  if (!userId || !customerId || !subscriptionId) return { handled: false, reason: "no user, customer or subscription" };
  const billing = await getBilling(context.db, userId);
  if (!billing) return { handled: false, reason: "unknown user" };
  if (billing.stripeCustomerId !== customerId) {
    return { handled: false, reason: "the session's customer is not the user's" };
  }
  let subscription: Stripe.Subscription;
  try {
    subscription = await context.stripe.client.subscriptions.retrieve(subscriptionId);
  } catch (error) {
    // Stripe has no such subscription: asking again will not make one, so the event is answered
    // (200) and ignored rather than failed for Stripe to retry for days. Anything else still fails.
    if (isMissingAtStripe(error))
      return { handled: false, reason: `no such subscription at Stripe: ${subscriptionId}` };
    throw error;
  }
  return subscriptionChanged(subscription, event, context);
}

async function subscriptionChanged(
  subscription: Stripe.Subscription,
  event: Stripe.Event,
  context: StripeEventContext,
): Promise<HandledEvent> {
  const customerId = idOf(subscription.customer);
  if (!customerId) return { handled: false, reason: "no customer" };
  const item = subscription.items?.data?.[0];
  // Stripe's newer API versions keep the period on the item; older ones on the subscription.
  const periodEnd =
    (item as { current_period_end?: number } | undefined)?.current_period_end ??
    (subscription as unknown as { current_period_end?: number }).current_period_end ??
    null;
  const status = event.type === "customer.subscription.deleted" ? "canceled" : subscription.status;
  const userId = await applySubscription(context.db, {
    customerId,
    subscriptionId: subscription.id,
    status,
    plan: planOfPrice(context.stripe.prices, item?.price?.id),
    currentPeriodEnd: periodEnd === null ? null : periodEnd * 1000,
    cancelAtPeriodEnd: Boolean(subscription.cancel_at_period_end),
    eventAt: event.created * 1000,
  });
  if (!userId) return { handled: false, reason: "no user of this customer, or a newer state applied" };
  // A plan again: the schedules held for want of one run again (docs/decisions/019).
  const billing = await getBilling(context.db, userId);
  if (billing && effectivePlan(billing, context.now)) {
    await resumeForPlan({ env: context.env, db: context.db, ownerId: userId, now: context.now });
  }
  return { handled: true };
}

/** A renewal failed: past due (the plan stays while Stripe retries) and the user is told by e-mail. */
async function paymentFailed(invoice: Stripe.Invoice, context: StripeEventContext): Promise<HandledEvent> {
  const customerId = idOf(invoice.customer);
  if (!customerId) return { handled: false, reason: "no customer" };
  const parent = (invoice as unknown as { parent?: { subscription_details?: { subscription?: string } } }).parent;
  const subscriptionId =
    parent?.subscription_details?.subscription ??
    idOf((invoice as unknown as { subscription?: string | null }).subscription) ??
    null;
  const user = await markPastDue(context.db, customerId, subscriptionId);
  if (!user) return { handled: false, reason: "no live subscription of a user for this customer" };
  const next = invoice.next_payment_attempt;
  const date = next ? formatDate(new Date(next * 1000).toISOString().slice(0, 10), userLocale(user.locale)) : "";
  await sendAccountNotice(
    context.env,
    context.db,
    user.id,
    {
      to: user.email,
      kind: "payment_failed",
      date,
      actionUrl: `${linkOrigin(context.config)}/iam/subscription`,
    },
    `payment_failed:${invoice.id ?? customerId}`,
  );
  return { handled: true };
}
