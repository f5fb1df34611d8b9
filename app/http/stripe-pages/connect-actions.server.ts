import { putObject, type StripeJson, standInId, updateObject } from "~/stripe/index.server";
import type { StandInAction, StandInActionContext } from "./actions.server";
import { deliverStandInEvent } from "./deliver.server";

/**
 * The stand-in's actions for debtors' payments and users' onboarding (Connect; decisions/017 and
 * 018). Each changes the stand-in's objects as Stripe would and delivers the events Stripe would
 * send to /webhooks/stripe/connect, each naming the connected account it happened on.
 */

const isPayment = (s: StripeJson) => s.mode === "payment";
const nowSeconds = () => Math.floor(Date.now() / 1000);

/** Where Checkout sends the browser after paying: the session's success_url with its id in it, as Stripe does. */
const successUrl = (s: StripeJson) => String(s.success_url ?? "/").replaceAll("{CHECKOUT_SESSION_ID}", s.id);

/** The session completed, with a new PaymentIntent (and its charge) that succeeded or is processing. */
async function complete(ctx: StandInActionContext, paid: boolean) {
  const { env, object, account } = ctx;
  const intent: StripeJson = {
    id: standInId("pi"),
    object: "payment_intent",
    amount: object.amount_total,
    amount_received: paid ? object.amount_total : 0,
    currency: object.currency,
    status: paid ? "succeeded" : "processing",
    latest_charge: standInId("ch"),
    metadata: object.metadata ?? {},
    created: nowSeconds(),
    livemode: false,
  };
  await putObject(env, intent, account);
  const session = await updateObject(env, object.id, {
    status: "complete",
    payment_status: paid ? "paid" : "unpaid",
    payment_intent: intent.id,
    payment_method_types: paid ? ["card"] : ["us_bank_account"],
  });
  if (session) await deliverStandInEvent(env, ctx.config, "connect", "checkout.session.completed", session, account);
  return session;
}

/** A charge of the session's PaymentIntent, as charge.* events carry it. */
function chargeOf(session: StripeJson, amountRefunded: number) {
  return {
    id: standInId("ch"),
    object: "charge",
    amount: session.amount_total,
    amount_refunded: amountRefunded,
    currency: session.currency,
    payment_intent: session.payment_intent,
    refunded: amountRefunded >= Number(session.amount_total ?? 0),
    status: "succeeded",
    livemode: false,
  };
}

export const CONNECT_STANDIN_ACTIONS: readonly StandInAction[] = [
  {
    id: "pay-card",
    label: "Pay by card",
    description:
      "The card payment succeeds: Stripe sends checkout.session.completed (payment_status 'paid') and returns to the success page.",
    page: "checkout",
    applies: (s) => isPayment(s) && s.status === "open",
    run: async (ctx) => {
      await complete(ctx, true);
      return successUrl(ctx.object);
    },
  },
  {
    id: "pay-bank",
    label: "Pay by bank (stays pending)",
    description:
      "A bank debit is started and stays pending: checkout.session.completed with payment_status 'unpaid'. Succeed or fail it on this page afterwards.",
    page: "checkout",
    applies: (s) => isPayment(s) && s.status === "open",
    run: async (ctx) => {
      await complete(ctx, false);
      return successUrl(ctx.object);
    },
  },
  {
    id: "expire",
    label: "Let the session expire",
    description:
      "The debtor leaves and the session expires unpaid, as Stripe's do after 24 hours: checkout.session.expired. It returns to the cancel page.",
    page: "checkout",
    applies: (s) => isPayment(s) && s.status === "open",
    run: async (ctx) => {
      const session = await updateObject(ctx.env, ctx.object.id, { status: "expired" });
      if (session)
        await deliverStandInEvent(ctx.env, ctx.config, "connect", "checkout.session.expired", session, ctx.account);
      return String(ctx.object.cancel_url ?? ctx.pageUrl);
    },
  },
  {
    id: "bank-succeeds",
    label: "Bank payment succeeds",
    description: "The pending bank payment arrives: checkout.session.async_payment_succeeded.",
    page: "checkout",
    applies: (s) => isPayment(s) && s.status === "complete" && s.payment_status === "unpaid" && !s.failed,
    run: async (ctx) => {
      const session = await updateObject(ctx.env, ctx.object.id, { payment_status: "paid" });
      if (session) {
        await updateObject(ctx.env, String(session.payment_intent), { status: "succeeded" });
        await deliverStandInEvent(
          ctx.env,
          ctx.config,
          "connect",
          "checkout.session.async_payment_succeeded",
          session,
          ctx.account,
        );
      }
      return ctx.pageUrl;
    },
  },
  {
    id: "bank-fails",
    label: "Bank payment fails",
    description: "The pending bank payment fails: checkout.session.async_payment_failed.",
    page: "checkout",
    applies: (s) => isPayment(s) && s.status === "complete" && s.payment_status === "unpaid" && !s.failed,
    run: async (ctx) => {
      const session = await updateObject(ctx.env, ctx.object.id, { failed: true });
      if (session) {
        await updateObject(ctx.env, String(session.payment_intent), { status: "requires_payment_method" });
        await deliverStandInEvent(
          ctx.env,
          ctx.config,
          "connect",
          "checkout.session.async_payment_failed",
          session,
          ctx.account,
        );
      }
      return ctx.pageUrl;
    },
  },
  {
    id: "refund",
    label: "Refund",
    description: "The user refunds the whole payment from their Stripe dashboard: charge.refunded.",
    page: "checkout",
    applies: (s) => isPayment(s) && s.payment_status === "paid" && !s.refunded && !s.dispute_lost,
    run: async (ctx) => {
      const session = await updateObject(ctx.env, ctx.object.id, { refunded: true });
      if (session) {
        const charge = chargeOf(session, Number(session.amount_total ?? 0));
        await deliverStandInEvent(ctx.env, ctx.config, "connect", "charge.refunded", charge, ctx.account);
      }
      return ctx.pageUrl;
    },
  },
  {
    id: "dispute-lost",
    label: "Lose a dispute",
    description:
      "The debtor's bank disputes the payment and the dispute is lost: charge.dispute.closed (status 'lost').",
    page: "checkout",
    applies: (s) => isPayment(s) && s.payment_status === "paid" && !s.refunded && !s.dispute_lost,
    run: async (ctx) => {
      const session = await updateObject(ctx.env, ctx.object.id, { dispute_lost: true });
      if (session) {
        const dispute = {
          id: standInId("dp"),
          object: "dispute",
          amount: session.amount_total,
          currency: session.currency,
          charge: standInId("ch"),
          payment_intent: session.payment_intent,
          reason: "fraudulent",
          status: "lost",
          livemode: false,
        };
        await deliverStandInEvent(ctx.env, ctx.config, "connect", "charge.dispute.closed", dispute, ctx.account);
      }
      return ctx.pageUrl;
    },
  },
  {
    id: "finish",
    label: "Finish onboarding",
    description:
      "The account's details are submitted and it can take charges: account.updated, then back to the return URL.",
    page: "onboarding",
    applies: (a) => !(a.charges_enabled && a.details_submitted),
    run: async (ctx) => {
      const account = await updateObject(ctx.env, ctx.object.id, {
        charges_enabled: true,
        payouts_enabled: true,
        details_submitted: true,
      });
      if (account) {
        await deliverStandInEvent(ctx.env, ctx.config, "connect", "account.updated", account, account.id, {
          charges_enabled: false,
          details_submitted: false,
        });
      }
      return ctx.query.get("return_url") || "/";
    },
  },
];
