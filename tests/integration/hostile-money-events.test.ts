import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { CHECKOUT_LIFETIME_MS } from "~/ledger/index.server";
import { runHousekeeping } from "~/watchdog/index.server";
import { db, debtorRow, makeSignedInUser, paymentsOf } from "./fixtures";
import { outboxFor } from "./helpers";
import { connectSetup, onlineRow, pay, postStripeEvent, session, stripeEvent } from "./stripe-helpers";

/**
 * Hostile input at the money events: signed, well-formed Stripe events whose contents must still
 * not be believed. A negative, fractional, NaN, absurd or other-currency amount is ignored with its
 * reason (200, so Stripe stops sending it), a subscription Stripe does not have is ignored, an
 * abandoned checkout expires, an event for a deleted account changes nothing, and the database
 * itself refuses a payment below 0.
 */

const ignored = async (res: Response) => {
  expect(res.status).toBe(200);
  return ((await res.json()) as { ignored?: string }).ignored;
};

describe("a paid Checkout Session's amount is checked before it counts", () => {
  it("refuses -5000, NaN, a string, a fraction, an absurd amount and another currency; 0 records nothing; then the real one counts", async () => {
    const { account, debtor, portal } = await connectSetup();
    const sessionId = await pay(portal);
    const paid = (fields: Record<string, unknown>, n: number) =>
      session(sessionId, {
        payment_status: "paid",
        payment_intent: `pi_hostile_${n}_${sessionId.slice(-8)}`,
        amount_total: 4200,
        ...fields,
      });
    const hostile: [Record<string, unknown>, RegExp][] = [
      [{ amount_total: -5000 }, /^amount refused: amount -5000 is not a whole number of at least 0$/],
      [{ amount_total: "NaN" }, /^amount refused: amount "NaN"/],
      [{ amount_total: "4200" }, /^amount refused: amount "4200"/],
      [{ amount_total: 4200.5 }, /^amount refused: amount 4200.5/],
      [{ amount_total: null }, /^amount refused: amount null/],
      [{ amount_total: 1e20 }, /^amount refused: amount 100000000000000000000/],
      [{ amount_total: 100_000_000_001 }, /more than Dunly keeps/],
      [{ currency: "usd" }, /^amount refused: currency "usd" is not EUR$/],
      [{ currency: undefined }, /^amount refused: currency null is not EUR$/],
      [{ amount_total: 0 }, /^nothing received$/],
    ];
    for (const [i, [fields, reason]] of hostile.entries()) {
      const res = await postStripeEvent(
        "connect",
        stripeEvent("checkout.session.completed", paid(fields, i), { account }),
      );
      expect(await ignored(res), JSON.stringify(fields)).toMatch(reason);
    }
    expect(await paymentsOf(debtor.id)).toEqual([]);
    expect((await onlineRow(sessionId))?.status).toBe("open");
    expect((await outboxFor(debtor.email)).filter((m) => m.subject.startsWith("Receipt:"))).toEqual([]);
    expect((await debtorRow(debtor.id))?.status).not.toBe("paid");

    // A sane event for the same session still counts, once.
    const res = await postStripeEvent("connect", stripeEvent("checkout.session.completed", paid({}, 99), { account }));
    expect(await ignored(res)).toBeUndefined();
    expect((await paymentsOf(debtor.id)).map((p) => p.amount_cents)).toEqual([4200]);
    expect((await outboxFor(debtor.email)).map((m) => m.subject)).toContain("Receipt: €42.00 paid to Sally Sender");
  });

  it("a refund or a lost dispute with a negative, absurd or other-currency amount is ignored; the payment stays", async () => {
    const { account, debtor, portal } = await connectSetup();
    const sessionId = await pay(portal);
    const intent = `pi_refund_${sessionId.slice(-8)}`;
    const paid = session(sessionId, { payment_status: "paid", payment_intent: intent, amount_total: 4200 });
    await postStripeEvent("connect", stripeEvent("checkout.session.completed", paid, { account }));
    const charge = (fields: Record<string, unknown>) => ({
      id: `ch_${crypto.randomUUID().slice(0, 8)}`,
      object: "charge",
      payment_intent: intent,
      currency: "eur",
      amount_refunded: 1000,
      ...fields,
    });
    for (const fields of [{ amount_refunded: -4200 }, { amount_refunded: 1e300 }, { currency: "jpy" }]) {
      const res = await postStripeEvent("connect", stripeEvent("charge.refunded", charge(fields), { account }));
      expect(await ignored(res), JSON.stringify(fields)).toMatch(/^amount refused: /);
    }
    const dispute = {
      id: "dp_hostile",
      object: "dispute",
      status: "lost",
      payment_intent: intent,
      amount: -1,
      currency: "eur",
    };
    expect(
      await ignored(await postStripeEvent("connect", stripeEvent("charge.dispute.closed", dispute, { account }))),
    ).toMatch(/^amount refused: /);
    expect((await paymentsOf(debtor.id)).map((p) => p.amount_cents)).toEqual([4200]);
    expect((await onlineRow(sessionId))?.refunded_cents).toBe(0);
  });

  it("the database refuses a payment below 0, inserted or updated", async () => {
    const { user, debtor } = await connectSetup();
    const insert = (cents: number) =>
      env.DB.prepare(
        "INSERT INTO payments (owner_id, debtor_id, amount_cents, currency, paid_on) VALUES (?, ?, ?, 'EUR', '2026-11-28')",
      )
        .bind(user.id, debtor.id, cents)
        .run();
    await expect(insert(-1)).rejects.toThrow(/payments.amount_cents must be a whole number of at least 0/);
    await insert(0);
    const [row] = await paymentsOf(debtor.id);
    await expect(
      env.DB.prepare("UPDATE payments SET amount_cents = -5000 WHERE id = ?").bind(row!.id).run(),
    ).rejects.toThrow(/at least 0/);
    expect((await paymentsOf(debtor.id)).map((p) => p.amount_cents)).toEqual([0]);
  });
});

describe("abandoned checkouts", () => {
  it("checkout.session.expired closes an open session; a replay changes nothing; a late payment made before it still counts", async () => {
    const { account, debtor, portal } = await connectSetup();
    const sessionId = await pay(portal);
    const expired = session(sessionId, { status: "expired", payment_status: "unpaid", amount_total: 4200 });
    expect(
      await ignored(await postStripeEvent("connect", stripeEvent("checkout.session.expired", expired, { account }))),
    ).toBeUndefined();
    expect((await onlineRow(sessionId))?.status).toBe("expired");
    expect(
      await ignored(await postStripeEvent("connect", stripeEvent("checkout.session.expired", expired, { account }))),
    ).toBe("not open");
    // Another account's expiry of this session is not believed.
    const other = await connectSetup();
    const otherSession = await pay(other.portal);
    expect(
      await ignored(
        await postStripeEvent(
          "connect",
          stripeEvent("checkout.session.expired", { ...expired, id: otherSession }, { account }),
        ),
      ),
    ).toBe("another connected account");
    expect((await onlineRow(otherSession))?.status).toBe("open");

    const paid = session(sessionId, {
      payment_status: "paid",
      payment_intent: `pi_late_${sessionId.slice(-8)}`,
      amount_total: 4200,
    });
    await postStripeEvent("connect", stripeEvent("checkout.session.completed", paid, { account }));
    expect((await paymentsOf(debtor.id)).map((p) => p.amount_cents)).toEqual([4200]);
  });

  it("the cron's sweep expires sessions still open past Stripe's lifetime, and only those", async () => {
    const { portal } = await connectSetup();
    const old = await pay(portal);
    const recent = await pay(portal);
    const now = Date.now();
    await env.DB.prepare("UPDATE online_payments SET created_at = ? WHERE session_id = ?")
      .bind(now - CHECKOUT_LIFETIME_MS - 1, old)
      .run();
    const result = await runHousekeeping(env, now);
    expect(result.expiredCheckouts).toBeGreaterThanOrEqual(1);
    expect((await onlineRow(old))?.status).toBe("expired");
    expect((await onlineRow(recent))?.status).toBe("open");
    // The sweep reads the partial index, not the table.
    const plan = await env.DB.prepare(
      "EXPLAIN QUERY PLAN SELECT session_id FROM online_payments WHERE status = 'open' AND created_at <= ? LIMIT 500",
    )
      .bind(now)
      .all<{ detail: string }>();
    expect(plan.results.map((r) => r.detail).join(" ")).toMatch(/USING (COVERING )?INDEX online_payments_open_idx/);
  });
});

describe("events Dunly cannot act on are answered 200 and ignored, never retried for days", () => {
  it("a subscription Stripe does not have", async () => {
    const user = await makeSignedInUser("Billy Billing");
    const customer = `cus_hostile_${crypto.randomUUID().slice(0, 8)}`;
    await env.DB.prepare("UPDATE users SET stripe_customer_id = ? WHERE id = ?").bind(customer, user.id).run();
    const checkout = {
      id: "cs_test_sub_missing",
      object: "checkout.session",
      mode: "subscription",
      client_reference_id: user.id,
      customer,
      subscription: "sub_does_not_exist",
    };
    const res = await postStripeEvent("billing", stripeEvent("checkout.session.completed", checkout));
    expect(await ignored(res)).toBe("no such subscription at Stripe: sub_does_not_exist");
    const row = await env.DB.prepare("SELECT subscription_status FROM users WHERE id = ?").bind(user.id).first();
    expect(row).toMatchObject({ subscription_status: null });
  });

  it("a payment for an account deleted meanwhile, and a replay of an event already handled", async () => {
    const { user, account, debtor, portal } = await connectSetup();
    const sessionId = await pay(portal);
    const paid = session(sessionId, {
      payment_status: "paid",
      payment_intent: `pi_gone_${sessionId.slice(-8)}`,
      amount_total: 4200,
    });
    const event = stripeEvent("checkout.session.completed", paid, { account });
    await db().run(`DELETE FROM users WHERE id = '${user.id}'`);
    expect(await ignored(await postStripeEvent("connect", event))).toBe("unknown session");
    expect(await paymentsOf(debtor.id)).toEqual([]);
    expect(await outboxFor(debtor.email)).toEqual([]);
    // The same event id again: de-duplicated before any handler.
    const again = await postStripeEvent("connect", event);
    expect(again.status).toBe(200);
    expect(await paymentsOf(debtor.id)).toEqual([]);
  });
});
