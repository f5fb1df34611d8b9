import { describe, expect, it } from "vitest";
import { stripeSignatureHeader } from "~/stripe/signature";
import { STANDIN_WEBHOOK_SECRET } from "~/stripe/standin/config";
import { parseStripeForm } from "~/stripe/standin/store.server";
import { get } from "./helpers";
import { postStripeEvent, stripeEvent, testStripe } from "./stripe-helpers";

/**
 * The Stripe foundation (decisions/017): the SDK talks to the local stand-in through its fetch
 * client, and the webhook endpoints verify Stripe's signature on the raw body, refuse a stale or
 * forged one and handle an event id once.
 */
describe("the Stripe stand-in", () => {
  it("answers the SDK: a Checkout Session is created with its page's URL and read back", async () => {
    const stripe = testStripe();
    expect(stripe.standIn).toBe(true);
    const session = await stripe.client.checkout.sessions.create({
      mode: "payment",
      line_items: [
        { quantity: 1, price_data: { currency: "eur", unit_amount: 4200, product_data: { name: "INV-1" } } },
      ],
      success_url: "http://localhost/done",
      cancel_url: "http://localhost/back",
      metadata: { debtor: "7" },
    });
    expect(session).toMatchObject({ object: "checkout.session", amount_total: 4200, currency: "eur", status: "open" });
    expect(session.url).toMatch(/\/dev\/checkout\/checkout\/cs_test_/);
    const again = await stripe.client.checkout.sessions.retrieve(session.id);
    expect(again.metadata).toEqual({ debtor: "7" });
    const page = await get(new URL(session.url ?? "").pathname);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("42.00 EUR");
    await expect(stripe.client.checkout.sessions.retrieve("cs_test_missing")).rejects.toThrow(
      /No such checkout.session/,
    );
  });

  it("reads Stripe's form encoding", () => {
    expect(parseStripeForm("a[b][0][c]=1&a[b][1][c]=2&d=x&metadata[k]=v")).toEqual({
      a: { b: [{ c: "1" }, { c: "2" }] },
      d: "x",
      metadata: { k: "v" },
    });
  });
});

describe("the Stripe webhook endpoints", () => {
  it("take a signed event once; refuse a missing, forged or stale signature", async () => {
    const event = stripeEvent("balance.available", { id: "bal_1", object: "balance" });
    const ok = await postStripeEvent("connect", event);
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({ received: true });
    const again = await postStripeEvent("connect", event);
    expect(await again.json()).toMatchObject({ received: true, duplicate: true });

    const fresh = stripeEvent("balance.available", { id: "bal_2", object: "balance" });
    expect((await postStripeEvent("billing", fresh, { signature: null })).status).toBe(400);
    expect((await postStripeEvent("billing", fresh, { secret: "whsec_someoneelse" })).status).toBe(400);
    expect((await postStripeEvent("billing", fresh, { at: Date.now() - 10 * 60_000 })).status).toBe(400);
    // The body changed after signing.
    const signedFor = JSON.stringify(fresh);
    const tampered = await postStripeEvent("billing", fresh, {
      body: signedFor.replace("bal_2", "bal_3"),
      signature: await stripeSignatureHeader(signedFor, STANDIN_WEBHOOK_SECRET, Math.floor(Date.now() / 1000)),
    });
    expect(tampered.status).toBe(400);
    // None of the refused ones was recorded: the good one is still handled first time.
    expect(await (await postStripeEvent("billing", fresh)).json()).toMatchObject({ received: true });
  });

  it("has no other endpoint", async () => {
    const other = await get("/webhooks/stripe/other");
    expect(other.status).toBe(404);
  });
});
