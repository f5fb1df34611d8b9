import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { runWatchdog } from "~/watchdog/index.server";
import { apiJson, formAction } from "./data-helpers";
import { fireAt } from "./engine-helpers";
import { makeDebtor, makeSchedule } from "./fixtures";
import { DAY, get, location, outboxFor, pageText, postForm, signIn, uniqueEmail, visibleText } from "./helpers";
import { act, singleReminderFields } from "./schedule-helpers";
import { postStripeEvent, stripeEvent } from "./stripe-helpers";

/**
 * Dunly's own plans (docs/decisions/019): Subscribe opens Stripe Checkout (the local stand-in here),
 * only Stripe's verified events change the plan, the one plans table is enforced (debtors,
 * frequencies), and without a plan reminders hold until one is chosen. Each step is checked where
 * the user is told: Settings → Subscription, /pricing, the banner, the schedule's state, e-mails.
 */

interface BillingRow {
  plan: string;
  stripe_customer_id: string | null;
  stripe_subscription_id: string | null;
  subscription_status: string | null;
  current_period_end: number | null;
  cancel_at_period_end: number;
  trial_ends_at: number | null;
}

const billing = (userId: string) =>
  env.DB.prepare(
    "SELECT plan, stripe_customer_id, stripe_subscription_id, subscription_status, current_period_end, cancel_at_period_end, trial_ends_at FROM users WHERE id = ?",
  )
    .bind(userId)
    .first<BillingRow>() as Promise<BillingRow>;

const SOFT_LIMIT = "Your Soft plan allows up to 25 debtors. Upgrade on the Pricing page to add more.";
const NO_PLAN_BANNER = "Your trial has ended, so reminders are on hold. Choose a plan to resume them.";

async function seedDebtors(ownerId: string, rows: number) {
  await env.DB.prepare(
    `WITH RECURSIVE seq(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM seq WHERE n < ?1)
     INSERT INTO debtors (owner_id, full_name, email, debt_cents) SELECT ?2, 'Seeded ' || n, 'seeded-' || n || '@example.com', 1000 FROM seq`,
  )
    .bind(rows, ownerId)
    .run();
}

const debtorCount = async (ownerId: string) =>
  (await env.DB.prepare("SELECT count(*) AS n FROM debtors WHERE owner_id = ?").bind(ownerId).first<{ n: number }>())
    ?.n;

/**
 * Subscribes through /pricing and the stand-in's Checkout page, as a person clicks, once the trial has
 * ended (billed at once, 'active'): these tests follow a paying subscription. The first test
 * subscribes during the trial.
 */
async function subscribe({ cookie, userId }: { cookie: string; userId: string }, plan: string) {
  await env.DB.prepare("UPDATE users SET trial_ends_at = ? WHERE id = ?")
    .bind(Date.now() - 1000, userId)
    .run();
  const start = await postForm("/pricing", { plan }, { cookie });
  expect(start.status, await start.clone().text()).toBe(303);
  const checkout = location(start) as URL;
  expect(checkout.pathname).toMatch(/^\/dev\/checkout\/checkout\/cs_test_sub_/);
  const page = await get(checkout.pathname, { cookie });
  expect(await page.text()).toContain("Subscribe (card)");
  const done = await postForm(`${checkout.pathname}/subscribe`, {});
  expect(done.status).toBe(303);
  expect(location(done)?.href).toMatch(/\/iam\/subscription\?checkout=done$/);
}

/** Opens "Manage billing" and takes a portal action there; returns where the portal sent the browser. */
async function portal(cookie: string, action: string) {
  const manage = await postForm("/iam/subscription", {}, { cookie });
  expect(manage.status).toBe(303);
  const portalUrl = location(manage) as URL;
  expect(portalUrl.pathname).toMatch(/^\/dev\/checkout\/portal\/cus_/);
  const res = await postForm(`${portalUrl.pathname}/${action}${portalUrl.search}`, {});
  expect(res.status).toBe(303);
  return location(res)?.href;
}

describe("Subscribe on /pricing", () => {
  it("opens Checkout; the plan is the webhook's, never the redirect's; Settings shows it", async () => {
    const u = await signIn(uniqueEmail("subscribe"));
    const pricing = await visibleText(await get("/pricing", { cookie: u.cookie }));
    expect(pricing).toContain("14-day free trial of Medium");
    expect(pricing).toContain("subscribe now and billing starts then, not today");
    expect(pricing).toContain("excluding VAT and sales tax");
    expect(pricing).toContain("Up to 25 debtors");
    expect(pricing).toContain("Up to 2,000 debtors");
    // Each card's text allowance, as the send enforces it (decisions/069).
    expect(pricing).toContain("No text messages");
    expect(pricing).toContain("Up to 100 text messages a month, to the countries you enable");
    expect(pricing).toContain("Up to 500 text messages a month, to the countries you enable");
    expect(pricing).not.toMatch(/unlimited/i);
    expect(pricing).not.toMatch(/omnichannel/i);
    // Checkout takes what the Stripe account enables; PayPal is not something Dunly turns on.
    expect(pricing).not.toMatch(/PayPal/i);

    const start = await postForm("/pricing", { plan: "aggressive" }, { cookie: u.cookie });
    expect(start.status).toBe(303);
    const before = await billing(u.userId);
    expect(before.stripe_customer_id).toMatch(/^cus_/);
    expect(before.subscription_status).toBeNull();
    // Back from Checkout before Stripe's event: the page says it is being confirmed, the plan is unchanged.
    const waiting = await visibleText(await get("/iam/subscription?checkout=done", { cookie: u.cookie }));
    expect(waiting).toContain("Thank you — your plan is being confirmed");
    expect(waiting).toContain("Medium");

    const session = (location(start) as URL).pathname.split("/").pop();
    const done = await postForm(`/dev/checkout/checkout/${session}/subscribe`, {});
    expect(location(done)?.href).toMatch(/\/iam\/subscription\?checkout=done$/);
    const after = await billing(u.userId);
    // Subscribed during the 14-day trial: its days are kept, billing starts when it ends (Stripe's trial_end).
    expect(after).toMatchObject({ plan: "aggressive", subscription_status: "trialing", cancel_at_period_end: 0 });
    expect(after.stripe_customer_id).toBe(before.stripe_customer_id);
    expect(Math.abs((after.current_period_end ?? 0) - (after.trial_ends_at ?? 0))).toBeLessThan(1000);

    const settings = await visibleText(await get("/iam/subscription?checkout=done", { cookie: u.cookie }));
    expect(settings).toContain("Thank you — you are on the Aggressive plan.");
    expect(settings).toContain("Billing starts on");
    expect(settings).toContain("its days are kept, and nothing is charged before");
    expect(settings).toContain("Manage billing");
    expect(await visibleText(await get("/pricing", { cookie: u.cookie }))).toContain("You are on this plan.");

    // Subscribed already: Subscribe opens the portal (a plan change happens there), no second subscription.
    const again = await postForm("/pricing", { plan: "soft" }, { cookie: u.cookie });
    expect(location(again)?.href).toMatch(/\/dev\/checkout\/portal\/cus_/);
  });

  it("refuses an unknown plan with a message, not a 500", async () => {
    const u = await signIn(uniqueEmail("subscribe-bad"));
    const res = await postForm("/pricing", { plan: "platinum" }, { cookie: u.cookie });
    expect(res.status).toBe(400);
    expect(await pageText(res)).toContain("Choose one of the plans.");
  });

  it("ignores events of a customer Dunly did not link, and a checkout whose customer is not the user's", async () => {
    const u = await signIn(uniqueEmail("subscribe-foreign"));
    const sub = {
      id: "sub_foreign",
      object: "subscription",
      customer: "cus_nobody",
      status: "active",
      items: { data: [] },
    };
    const res = await postStripeEvent("billing", stripeEvent("customer.subscription.created", sub));
    expect(res.status).toBe(200);
    const checkout = {
      id: "cs_forged",
      object: "checkout.session",
      mode: "subscription",
      client_reference_id: u.userId,
      customer: "cus_nobody",
      subscription: "sub_foreign",
    };
    expect((await postStripeEvent("billing", stripeEvent("checkout.session.completed", checkout))).status).toBe(200);
    expect(await billing(u.userId)).toMatchObject({
      subscription_status: null,
      stripe_customer_id: null,
      plan: "medium",
    });
  });
});

describe("changing the plan in the billing portal", () => {
  it("upgrade, then a downgrade over the debtors limit deletes nothing and refuses the next add, naming the limit", async () => {
    const u = await signIn(uniqueEmail("downgrade"));
    await subscribe(u, "medium");
    expect((await billing(u.userId)).plan).toBe("medium");
    expect(await portal(u.cookie, "switch-aggressive")).toMatch(/\/iam\/subscription$/);
    expect(await billing(u.userId)).toMatchObject({ plan: "aggressive", subscription_status: "active" });

    await seedDebtors(u.userId, 30);
    const debtor = await makeDebtor(u.userId, { fullName: "Dora Daily" });
    const daily = await makeSchedule(u.userId, debtor.id, { frequency: "daily" });

    await portal(u.cookie, "switch-soft");
    expect((await billing(u.userId)).plan).toBe("soft");
    expect(await debtorCount(u.userId)).toBe(31);
    // The daily schedule made before keeps running: a downgrade stops nothing.
    const row = await env.DB.prepare("SELECT state FROM schedules WHERE id = ?").bind(daily).first<{ state: string }>();
    expect(row?.state).toBe("ENABLED");

    const typed = {
      intent: "debtor-add",
      kind: "person",
      full_name: "One More",
      email: "one-more@example.com",
      debt: "10",
    };
    const form = await formAction("/debtors-list", typed, u.cookie);
    expect(form.status).toBe(403);
    expect(form.data).toMatchObject({ ok: false, result: { error: { "": [SOFT_LIMIT] } } });
    expect(form.data.result.initialValue).toMatchObject({ full_name: "One More", email: "one-more@example.com" });
    const api = await apiJson("POST", "/debtors/add", {
      cookie: u.cookie,
      json: { full_name: "One More", email: "one-more@example.com", debt: 10, active_strategy: 1 },
    });
    expect(api.status).toBe(403);
    expect(api.body).toEqual({ success: false, error: SOFT_LIMIT });
    expect(await debtorCount(u.userId)).toBe(31);

    // Soft has no daily reminders: a new daily schedule is refused on its frequency; weekly is fine.
    const fields = { ...singleReminderFields(debtor.id), time_zone: "UTC" };
    const refused = await act(fields, { cookie: u.cookie });
    expect(refused.status).toBe(403);
    expect(refused.body?.result?.error?.frequency?.[0]).toContain("Your Soft plan does not include daily reminders");
    const weekly = await act({ ...fields, frequency: "weekly" }, { cookie: u.cookie });
    expect(weekly.status, weekly.text).toBeLessThan(400);
  });

  it("cancel at period end keeps the plan until then and says so", async () => {
    const u = await signIn(uniqueEmail("cancel"));
    await subscribe(u, "aggressive");
    await portal(u.cookie, "cancel");
    expect(await billing(u.userId)).toMatchObject({
      plan: "aggressive",
      subscription_status: "active",
      cancel_at_period_end: 1,
    });
    const settings = await visibleText(await get("/iam/subscription", { cookie: u.cookie }));
    expect(settings).toContain("Ends on");
    expect(settings).toContain("Your subscription is cancelled and ends on");
    expect(settings).not.toContain(NO_PLAN_BANNER);
  });

  it("a failed renewal keeps the plan while Stripe retries and e-mails the user; its end holds reminders, a new plan resumes them", async () => {
    const u = await signIn(uniqueEmail("renewal"));
    await subscribe(u, "medium");
    const debtor = await makeDebtor(u.userId, { fullName: "Rita Renewal" });
    const schedule = await makeSchedule(u.userId, debtor.id, { frequency: "weekly" });

    await portal(u.cookie, "renewal-fails");
    expect(await billing(u.userId)).toMatchObject({ plan: "medium", subscription_status: "past_due" });
    const mail = (await outboxFor(u.email)).filter((m) => m.subject === "Your Dunly payment failed");
    expect(mail).toHaveLength(1);
    expect(mail[0]?.text).toContain("Update your card");
    expect(await visibleText(await get("/iam/subscription", { cookie: u.cookie }))).toContain(
      "Payment failed: Stripe is trying the card again",
    );

    // Every retry failed: Stripe ends the subscription. The trial is long over too.
    await env.DB.prepare("UPDATE users SET trial_ends_at = ? WHERE id = ?")
      .bind(Date.now() - DAY, u.userId)
      .run();
    await portal(u.cookie, "end");
    expect(await billing(u.userId)).toMatchObject({ subscription_status: "canceled" });
    expect(await visibleText(await get("/iam/info", { cookie: u.cookie }))).toContain(NO_PLAN_BANNER);

    // The schedule's next run sends nothing and holds it; nothing is deleted.
    await fireAt(schedule, Date.now() - 1000);
    const held = await env.DB.prepare("SELECT state, stopped_reason FROM schedules WHERE id = ?")
      .bind(schedule)
      .first<{ state: string; stopped_reason: string }>();
    expect(held).toEqual({ state: "DISABLED", stopped_reason: "no_plan" });
    const sent = await env.DB.prepare("SELECT count(*) AS n FROM deliveries WHERE schedule_id = ? AND status = 'sent'")
      .bind(schedule)
      .first<{ n: number }>();
    expect(sent?.n).toBe(0);
    expect(await visibleText(await get("/schedules-list", { cookie: u.cookie }))).toContain(
      "Held: your trial has ended — choose a plan to resume reminders.",
    );

    // A plan again: the held schedule runs again.
    await subscribe(u, "soft");
    const resumed = await env.DB.prepare("SELECT state, stopped_reason FROM schedules WHERE id = ?")
      .bind(schedule)
      .first<{ state: string; stopped_reason: string | null }>();
    expect(resumed).toEqual({ state: "ENABLED", stopped_reason: null });
    expect(await visibleText(await get("/iam/info", { cookie: u.cookie }))).not.toContain(NO_PLAN_BANNER);
  });

  it("an older event never overwrites a newer state", async () => {
    const u = await signIn(uniqueEmail("order"));
    await subscribe(u, "aggressive");
    const b = await billing(u.userId);
    const stale = {
      id: b.stripe_subscription_id,
      object: "subscription",
      customer: b.stripe_customer_id,
      status: "active",
      cancel_at_period_end: false,
      items: { data: [{ price: { id: "price_standin_soft" }, current_period_end: 1 }] },
    };
    const old = stripeEvent("customer.subscription.updated", stale, { created: Math.floor(Date.now() / 1000) - 3600 });
    expect((await postStripeEvent("billing", old)).status).toBe(200);
    expect((await billing(u.userId)).plan).toBe("aggressive");
  });
});

describe("the trial", () => {
  it("e-mails three days before it ends and when it ends, once each; then reminders hold until a plan is chosen", async () => {
    const u = await signIn(uniqueEmail("trial"));
    const ends = Date.now() + 2 * DAY;
    await env.DB.prepare("UPDATE users SET trial_ends_at = ? WHERE id = ?").bind(ends, u.userId).run();
    const settings = await visibleText(await get("/iam/subscription", { cookie: u.cookie }));
    expect(settings).toContain("Medium");
    expect(settings).toContain("Trial ends on");

    // The watchdog on a fake clock: now, and again later the same day.
    await runWatchdog(env, Date.now());
    await runWatchdog(env, Date.now() + 60_000);
    const subjects = async () => (await outboxFor(u.email)).map((m) => m.subject);
    expect((await subjects()).filter((s) => s === "Your Dunly trial ends in 3 days")).toHaveLength(1);
    expect(await subjects()).not.toContain("Your Dunly trial has ended: reminders are on hold");

    await runWatchdog(env, ends + 60_000);
    await runWatchdog(env, ends + 120_000);
    expect((await subjects()).filter((s) => s === "Your Dunly trial has ended: reminders are on hold")).toHaveLength(1);

    // The trial is over for real: reminders hold, the banner says why, nothing is deleted.
    await env.DB.prepare("UPDATE users SET trial_ends_at = ? WHERE id = ?")
      .bind(Date.now() - 1000, u.userId)
      .run();
    const debtor = await makeDebtor(u.userId, { fullName: "Tina Trial" });
    const schedule = await makeSchedule(u.userId, debtor.id, { frequency: "weekly" });
    await fireAt(schedule, Date.now() - 1000);
    const row = await env.DB.prepare("SELECT stopped_reason FROM schedules WHERE id = ?")
      .bind(schedule)
      .first<{ stopped_reason: string }>();
    expect(row?.stopped_reason).toBe("no_plan");
    const dashboard = await visibleText(await get("/iam/info", { cookie: u.cookie }));
    expect(dashboard).toContain(NO_PLAN_BANNER);
    expect(await visibleText(await get("/iam/subscription", { cookie: u.cookie }))).toContain("You have no plan");
    expect(await debtorCount(u.userId)).toBe(1);

    // A subscriber gets no trial e-mails.
    const s = await signIn(uniqueEmail("trial-subscribed"));
    await subscribe(s, "soft");
    await env.DB.prepare("UPDATE users SET trial_ends_at = ? WHERE id = ?")
      .bind(Date.now() + DAY, s.userId)
      .run();
    await runWatchdog(env, Date.now());
    expect((await outboxFor(s.email)).map((m) => m.subject)).not.toContain("Your Dunly trial ends in 3 days");
  });
});
