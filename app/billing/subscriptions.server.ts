import { and, eq, isNull, lte, or, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { users } from "~/db/schema";

/**
 * An account's subscription to Dunly's plans (docs/decisions/019): users' billing columns
 * (migration 0019), written only from verified Stripe events (app/billing/billing-events.server.ts)
 * and the customer made at checkout. Every function takes the user id or the Stripe customer.
 */

/** What Settings → Subscription and /pricing show, and what effectivePlan() reads. */
export async function getBilling(db: Db, userId: string) {
  return db
    .select({
      id: users.id,
      email: users.email,
      fullName: users.fullName,
      plan: users.plan,
      stripeCustomerId: users.stripeCustomerId,
      stripeSubscriptionId: users.stripeSubscriptionId,
      subscriptionStatus: users.subscriptionStatus,
      currentPeriodEnd: users.currentPeriodEnd,
      cancelAtPeriodEnd: users.cancelAtPeriodEnd,
      trialEndsAt: users.trialEndsAt,
      createdAt: users.createdAt,
    })
    .from(users)
    .where(eq(users.id, userId))
    .get();
}

export type Billing = NonNullable<Awaited<ReturnType<typeof getBilling>>>;

/** Links the Stripe customer made for the user; false when the user already has another one. */
export async function linkCustomer(db: Db, userId: string, customerId: string): Promise<boolean> {
  const rows = await db
    .update(users)
    .set({ stripeCustomerId: customerId })
    .where(and(eq(users.id, userId), or(isNull(users.stripeCustomerId), eq(users.stripeCustomerId, customerId))))
    .returning({ id: users.id });
  return rows.length > 0;
}

/** The user a Stripe customer belongs to, or undefined (an event about a customer Dunly did not link). */
export async function userOfCustomer(db: Db, customerId: string) {
  return db
    .select({ id: users.id, email: users.email, stripeSubscriptionId: users.stripeSubscriptionId })
    .from(users)
    .where(eq(users.stripeCustomerId, customerId))
    .get();
}

/** A subscription's full state as one event carries it. */
export interface SubscriptionState {
  customerId: string;
  subscriptionId: string;
  status: string;
  /** The plan of its price (null: a price that is none of the plans': the plan is kept). */
  plan: string | null;
  currentPeriodEnd: number | null;
  cancelAtPeriodEnd: boolean;
  /** The event's `created`, in ms: an older event never overwrites a newer state. */
  eventAt: number;
}

/**
 * Applies a subscription's state to its customer's user, unless the user already applied a newer
 * event, or the event is about another subscription than the user's current one while that one is
 * live (an old subscription's end does not end the new one). Returns the user id when applied.
 */
export async function applySubscription(db: Db, s: SubscriptionState): Promise<string | undefined> {
  const row = await db
    .update(users)
    .set({
      stripeSubscriptionId: s.subscriptionId,
      subscriptionStatus: s.status,
      ...(s.plan ? { plan: s.plan } : {}),
      currentPeriodEnd: s.currentPeriodEnd,
      cancelAtPeriodEnd: s.cancelAtPeriodEnd,
      subscriptionEventAt: s.eventAt,
    })
    .where(
      and(
        eq(users.stripeCustomerId, s.customerId),
        or(isNull(users.subscriptionEventAt), lte(users.subscriptionEventAt, s.eventAt)),
        or(
          isNull(users.stripeSubscriptionId),
          eq(users.stripeSubscriptionId, s.subscriptionId),
          sql`${users.subscriptionStatus} NOT IN ('active', 'trialing', 'past_due')`,
        ),
      ),
    )
    .returning({ id: users.id })
    .get();
  return row?.id;
}

/** A renewal payment failed: the live subscription is past due (Stripe retries the card). */
export async function markPastDue(db: Db, customerId: string, subscriptionId: string | null) {
  return db
    .update(users)
    .set({ subscriptionStatus: "past_due" })
    .where(
      and(
        eq(users.stripeCustomerId, customerId),
        subscriptionId ? eq(users.stripeSubscriptionId, subscriptionId) : undefined,
        sql`${users.subscriptionStatus} IN ('active', 'trialing', 'past_due')`,
      ),
    )
    .returning({ id: users.id, email: users.email, locale: users.locale })
    .get();
}
