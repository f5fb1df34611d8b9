import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { receiveStripeEvent } from "~/http/stripe-webhooks.server";
import { portalLink } from "~/links/debtor-pages.server";
import { invoiceRefs } from "~/links/signed-links.server";
import { readConfig } from "~/platform/config.server";
import { debtorResponsesQuery } from "~/responses/portal.server";
import { stripeSignatureHeader } from "~/stripe/signature";
import { fireAndSend, resendRequests } from "./engine-helpers";
import {
  db,
  debtorRow,
  eventsOf,
  invoicesOf,
  makeDebtor,
  makeSchedule,
  makeSignedInUser,
  makeUser,
  paymentsOf,
  scheduleRow,
  setSchedule,
} from "./fixtures";
import { DAY, get, location, outboxFor, postForm, visibleText } from "./helpers";
import { onlineRow, pay, postStripeEvent, session, connectSetup as setup, stripeEvent } from "./stripe-helpers";

/**
 * Debtors pay online through the user's own Stripe account (decisions/018): Pay creates a Checkout Session on the connected account for what the ledger says
 * is owed; the connect webhook records a paid session once per payment (stopping the reminders),
 * holds them while a bank payment is pending and releases the hold when it fails, and reopens what
 * a refund or a lost dispute takes back. Events go through the real endpoint, signed as Stripe signs.
 */

const config = () => readConfig(env);

/** The refusal of a second payment while a bank payment in that currency is pending. */
const PAY_PENDING =
  "A bank payment of yours in this currency is still being processed. Paying again could pay twice: this page says when it has arrived.";

describe("Pay creates a Checkout Session for what the ledger says is owed", () => {
  it("on the user's connected account, in the invoice's currency, with the owed amount", async () => {
    const { account, debtor, portal } = await setup({ invoices: [4200, 1000] });
    const all = await pay(portal);
    const stored = await env.DB.prepare("SELECT account, data FROM dev_stripe_objects WHERE id = ?")
      .bind(all)
      .first<{ account: string; data: string }>();
    expect(stored?.account).toBe(account);
    expect(JSON.parse(stored!.data)).toMatchObject({ amount_total: 5200, currency: "eur" });
    expect(await onlineRow(all)).toMatchObject({ status: "open", amount_cents: 5200, debtor_id: debtor.id });

    // One invoice, named by its reference.
    const [second] = (await invoicesOf(debtor.id)).filter((i) => i.amount_cents === 1000);
    const ref = await (await invoiceRefs(config(), (await debtorRow(debtor.id))!.opt_out_key!))(second!.id);
    const one = await pay(portal, { invoice: ref });
    expect(await onlineRow(one)).toMatchObject({ amount_cents: 1000 });
  });

  it("in whole yen for a zero-decimal currency, and records what Stripe took back in cents", async () => {
    const { user, account, debtor, portal } = await setup({ invoices: [1_234_500], currency: "JPY" });
    const id = await pay(portal);
    const stored = await env.DB.prepare("SELECT data FROM dev_stripe_objects WHERE id = ?")
      .bind(id)
      .first<{ data: string }>();
    // ¥12,345 is Stripe's 12345 (JPY has no minor unit), Dunly's 1,234,500 cents.
    expect(JSON.parse(stored!.data)).toMatchObject({ amount_total: 12_345, currency: "jpy" });
    const paid = session(id, {
      currency: "jpy",
      amount_total: 12_345,
      payment_status: "paid",
      payment_intent: "pi_yen_1",
    });
    const res = await postStripeEvent("connect", stripeEvent("checkout.session.completed", paid, { account }));
    expect(res.status).toBe(200);
    const [payment] = (await paymentsOf(debtor.id)).filter((p) => p.owner_id === user.id);
    expect(payment).toMatchObject({ amount_cents: 1_234_500, currency: "JPY" });
  });

  it("refuses a request that names its own amount or another debtor's invoice", async () => {
    const { portal } = await setup();
    const other = await setup();
    const before = await env.DB.prepare("SELECT count(*) AS n FROM online_payments").first<{ n: number }>();
    const tampered = await postForm(portal, { intent: "portal-pay", amount: "0.01" });
    expect(tampered.status).toBe(400);
    expect(await visibleText(tampered)).toContain("The amount to pay is taken from your statement");
    expect((await postForm(portal, { intent: "portal-pay", amount_cents: "1" })).status).toBe(400);
    expect((await postForm(portal, { intent: "portal-pay", debtor_id: String(other.debtor.id) })).status).toBe(400);
    // Another debtor's invoice reference means nothing beside this token.
    const [theirs] = await invoicesOf(other.debtor.id);
    const theirRef = await (await invoiceRefs(config(), (await debtorRow(other.debtor.id))!.opt_out_key!))(theirs!.id);
    const foreign = await postForm(portal, { intent: "portal-pay", invoice: theirRef });
    expect(foreign.status).toBe(400);
    expect(await visibleText(foreign)).toContain("Please choose one of your open invoices.");
    const after = await env.DB.prepare("SELECT count(*) AS n FROM online_payments").first<{ n: number }>();
    expect(after?.n).toBe(before?.n);
  });

  it("without a connected account uses the payment link; the reminder's Pay now follows the account", async () => {
    const user = await makeUser();
    await env.DB.prepare("UPDATE users SET payment_url = ? WHERE id = ?").bind("https://pay.example/me", user.id).run();
    const debtor = await makeDebtor(user.id, { timeZone: "America/New_York" });
    const portal = new URL(await portalLink(db(), config(), { id: debtor.id, ownerId: user.id, optOutKey: null }))
      .pathname;
    const res = await postForm(portal, { intent: "portal-pay" });
    expect(res.status).toBe(303);
    expect(String(location(res))).toBe("https://pay.example/me");
    expect(String(location(await get(`${portal}/pay`)))).toBe("https://pay.example/me");

    const connected = await setup();
    const id = await makeSchedule(connected.user.id, connected.debtor.id, { frequency: "daily", timeZone: "UTC" });
    const at = Date.UTC(2026, 9, 14, 17, 0);
    await setSchedule(id, { next_run_at: at });
    expect(await fireAndSend(id, at)).toMatchObject({ kind: "done", status: "sent" });
    const [sent] = await resendRequests(connected.debtor.email);
    expect(String(sent?.body.html)).toContain(`${connected.portal}/pay`);
    const started = await get(`${connected.portal}/pay`);
    expect(started.status).toBe(303);
    expect(String(location(started))).toMatch(/\/dev\/checkout\/checkout\/cs_test_/);
  });
});

describe("the connect webhook", () => {
  it("a completed payment between two firings: recorded once, the second reminder does not go out, one receipt", async () => {
    const { user, account, debtor, portal } = await setup();
    const id = await makeSchedule(user.id, debtor.id, { frequency: "daily", timeZone: "UTC" });
    const at = Date.UTC(2026, 9, 14, 17, 0);
    await setSchedule(id, { next_run_at: at });
    expect(await fireAndSend(id, at)).toMatchObject({ kind: "done", status: "sent" });

    const sessionId = await pay(portal);
    const paid = session(sessionId, {
      payment_status: "paid",
      payment_intent: `pi_once_${sessionId.slice(-8)}`,
      amount_total: 4200,
      metadata: { dunly_debtor: String(debtor.id) },
    });
    // The same payment three times, under three event ids (Stripe's retries, a second event type).
    for (const type of [
      "checkout.session.completed",
      "checkout.session.completed",
      "checkout.session.async_payment_succeeded",
    ]) {
      const res = await postStripeEvent("connect", stripeEvent(type, paid, { account }));
      expect(res.status).toBe(200);
    }
    const recorded = await paymentsOf(debtor.id);
    expect(recorded).toHaveLength(1);
    expect(recorded[0]).toMatchObject({ amount_cents: 4200, currency: "EUR", source: "stripe" });
    expect(recorded[0]?.provider_payment_id).toBe(`pi_once_${sessionId.slice(-8)}`);
    expect((await debtorRow(debtor.id))?.status).toBe("paid");
    expect(await scheduleRow(id)).toMatchObject({ state: "COMPLETED", stopped_reason: "paid" });
    expect(await fireAndSend(id, at + DAY)).toMatchObject({ kind: "gone" });
    expect(await resendRequests(debtor.email)).toHaveLength(2); // the reminder and one receipt
    const receipts = (await outboxFor(debtor.email)).filter((m) => m.subject.startsWith("Receipt:"));
    expect(receipts).toHaveLength(1);
    expect(receipts[0]?.subject).toBe("Receipt: €42.00 paid to Sally Sender");
    expect((await eventsOf(debtor.id)).filter((e) => e.type === "paid_online")).toHaveLength(1);
    const notices = await env.DB.prepare("SELECT kind FROM user_notifications WHERE owner_id = ?")
      .bind(user.id)
      .all<{ kind: string }>();
    expect(notices.results.map((n) => n.kind)).toEqual(["paid_online"]);
    // The dashboard's answers statement has its line.
    const lines = await debtorResponsesQuery(db(), user.id);
    expect(lines.map((l) => [l.kind, l.debtorId, l.reason])).toEqual([["paid_online", debtor.id, "4200 EUR"]]);
    // The page says so once the webhook recorded it.
    expect(await visibleText(await get(`${portal}?checkout=${sessionId}`))).toContain("Payment received, thank you");
  });

  it("a pending bank payment holds the reminders and counts nothing; failing, it releases them", async () => {
    const { user, account, debtor, portal } = await setup();
    const id = await makeSchedule(user.id, debtor.id, { frequency: "daily", timeZone: "UTC" });
    const sessionId = await pay(portal);
    expect(await visibleText(await get(`${portal}?checkout=${sessionId}`))).toContain("has not been confirmed yet");
    const pending = session(sessionId, { payment_status: "unpaid", payment_intent: `pi_bank_${sessionId.slice(-8)}` });
    await postStripeEvent("connect", stripeEvent("checkout.session.completed", pending, { account }));
    expect(await scheduleRow(id)).toMatchObject({ state: "DISABLED", stopped_reason: "payment_pending" });
    expect(await paymentsOf(debtor.id)).toHaveLength(0);
    expect((await debtorRow(debtor.id))?.status).toBe("active");
    expect(await visibleText(await get(`${portal}?checkout=${sessionId}`))).toContain("is being processed");
    // Meanwhile nothing in that currency can be paid again: both could arrive, paying it twice. The
    // page offers no Pay, a hand-made post is refused, and the reminder's Pay now leads to the page.
    expect(await visibleText(await get(portal))).not.toContain("Pay €42.00");
    const again = await postForm(portal, { intent: "portal-pay" });
    expect(again.status).toBe(409);
    expect(await visibleText(again)).toContain(PAY_PENDING);
    const payNow = await get(`${portal}/pay`);
    expect(payNow.status).toBe(303);
    expect(location(payNow)?.pathname).toBe(portal);
    expect(
      await env.DB.prepare("SELECT count(*) AS n FROM online_payments WHERE debtor_id = ?").bind(debtor.id).first("n"),
    ).toBe(1);

    await postStripeEvent("connect", stripeEvent("checkout.session.async_payment_failed", pending, { account }));
    expect(await scheduleRow(id)).toMatchObject({ state: "ENABLED", stopped_reason: null });
    expect(await paymentsOf(debtor.id)).toHaveLength(0);
    expect((await onlineRow(sessionId))?.status).toBe("failed");
    expect((await eventsOf(debtor.id)).map((e) => e.type)).toEqual(
      expect.arrayContaining(["payment_pending", "payment_failed"]),
    );
    // Failed, it pays nothing: Pay is offered again.
    expect(await visibleText(await get(portal))).toContain("Pay €42.00");
    await pay(portal);
  });

  it("a pending bank payment that succeeds is recorded and completes the schedules", async () => {
    const { user, account, debtor, portal } = await setup();
    const id = await makeSchedule(user.id, debtor.id, { frequency: "daily", timeZone: "UTC" });
    const sessionId = await pay(portal);
    const intent = `pi_bank_${sessionId.slice(-8)}`;
    await postStripeEvent(
      "connect",
      stripeEvent(
        "checkout.session.completed",
        session(sessionId, { payment_status: "unpaid", payment_intent: intent }),
        {
          account,
        },
      ),
    );
    const succeeded = session(sessionId, { payment_status: "paid", payment_intent: intent, amount_total: 4200 });
    await postStripeEvent("connect", stripeEvent("checkout.session.async_payment_succeeded", succeeded, { account }));
    expect(await paymentsOf(debtor.id)).toHaveLength(1);
    expect(await scheduleRow(id)).toMatchObject({ state: "COMPLETED", stopped_reason: "paid" });
  });

  it("a refund reopens the amount and shows it on the timeline without restarting reminders; so does a lost dispute", async () => {
    const { user, account, debtor, portal } = await setup();
    const id = await makeSchedule(user.id, debtor.id, { frequency: "daily", timeZone: "UTC" });
    const sessionId = await pay(portal);
    const intent = `pi_ref_${sessionId.slice(-8)}`;
    await postStripeEvent(
      "connect",
      stripeEvent(
        "checkout.session.completed",
        session(sessionId, { payment_status: "paid", payment_intent: intent, amount_total: 4200 }),
        { account },
      ),
    );
    expect((await debtorRow(debtor.id))?.status).toBe("paid");
    const charge = { id: "ch_1", object: "charge", amount: 4200, payment_intent: intent, currency: "eur" };
    // A partial refund, then the rest (Stripe's amount_refunded is cumulative); a repeat changes nothing.
    await postStripeEvent("connect", stripeEvent("charge.refunded", { ...charge, amount_refunded: 1200 }, { account }));
    await postStripeEvent("connect", stripeEvent("charge.refunded", { ...charge, amount_refunded: 1200 }, { account }));
    let [invoice] = await invoicesOf(debtor.id);
    expect(invoice).toMatchObject({ paid_cents: 3000, status: "open" });
    expect((await debtorRow(debtor.id))?.status).toBe("active");
    expect(await scheduleRow(id)).toMatchObject({ state: "COMPLETED", stopped_reason: "paid" });
    expect((await eventsOf(debtor.id)).filter((e) => e.type === "payment_refunded")).toHaveLength(1);

    const dispute = {
      id: "dp_1",
      object: "dispute",
      amount: 3000,
      currency: "eur",
      payment_intent: intent,
      status: "lost",
    };
    await postStripeEvent("connect", stripeEvent("charge.dispute.closed", dispute, { account }));
    [invoice] = await invoicesOf(debtor.id);
    expect(invoice).toMatchObject({ paid_cents: 0, status: "open" });
    expect((await paymentsOf(debtor.id))[0]).toMatchObject({ amount_cents: 0, source: "stripe" });
    expect(await scheduleRow(id)).toMatchObject({ state: "COMPLETED" });
    const types = (await eventsOf(debtor.id)).map((e) => e.type);
    expect(types).toEqual(expect.arrayContaining(["paid_online", "payment_refunded", "payment_dispute_lost"]));
  });

  it("ignores an event for another connected account, an unknown account, or in the other mode: nothing changes", async () => {
    const { account, debtor, portal } = await setup();
    const other = await setup();
    const sessionId = await pay(portal);
    const paid = session(sessionId, {
      payment_status: "paid",
      payment_intent: `pi_x_${sessionId.slice(-8)}`,
      amount_total: 4200,
    });
    const answers = [
      await postStripeEvent("connect", stripeEvent("checkout.session.completed", paid, { account: other.account })),
      await postStripeEvent("connect", stripeEvent("checkout.session.completed", paid, { account: "acct_unknown" })),
      await postStripeEvent("connect", stripeEvent("checkout.session.completed", paid)),
      await postStripeEvent("connect", stripeEvent("checkout.session.completed", paid, { account, livemode: true })),
      // Metadata that names another debtor is not believed either.
      await postStripeEvent(
        "connect",
        stripeEvent(
          "checkout.session.completed",
          { ...paid, metadata: { dunly_debtor: String(other.debtor.id) } },
          { account },
        ),
      ),
      await postStripeEvent(
        "connect",
        stripeEvent(
          "account.updated",
          { id: "acct_unknown", object: "account", charges_enabled: true },
          { account: "acct_unknown" },
        ),
      ),
    ];
    for (const res of answers) {
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ received: true, ignored: expect.any(String) });
    }
    expect(await paymentsOf(debtor.id)).toHaveLength(0);
    expect(await paymentsOf(other.debtor.id)).toHaveLength(0);
    expect((await onlineRow(sessionId))?.status).toBe("open");
  });
});

describe("a live deployment", () => {
  it("ignores a test-mode event for a known session: nothing changes", async () => {
    const { account, debtor, portal } = await setup();
    const sessionId = await pay(portal);
    const live = {
      ...config(),
      APP_ENV: "production" as const,
      STRIPE_SECRET_KEY: "sk_live_dunlytest",
      STRIPE_CONNECT_WEBHOOK_SECRET: "whsec_livetest",
      STRIPE_BILLING_WEBHOOK_SECRET: "whsec_livebilling",
      STRIPE_PRICE_SOFT: "price_s",
      STRIPE_PRICE_MEDIUM: "price_m",
      STRIPE_PRICE_AGGRESSIVE: "price_a",
    };
    const paid = session(sessionId, {
      payment_status: "paid",
      payment_intent: `pi_live_${sessionId.slice(-8)}`,
      amount_total: 4200,
    });
    const body = JSON.stringify(stripeEvent("checkout.session.completed", paid, { account }));
    const signature = await stripeSignatureHeader(body, "whsec_livetest", Math.floor(Date.now() / 1000));
    const answer = await receiveStripeEvent(env, live, "connect", body, signature);
    expect(answer).toMatchObject({ status: 200, body: { received: true, ignored: "test-mode event" } });
    expect(await paymentsOf(debtor.id)).toHaveLength(0);
    expect((await onlineRow(sessionId))?.status).toBe("open");
  });
});

describe("Settings: Get paid online", () => {
  it("connects through the hosted onboarding, shows the state, disconnects", async () => {
    const user = await makeSignedInUser();
    const cookie = `dunly_session=${user.token}`;
    expect(await visibleText(await get("/iam/info", { cookie }))).toContain("Connect with Stripe");
    const started = await postForm("/iam/stripe/connect", {}, { cookie });
    expect(started.status).toBe(303);
    const onboarding = String(location(started));
    expect(onboarding).toMatch(/\/dev\/checkout\/onboarding\/acct_/);
    expect(await visibleText(await get("/iam/info", { cookie }))).toContain("Onboarding incomplete");
    // The stand-in's "Finish onboarding": account.updated, then back to Settings.
    const url = new URL(onboarding);
    const finished = await postForm(`${url.pathname}/finish${url.search}`, {});
    expect(finished.status).toBe(303);
    expect(String(location(finished))).toContain("/iam/info?stripe=return");
    expect(await visibleText(await get("/iam/info", { cookie }))).toContain("Ready to take payments");
    expect((await postForm("/iam/stripe/disconnect", {}, { cookie })).status).toBe(303);
    expect(await visibleText(await get("/iam/info", { cookie }))).toContain("Connect with Stripe");
    // Signed out: no account is made.
    expect(String(location(await postForm("/iam/stripe/connect", {})))).not.toMatch(/onboarding/);
  });
});
