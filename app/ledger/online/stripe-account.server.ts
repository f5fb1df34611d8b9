import { and, eq, isNull } from "drizzle-orm";
import type { Bindable, Db } from "~/db/client.server";
import { stripeAccounts } from "~/db/schema";
import type { AppConfig } from "~/platform/config.server";
import { type StripeSetup, stripeAvailable, stripeSetup } from "~/stripe/index.server";

/**
 * The user's own Stripe account (decisions/018): created
 * by Dunly's platform with controller properties that make it the user's (their Stripe dashboard,
 * they pay Stripe's fees, Stripe carries the losses of negative balances), onboarded on Stripe's
 * hosted pages through an Account Link. Debtors then pay into it by Checkout (direct charges).
 * Disconnecting stops Pay from using it and keeps the row, so its payments' history still reads.
 */

export type StripeAccountRow = typeof stripeAccounts.$inferSelect;

/** The owner's connected account (disconnected or not), or undefined. */
export function accountRow(db: Db, userId: string) {
  return db.select().from(stripeAccounts).where(eq(stripeAccounts.userId, userId)).get();
}

/** accountRow's statement, unrun, for a page's batch. */
export function accountRowQuery(db: Db, userId: Bindable<string>) {
  return db.select().from(stripeAccounts).where(eq(stripeAccounts.userId, userId)).limit(1);
}

/** The owner's account Pay uses: connected, not disconnected, charges enabled. Else undefined. */
export async function chargeableAccount(db: Db, userId: string): Promise<StripeAccountRow | undefined> {
  const row = await db
    .select()
    .from(stripeAccounts)
    .where(
      and(
        eq(stripeAccounts.userId, userId),
        isNull(stripeAccounts.disconnectedAt),
        eq(stripeAccounts.chargesEnabled, true),
      ),
    )
    .get();
  return row ?? undefined;
}

/** What Settings shows: none, onboarding not finished, or ready. */
export type ConnectionStatus = "none" | "onboarding" | "ready";

export function connectionStatus(row: StripeAccountRow | undefined): ConnectionStatus {
  if (!row || row.disconnectedAt !== null) return "none";
  return row.chargesEnabled && row.detailsSubmitted ? "ready" : "onboarding";
}

/**
 * "Connect with Stripe": the owner's account (made on first use, reused after a disconnect), then a
 * fresh Account Link to Stripe's hosted onboarding; returns its URL. `returnUrl` is Settings.
 */
export async function startOnboarding(
  db: Db,
  stripe: StripeSetup,
  user: { id: string; email: string },
  returnUrl: string,
  now: number,
): Promise<string> {
  let row = await accountRow(db, user.id);
  if (!row) {
    const account = await stripe.client.accounts.create(
      {
        email: user.email,
        // The user's own account (decisions/018): their dashboard, their fees, Stripe's losses.
        controller: {
          stripe_dashboard: { type: "full" },
          fees: { payer: "account" },
          losses: { payments: "stripe" },
        },
        metadata: { dunly_user: user.id },
      },
      // One account per user even when "Connect" is clicked twice at once.
      { idempotencyKey: `dunly-connect-${user.id}` },
    );
    await db
      .insert(stripeAccounts)
      .values({
        userId: user.id,
        accountId: account.id,
        chargesEnabled: account.charges_enabled ?? false,
        detailsSubmitted: account.details_submitted ?? false,
        livemode: stripe.livemode,
        connectedAt: now,
        updatedAt: now,
      })
      .onConflictDoNothing();
    row = await accountRow(db, user.id);
    if (!row) throw new Error("The connected account could not be stored");
  } else if (row.disconnectedAt !== null) {
    await db
      .update(stripeAccounts)
      .set({ disconnectedAt: null, connectedAt: now, updatedAt: now })
      .where(eq(stripeAccounts.userId, user.id));
  }
  const link = await stripe.client.accountLinks.create({
    account: row.accountId,
    type: "account_onboarding",
    refresh_url: `${returnUrl}${returnUrl.includes("?") ? "&" : "?"}stripe=refresh`,
    return_url: `${returnUrl}${returnUrl.includes("?") ? "&" : "?"}stripe=return`,
  });
  return link.url;
}

/**
 * After Stripe's onboarding returns: the account's state read from Stripe (the return URL says
 * nothing by itself; account.updated says it too). Best effort: a failure leaves the row as it is.
 */
export async function refreshAccount(db: Db, stripe: StripeSetup, userId: string, now: number) {
  const row = await accountRow(db, userId);
  if (!row || row.disconnectedAt !== null) return row;
  try {
    const account = await stripe.client.accounts.retrieve(row.accountId);
    await db
      .update(stripeAccounts)
      .set({
        chargesEnabled: account.charges_enabled ?? false,
        detailsSubmitted: account.details_submitted ?? false,
        updatedAt: now,
      })
      .where(eq(stripeAccounts.userId, userId));
  } catch (error) {
    console.error(`[dunly] stripe account ${row.accountId} could not be read: ${(error as Error).message}`);
  }
  return accountRow(db, userId);
}

/** "Disconnect": Pay stops using the account; the row and the payments' history stay. */
export async function disconnectAccount(db: Db, userId: string, now: number) {
  await db
    .update(stripeAccounts)
    .set({ disconnectedAt: now, updatedAt: now })
    .where(and(eq(stripeAccounts.userId, userId), isNull(stripeAccounts.disconnectedAt)));
}

/** account.updated for a connected account: its state, when Dunly knows the account. */
export async function accountUpdated(
  db: Db,
  account: { id: string; charges_enabled?: boolean | null; details_submitted?: boolean | null },
  now: number,
): Promise<boolean> {
  const updated = await db
    .update(stripeAccounts)
    .set({
      chargesEnabled: account.charges_enabled ?? false,
      detailsSubmitted: account.details_submitted ?? false,
      updatedAt: now,
    })
    .where(eq(stripeAccounts.accountId, account.id))
    .returning({ userId: stripeAccounts.userId });
  return updated.length > 0;
}

/** Settings' "Get paid online": whether Stripe is set up, and the account's state (read again from Stripe when `refresh`). */
export async function stripeConnectView(
  env: Env,
  config: AppConfig,
  db: Db,
  userId: string,
  refresh: boolean,
  /** The account row as the page's batch read it (`row` undefined: none); absent: read it here. */
  read?: { row: StripeAccountRow | undefined },
) {
  // The client is built only to read the account again from Stripe (stripeAvailable).
  if (!stripeAvailable(config)) return { available: false, status: "none" as const, accountId: null };
  const stripe = refresh ? stripeSetup(config, env) : null;
  const row = stripe
    ? await refreshAccount(db, stripe, userId, Date.now())
    : read
      ? read.row
      : await accountRow(db, userId);
  const status = connectionStatus(row);
  return { available: true, status, accountId: status === "none" ? null : (row?.accountId ?? null) };
}
