import type Stripe from "stripe";
import type { HandledEvent, StripeEventContext } from "~/stripe/index.server";
import {
  markExpired,
  markFailed,
  markPending,
  type OnlinePaymentRow,
  onlinePaymentByIntent,
  onlinePaymentBySession,
  type ProviderAmount,
  recordPaid,
  recordReversal,
} from "./online-payments.server";
import { accountUpdated } from "./stripe-account.server";

/**
 * The connected accounts' events (POST /webhooks/stripe/connect, decisions/017 and 018): debtors'
 * payments through Checkout on their creditor's own Stripe account, and the accounts' onboarding.
 * Verified and de-duplicated by event id (app/http/stripe-webhooks.server.ts) before they get here.
 * Each event must name the connected account it happened on, in the deployment's mode; a session or
 * payment is acted on only when Dunly created it on that very account for that debtor
 * (online_payments), whatever its metadata says. Repeats of one payment under other event ids
 * change nothing (online-payments.server.ts).
 */
export async function handleConnectEvent(event: Stripe.Event, context: StripeEventContext): Promise<HandledEvent> {
  const account = event.account;
  if (!account) return { handled: false, reason: "no connected account on the event" };
  if (event.livemode !== context.stripe.livemode) return { handled: false, reason: "livemode mismatch" };
  const c = { env: context.env, config: context.config, db: context.db, now: context.now };
  switch (event.type) {
    case "account.updated": {
      const object = event.data.object;
      if (object.id !== account) return { handled: false, reason: "account mismatch" };
      return (await accountUpdated(context.db, object, context.now))
        ? { handled: true }
        : { handled: false, reason: "unknown connected account" };
    }
    case "checkout.session.expired": {
      const session = event.data.object;
      const row = await onlinePaymentBySession(context.db, session.id);
      const refused = mismatch(row, account, session.metadata);
      if (refused || !row) return { handled: false, reason: refused ?? "unknown session" };
      return (await markExpired(c, row)) ? { handled: true } : { handled: false, reason: "not open" };
    }
    case "checkout.session.completed":
    case "checkout.session.async_payment_succeeded":
    case "checkout.session.async_payment_failed": {
      const session = event.data.object;
      const row = await onlinePaymentBySession(context.db, session.id);
      const refused = mismatch(row, account, session.metadata);
      if (refused || !row) return { handled: false, reason: refused ?? "unknown session" };
      const intent = intentId(session.payment_intent);
      if (event.type === "checkout.session.async_payment_failed") {
        return (await markFailed(c, row)) ? { handled: true } : { handled: false, reason: "not pending" };
      }
      if (session.payment_status === "unpaid") {
        return (await markPending(c, row, intent)) ? { handled: true } : { handled: false, reason: "not open" };
      }
      if (session.payment_status !== "paid" || !intent) return { handled: false, reason: "not paid" };
      const outcome = await recordPaid(c, row, intent, { amount: session.amount_total, currency: session.currency });
      return outcome.recorded ? { handled: true } : { handled: false, reason: outcome.reason };
    }
    case "charge.refunded": {
      const charge = event.data.object;
      return reversal(c, account, intentId(charge.payment_intent), "payment_refunded", {
        amount: charge.amount_refunded,
        currency: charge.currency,
      });
    }
    case "charge.dispute.closed": {
      const dispute = event.data.object;
      if (dispute.status !== "lost") return { handled: false, reason: `dispute ${dispute.status}` };
      return reversal(c, account, intentId(dispute.payment_intent), "payment_dispute_lost", {
        amount: dispute.amount,
        currency: dispute.currency,
      });
    }
    default:
      return { handled: false, reason: `no handler for ${event.type}` };
  }
}

/** Why an event's session or payment is not acted on: unknown, on another account, or for another debtor. */
function mismatch(
  row: OnlinePaymentRow | undefined,
  account: string,
  metadata: Stripe.Metadata | null | undefined,
): string | null {
  if (!row) return "unknown session";
  if (row.accountId !== account) return "another connected account";
  const debtor = metadata?.dunly_debtor;
  if (debtor !== undefined && debtor !== String(row.debtorId)) return "metadata names another debtor";
  return null;
}

async function reversal(
  c: Parameters<typeof recordReversal>[0],
  account: string,
  intent: string | null,
  kind: "payment_refunded" | "payment_dispute_lost",
  total: ProviderAmount,
): Promise<HandledEvent> {
  if (!intent) return { handled: false, reason: "no payment intent" };
  const row = await onlinePaymentByIntent(c.db, intent);
  const refused = mismatch(row, account, undefined);
  if (refused || !row) return { handled: false, reason: refused ?? "unknown payment" };
  const outcome = await recordReversal(c, row, kind, total);
  return outcome.recorded ? { handled: true } : { handled: false, reason: outcome.reason };
}

const intentId = (value: string | { id: string } | null | undefined) =>
  typeof value === "string" ? value : (value?.id ?? null);
