import { sql } from "drizzle-orm";
import type { Bindable, Db } from "~/db/client.server";
import { users } from "~/db/schema";

/**
 * Whether the owner's reminders offer any way to pay (docs/decisions/051): bank details in some currency, a
 * payment link (theirs or an organization's), or card payments on a connected Stripe account. Without
 * one, the e-mail's only button would be "I've paid": the schedule page and autopilot's summary warn
 * before anything is sent. One row, read in the page's batch.
 */
export function waysToPayQuery(db: Db, ownerId: Bindable<string>) {
  return db
    .select({
      bank: sql<number>`EXISTS (SELECT 1 FROM bank_accounts WHERE bank_accounts.owner_id = "users"."id")`,
      link: sql<number>`("users"."payment_url" IS NOT NULL OR EXISTS (SELECT 1 FROM organizations WHERE organizations.owner_id = "users"."id" AND organizations.payment_url IS NOT NULL))`,
      stripe: sql<number>`EXISTS (SELECT 1 FROM stripe_accounts WHERE stripe_accounts.user_id = "users"."id" AND stripe_accounts.disconnected_at IS NULL AND stripe_accounts.charges_enabled = 1)`,
    })
    .from(users)
    .where(sql`${users.id} = ${ownerId}`)
    .limit(1);
}

/** No way to pay in the row (`stripeOn`: card payments are set up in this deployment). */
export function noWayToPay(row: { bank: number; link: number; stripe: number } | undefined, stripeOn: boolean) {
  return !row || (!row.bank && !row.link && !(stripeOn && row.stripe));
}
