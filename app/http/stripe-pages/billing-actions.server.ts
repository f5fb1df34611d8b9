import { PLANS, type PlanId } from "~/domain/plans";
import {
  getObject,
  putObject,
  STANDIN_PRICES,
  type StripeJson,
  standInId,
  subscriptionsOf,
  updateObject,
  withPrice,
} from "~/stripe/index.server";
import type { StandInAction, StandInActionContext } from "./actions.server";
import { deliverStandInEvent } from "./deliver.server";

/**
 * What a person can do with Dunly's own plans on the stand-in's pages (decisions/017, 019): subscribe
 * on a subscription Checkout page; in the billing portal switch plan, cancel at period end, have a
 * renewal fail, or end the subscription now. Each changes the stand-in's objects as Stripe would and
 * delivers Stripe's events, signed, to the billing webhook (the same code Stripe's events reach).
 */

const DAY_S = 24 * 3600;
const nowSeconds = () => Math.floor(Date.now() / 1000);

function planOfPrice(price: unknown): PlanId | null {
  const found = Object.entries(STANDIN_PRICES).find(([, id]) => id === price)?.[0];
  return (found as PlanId | undefined) ?? null;
}

/** The portal's snapshot of the customer's subscription (a stand-in field, so its buttons can be chosen). */
interface Snapshot {
  id: string;
  plan: PlanId | null;
  status: string;
  cancel_at_period_end: boolean;
}

const snapshotOf = (customer: StripeJson) => (customer.standin_subscription ?? null) as Snapshot | null;
const live = (s: Snapshot | null) => s !== null && ["active", "trialing", "past_due"].includes(s.status);

function snapshot(sub: StripeJson): Snapshot {
  const items = sub.items as { data: { price: { id: string } }[] };
  return {
    id: sub.id,
    plan: planOfPrice(items.data[0]?.price.id),
    status: String(sub.status),
    cancel_at_period_end: Boolean(sub.cancel_at_period_end),
  };
}

async function saveSubscription(context: StandInActionContext, sub: StripeJson) {
  await putObject(context.env, sub);
  await updateObject(context.env, String(sub.customer), { standin_subscription: snapshot(sub) });
}

const SUBSCRIBE: StandInAction = {
  id: "subscribe",
  label: "Subscribe (card)",
  description:
    "Pays the first month by card (or, during Dunly's trial, saves the card and bills from the trial's end): Stripe makes the subscription and sends checkout.session.completed and customer.subscription.created.",
  page: "checkout",
  applies: (s) => s.mode === "subscription" && s.status === "open",
  async run(context) {
    const session = context.object;
    const now = nowSeconds();
    let customer = typeof session.customer === "string" ? session.customer : null;
    if (!customer) {
      customer = standInId("cus");
      await putObject(context.env, {
        id: customer,
        object: "customer",
        email: session.customer_email ?? null,
        metadata: {},
        created: now,
        livemode: false,
      });
    }
    const items = (session.line_items_params ?? []) as { price?: string }[];
    const price = String(items[0]?.price ?? "");
    const subscriptionData = (session.subscription_data ?? {}) as {
      metadata?: Record<string, string>;
      trial_end?: number | string;
    };
    // Subscribed during the trial: Stripe bills nothing until trial_end, and the subscription is trialing.
    const trialEnd = Number(subscriptionData.trial_end ?? 0) || null;
    const periodEnd = trialEnd ?? now + 30 * DAY_S;
    const sub: StripeJson = {
      id: standInId("sub"),
      object: "subscription",
      customer,
      status: trialEnd ? "trialing" : "active",
      trial_end: trialEnd,
      cancel_at_period_end: false,
      cancel_at: null,
      canceled_at: null,
      ended_at: null,
      start_date: now,
      created: now,
      livemode: false,
      metadata: subscriptionData.metadata ?? {},
      items: {
        object: "list",
        data: [
          {
            id: standInId("si"),
            object: "subscription_item",
            quantity: 1,
            current_period_start: now,
            current_period_end: periodEnd,
          },
        ],
      },
    };
    sub.items = withPrice(sub, price);
    await saveSubscription(context, sub);
    const completed = await updateObject(context.env, session.id, {
      status: "complete",
      // A trial's checkout takes the card and charges nothing yet.
      payment_status: trialEnd ? "no_payment_required" : "paid",
      customer,
      subscription: sub.id,
    });
    await deliverStandInEvent(context.env, context.config, "billing", "customer.subscription.created", sub);
    await deliverStandInEvent(
      context.env,
      context.config,
      "billing",
      "checkout.session.completed",
      completed ?? session,
    );
    return String(session.success_url ?? "/");
  },
};

/** The customer's newest subscription, as the portal acts on it. */
async function current(context: StandInActionContext): Promise<StripeJson | undefined> {
  const snap = snapshotOf(context.object);
  if (snap) return getObject(context.env, snap.id, "subscription");
  return (await subscriptionsOf(context.env, context.object.id))[0];
}

/** Changes the customer's subscription and sends `type` with what it was before; back to return_url. */
async function change(
  context: StandInActionContext,
  changes: (sub: StripeJson) => Record<string, unknown>,
  type = "customer.subscription.updated",
) {
  const sub = await current(context);
  if (sub) {
    const delta = changes(sub);
    const previous = Object.fromEntries(Object.keys(delta).map((k) => [k, sub[k] ?? null]));
    const updated = { ...sub, ...delta };
    await saveSubscription(context, updated);
    await deliverStandInEvent(context.env, context.config, "billing", type, updated, null, previous);
  }
  return context.query.get("return_url") || context.pageUrl;
}

const switchTo = (plan: (typeof PLANS)[number]): StandInAction => ({
  id: `switch-${plan.id}`,
  label: `Switch to ${plan.name}`,
  description: `Changes the plan to ${plan.name} ($${plan.price}/month) now: customer.subscription.updated.`,
  page: "portal",
  applies: (customer) => {
    const snap = snapshotOf(customer);
    return live(snap) && snap?.plan !== plan.id;
  },
  run: (context) => change(context, (sub) => ({ items: withPrice(sub, STANDIN_PRICES[plan.id]) })),
});

const CANCEL_AT_PERIOD_END: StandInAction = {
  id: "cancel",
  label: "Cancel at period end",
  description: "The plan stays until the paid month ends, then the subscription ends: customer.subscription.updated.",
  page: "portal",
  applies: (customer) => live(snapshotOf(customer)) && !snapshotOf(customer)?.cancel_at_period_end,
  run: (context) =>
    change(context, (sub) => {
      const items = sub.items as { data: { current_period_end?: number }[] };
      return { cancel_at_period_end: true, cancel_at: items.data[0]?.current_period_end ?? null };
    }),
};

const RENEWAL_FAILS: StandInAction = {
  id: "renewal-fails",
  label: "Renewal payment fails",
  description:
    "The card is declined at renewal: invoice.payment_failed and customer.subscription.updated (past_due); Stripe retries in 3 days.",
  page: "portal",
  applies: (customer) => snapshotOf(customer)?.status === "active",
  async run(context) {
    const sub = await current(context);
    if (sub) {
      const invoice: StripeJson = {
        id: standInId("in"),
        object: "invoice",
        customer: sub.customer,
        status: "open",
        billing_reason: "subscription_cycle",
        attempt_count: 1,
        next_payment_attempt: nowSeconds() + 3 * DAY_S,
        parent: { type: "subscription_details", subscription_details: { subscription: sub.id } },
        created: nowSeconds(),
        livemode: false,
      };
      await putObject(context.env, invoice);
      await deliverStandInEvent(context.env, context.config, "billing", "invoice.payment_failed", invoice);
    }
    return change(context, () => ({ status: "past_due" }));
  },
};

const END_NOW: StandInAction = {
  id: "end",
  label: "End the subscription now",
  description:
    "The subscription ends at once (cancelled now, or every retry of a failed renewal failed): customer.subscription.deleted.",
  page: "portal",
  applies: (customer) => live(snapshotOf(customer)),
  run: (context) =>
    change(
      context,
      () => ({ status: "canceled", ended_at: nowSeconds(), canceled_at: nowSeconds() }),
      "customer.subscription.deleted",
    ),
};

export const BILLING_STANDIN_ACTIONS: readonly StandInAction[] = [
  SUBSCRIBE,
  ...PLANS.map(switchTo),
  CANCEL_AT_PERIOD_END,
  RENEWAL_FAILS,
  END_NOW,
];
