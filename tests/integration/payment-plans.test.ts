import { env } from "cloudflare:workers";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { addDays } from "~/domain/promise";
import { localDateString } from "~/domain/schedule-time";
import { sendPlanLetter } from "~/ledger/plans/plan-letters.server";
import { debtorPlans } from "~/ledger/plans/plans.server";
import { portalLink } from "~/links/debtor-pages.server";
import { readConfig } from "~/platform/config.server";
import { runPlanWatch } from "~/watchdog/index.server";
import { formAction, replyErrors } from "./data-helpers";
import { HOUR, stubOf } from "./engine-helpers";
import {
  db,
  eventsOf,
  makeDebtor,
  makeInvoice,
  makeSchedule,
  makeSignedInUser,
  payInvoice,
  scheduleRow,
} from "./fixtures";
import { get, pageText, postForm, SESSION_COOKIE } from "./helpers";
import { connectSetup, onlineRow } from "./stripe-helpers";

/**
 * Payment plans (decisions/066) through the debtor's page and the user's debtor page: the request
 * (held reminders, the user told), its refusals (a count over 12, under one unit an instalment, a
 * past first date, amounts in the debtor's number format), two requests at once making one plan.
 */

const config = () => readConfig(env);

interface PlanRow {
  id: number;
  status: string;
  proposed_by: string;
  total_cents: number;
  paid_at_start_cents: number;
  first_on: string;
  currency: string;
}

const plansOf = async (debtorId: number) =>
  (await env.DB.prepare("SELECT * FROM payment_plans WHERE debtor_id = ? ORDER BY id").bind(debtorId).all<PlanRow>())
    .results;
const instalmentsOf = async (planId: number) =>
  (
    await env.DB.prepare("SELECT seq, due_on, amount_cents FROM plan_instalments WHERE plan_id = ? ORDER BY seq")
      .bind(planId)
      .all<{ seq: number; due_on: string; amount_cents: number }>()
  ).results;
const coveredOf = async (planId: number) =>
  (
    await env.DB.prepare("SELECT invoice_id FROM plan_invoices WHERE plan_id = ? ORDER BY invoice_id")
      .bind(planId)
      .all<{ invoice_id: number }>()
  ).results.map((r) => r.invoice_id);
const noticesOf = async (debtorId: number) =>
  (
    await env.DB.prepare("SELECT kind FROM user_notifications WHERE debtor_id = ?")
      .bind(debtorId)
      .all<{ kind: string }>()
  ).results.map((r) => r.kind);

/** A user whose debtor (in UTC, their language `language`) owes €1,000 + €500 (partly paid €100), with an armed schedule. */
async function setUp({ language = null as string | null } = {}) {
  const user = await makeSignedInUser("Sally Sender");
  const cookie = `${SESSION_COOKIE}=${user.token}`;
  const debtor = await makeDebtor(user.id, { invoice: false, debtCents: 150000, currency: "EUR", timeZone: "UTC" });
  if (language) await env.DB.prepare("UPDATE debtors SET language = ? WHERE id = ?").bind(language, debtor.id).run();
  const a = await makeInvoice(user.id, debtor.id, { number: `A-${debtor.id}`, amountCents: 100000, currency: "EUR" });
  const b = await makeInvoice(user.id, debtor.id, { number: `B-${debtor.id}`, amountCents: 50000, currency: "EUR" });
  await payInvoice(user.id, debtor.id, b, 10000, "EUR");
  const schedule = await makeSchedule(user.id, debtor.id);
  await stubOf(schedule).arm(schedule, Date.now() + HOUR, { force: true });
  const url = await portalLink(db(), config(), { id: debtor.id, ownerId: user.id, optOutKey: null });
  return { user, cookie, debtor, invoices: [a, b], schedule, path: new URL(url).pathname };
}
type Setup = Awaited<ReturnType<typeof setUp>>;

const today = () => localDateString(Date.now(), "UTC");
const ask = (s: Setup, fields: Record<string, string>) =>
  postForm(s.path, { intent: "portal-plan-request", how: "count", count: "3", first_on: today(), ...fields });

describe("a debtor asks for a payment plan on their page", () => {
  it("makes the plan over the unpaid principal, holds their reminders and tells the user", async () => {
    const s = await setUp();
    const page = await pageText(await get(s.path));
    expect(page).toContain("Pay in instalments");

    const res = await ask(s, { first_on: addDays(today(), 5) ?? "" });
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toContain("done=plan-requested");
    const [plan] = await plansOf(s.debtor.id);
    expect(plan).toMatchObject({
      status: "requested",
      proposed_by: "debtor",
      total_cents: 140000,
      paid_at_start_cents: 10000,
      currency: "EUR",
    });
    const first = addDays(today(), 5) ?? "";
    expect((await instalmentsOf(plan!.id)).map((i) => i.amount_cents)).toEqual([46666, 46666, 46668]);
    expect((await instalmentsOf(plan!.id))[0]?.due_on).toBe(first);
    expect(await coveredOf(plan!.id)).toEqual([...s.invoices].sort((x, y) => x - y));
    expect(await scheduleRow(s.schedule)).toMatchObject({ state: "DISABLED", stopped_reason: "plan_requested" });
    expect((await eventsOf(s.debtor.id)).map((e) => e.type)).toContain("plan_requested");
    expect(await noticesOf(s.debtor.id)).toContain("plan_requested");

    // The page shows the request, and offers no second one in that currency.
    const shown = await pageText(await get(`${s.path}?done=plan-requested`));
    expect(shown).toContain("You asked Sally Sender for a payment plan");
    expect(shown).not.toContain("Ask for a payment plan</button>");
    const again = await ask(s, {});
    expect(again.status).toBe(409);
    expect(await plansOf(s.debtor.id)).toHaveLength(1);
  });

  it("refuses 13 instalments, under one unit an instalment and a past date, keeping what was typed", async () => {
    const s = await setUp();
    const thirteen = await ask(s, { count: "13" });
    expect(thirteen.status).toBe(400);
    const text = await pageText(thirteen);
    expect(text).toContain("Choose 2 to 12 instalments.");
    expect(text).toContain('value="13"');

    const cents = await ask(s, { how: "amount", amount: "0.50" });
    expect(cents.status).toBe(400);
    const centsText = await pageText(cents);
    expect(centsText).toContain("Each instalment must be at least 1 in the currency");
    expect(centsText).toContain('value="0.50"');

    const past = await ask(s, { first_on: addDays(today(), -1) ?? "" });
    expect(past.status).toBe(400);
    expect(await pageText(past)).toContain("Choose a date from");

    const tooMany = await ask(s, { how: "amount", amount: "100" });
    expect(tooMany.status).toBe(400);
    expect(await pageText(tooMany)).toContain("That takes more than 12 months");
    expect(await plansOf(s.debtor.id)).toHaveLength(0);
    expect(await scheduleRow(s.schedule)).toMatchObject({ state: "ENABLED" });
  });

  it("reads an amount per month as the debtor writes it: 1.234,56 on a German page", async () => {
    const s = await setUp({ language: "de" });
    const res = await ask(s, { how: "amount", amount: "1.234,56" });
    expect(res.status).toBe(302);
    const [plan] = await plansOf(s.debtor.id);
    // €1,400.00 at €1,234.56 a month: the first and €165.44 after.
    expect((await instalmentsOf(plan!.id)).map((i) => i.amount_cents)).toEqual([123456, 16544]);

    const other = await setUp({ language: "de" });
    const refused = await ask(other, { how: "amount", amount: "1,234.56" });
    expect(refused.status).toBe(400);
    expect(await pageText(refused)).toContain("in einem anderen Zahlenformat");
  });

  it("makes one plan of two requests at once", async () => {
    const s = await setUp();
    const answers = await Promise.all([ask(s, { count: "2" }), ask(s, { count: "4" })]);
    expect(answers.map((r) => r.status).sort()).toEqual([302, 409]);
    const plans = await plansOf(s.debtor.id);
    expect(plans).toHaveLength(1);
    const instalments = await instalmentsOf(plans[0]!.id);
    expect(instalments.reduce((sum, i) => sum + i.amount_cents, 0)).toBe(140000);
    expect([2, 4]).toContain(instalments.length);
  });
});

const pausesOf = async (planId: number) =>
  (
    await env.DB.prepare(
      "SELECT invoice_id, reason, from_on, to_on FROM charge_pauses WHERE plan_id = ? ORDER BY invoice_id",
    )
      .bind(planId)
      .all<{ invoice_id: number; reason: string; from_on: string; to_on: string | null }>()
  ).results;
const lettersOf = async (debtorId: number) =>
  (
    await env.DB.prepare(
      "SELECT idem_key, payload FROM emails WHERE debtor_id = ? AND kind = 'plan-letter' ORDER BY id",
    )
      .bind(debtorId)
      .all<{ idem_key: string; payload: string }>()
  ).results.map((r) => ({ key: r.idem_key, message: JSON.parse(r.payload).message }));
const statementLines = async (debtorId: number) =>
  (
    await env.DB.prepare(
      "SELECT i.id FROM invoices AS i WHERE i.debtor_id = ? AND i.status = 'open' AND NOT EXISTS (SELECT 1 FROM plan_invoices AS pi JOIN payment_plans AS pp ON pp.id = pi.plan_id WHERE pi.invoice_id = i.id AND pp.status = 'active')",
    )
      .bind(debtorId)
      .all<{ id: number }>()
  ).results.map((r) => r.id);

/** The setup with the debtor's request for 3 instalments from today made on their page. */
async function requested() {
  const s = await setUp();
  expect((await ask(s, {})).status).toBe(302);
  const [plan] = await plansOf(s.debtor.id);
  return { ...s, planId: plan!.id, page: `/debtors/${s.debtor.id}` };
}

describe("the user answers a request", () => {
  it("shows it on the debtor page and the dashboard, and accepting makes it active with its pauses and confirmation", async () => {
    const s = await requested();
    const page = await pageText(await get(s.page, { cookie: s.cookie }));
    expect(page).toContain("Payment plans");
    expect(page).toContain("asked to pay in instalments");
    const dashboard = await pageText(await get("/dashboard", { cookie: s.cookie }));
    expect(dashboard).toContain("asked to pay €1,400.00 in 3 instalments");

    const { status, data } = await formAction(
      s.page,
      { intent: "plan-accept", plan_id: String(s.planId), grace_days: "5", auto_break: "on" },
      s.cookie,
    );
    expect(status).toBe(200);
    expect(data.message).toContain("Plan accepted");
    const [plan] = await plansOf(s.debtor.id);
    expect(plan).toMatchObject({ status: "active" });
    const row = await env.DB.prepare("SELECT grace_days, auto_break, started_on FROM payment_plans WHERE id = ?")
      .bind(s.planId)
      .first<{ grace_days: number; auto_break: number; started_on: string }>();
    expect(row).toEqual({ grace_days: 5, auto_break: 1, started_on: today() });
    expect(await pausesOf(s.planId)).toEqual(
      [...s.invoices]
        .sort((a, b) => a - b)
        .map((id) => ({ invoice_id: id, reason: "plan", from_on: today(), to_on: null })),
    );
    // Its invoices leave the regular reminders; the request's hold is lifted.
    expect(await statementLines(s.debtor.id)).toEqual([]);
    expect((await scheduleRow(s.schedule))?.stopped_reason).not.toBe("plan_requested");
    expect((await eventsOf(s.debtor.id)).map((e) => e.type)).toContain("plan_accepted");
    // The confirmation lists every date and amount, with the page's link.
    const [letter] = await lettersOf(s.debtor.id);
    expect(letter?.key).toBe(`plan:${s.planId}:0:confirmed`);
    expect(letter?.message.kind).toBe("confirmed");
    expect(letter?.message.instalments).toHaveLength(3);
    expect(letter?.message.instalments[2].amount).toBe("€466.68");
    expect(letter?.message.portalUrl).toContain("/d/");

    // A second answer changes nothing.
    const again = await formAction(s.page, { intent: "plan-decline", plan_id: String(s.planId) }, s.cookie);
    expect(again.status).toBe(409);
    expect((await plansOf(s.debtor.id))[0]?.status).toBe("active");
  });

  it("declines with a message the debtor is sent, and the held reminders run again", async () => {
    const s = await requested();
    const long = await formAction(
      s.page,
      { intent: "plan-decline", plan_id: String(s.planId), message: "x".repeat(1001) },
      s.cookie,
    );
    expect(long.status).toBe(400);
    expect(replyErrors(long.data).message?.[0]).toContain("1000 characters");
    const { status } = await formAction(
      s.page,
      { intent: "plan-decline", plan_id: String(s.planId), message: "Please call us" },
      s.cookie,
    );
    expect(status).toBe(200);
    expect((await plansOf(s.debtor.id))[0]?.status).toBe("declined");
    expect(await scheduleRow(s.schedule)).toMatchObject({ state: "ENABLED", stopped_reason: null });
    const [letter] = await lettersOf(s.debtor.id);
    expect(letter?.message).toMatchObject({ kind: "declined", note: "Please call us" });
    const portal = await pageText(await get(s.path));
    expect(portal).toContain("could not agree to your payment plan");
    expect(portal).toContain("Please call us");
  });

  it("a change becomes the user's offer, which the debtor accepts on their page", async () => {
    const s = await requested();
    const refused = await formAction(
      s.page,
      { intent: "plan-edit", plan_id: String(s.planId), how: "count", count: "13", first_on: today(), grace_days: "7" },
      s.cookie,
    );
    expect(refused.status).toBe(400);
    expect(replyErrors(refused.data).count?.[0]).toBe("Choose 2 to 12 instalments.");
    const { status } = await formAction(
      s.page,
      {
        intent: "plan-edit",
        plan_id: String(s.planId),
        how: "amount",
        amount: "700",
        first_on: today(),
        grace_days: "7",
      },
      s.cookie,
    );
    expect(status).toBe(200);
    const [plan] = await plansOf(s.debtor.id);
    expect(plan).toMatchObject({ status: "offered", proposed_by: "user" });
    expect((await instalmentsOf(s.planId)).map((i) => i.amount_cents)).toEqual([70000, 70000]);
    expect((await lettersOf(s.debtor.id))[0]?.message.kind).toBe("offered");

    const offered = await pageText(await get(s.path));
    expect(offered).toContain("offers you a payment plan of €1,400.00");
    const accept = await postForm(s.path, { intent: "portal-plan-accept", currency: "EUR" });
    expect(accept.status).toBe(302);
    expect((await plansOf(s.debtor.id))[0]?.status).toBe("active");
    expect(await noticesOf(s.debtor.id)).toContain("plan_accepted");
    const shown = await pageText(await get(s.path));
    expect(shown).toContain("Your payment plan: €1,400.00 in 2 instalments");
    expect(shown).toContain("Paid so far: €0.00 of €1,400.00");
  });

  it("offers a plan first; the debtor declines it; another owner's plan is not found", async () => {
    const s = await setUp();
    const page = `/debtors/${s.debtor.id}`;
    const { status } = await formAction(
      page,
      {
        intent: "plan-offer",
        debtor_id: String(s.debtor.id),
        how: "count",
        count: "2",
        first_on: today(),
        grace_days: "3",
      },
      s.cookie,
    );
    expect(status).toBe(200);
    const [plan] = await plansOf(s.debtor.id);
    expect(plan).toMatchObject({ status: "offered", proposed_by: "user", total_cents: 140000 });

    const stranger = await makeSignedInUser("Other User");
    const cookie = `${SESSION_COOKIE}=${stranger.token}`;
    for (const intent of ["plan-accept", "plan-decline", "plan-cancel", "plan-end", "plan-edit"]) {
      const res = await formAction(
        "/dashboard",
        { intent, plan_id: String(plan!.id), grace_days: "7", how: "count", count: "2", first_on: today() },
        cookie,
      );
      expect(res.status, intent).toBe(404);
    }
    const offerTheirs = await formAction(
      "/dashboard",
      {
        intent: "plan-offer",
        debtor_id: String(s.debtor.id),
        how: "count",
        count: "2",
        first_on: today(),
        grace_days: "3",
      },
      cookie,
    );
    expect(offerTheirs.status).toBe(404);
    expect((await plansOf(s.debtor.id))[0]?.status).toBe("offered");

    expect((await postForm(s.path, { intent: "portal-plan-decline", currency: "EUR" })).status).toBe(302);
    expect((await plansOf(s.debtor.id))[0]?.status).toBe("declined");
    expect(await noticesOf(s.debtor.id)).toContain("plan_declined");
  });

  it("a payment and an acceptance at once leave the plan as the ledger says", async () => {
    const s = await requested();
    await Promise.all([
      formAction(s.page, { intent: "plan-accept", plan_id: String(s.planId), grace_days: "7" }, s.cookie),
      payInvoice(s.user.id, s.debtor.id, s.invoices[0]!, 50000, "EUR"),
    ]);
    expect((await plansOf(s.debtor.id))[0]?.status).toBe("active");
    const shown = await pageText(await get(s.path));
    expect(shown).toContain("Paid so far: €500.00 of €1,400.00");
  });
});

/** Noon (UTC) of the real today: the UTC debtor's daytime, their today. */
const noon = () => {
  const d = new Date();
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate(), 12);
};

/** The setup with an accepted plan: 3 instalments from `first`, the user's grace and choice. */
async function accepted(first: string, terms: { grace?: string; autoBreak?: boolean } = {}) {
  const s = await setUp();
  expect((await ask(s, { first_on: first })).status).toBe(302);
  const [plan] = await plansOf(s.debtor.id);
  const page = `/debtors/${s.debtor.id}`;
  const res = await formAction(
    page,
    {
      intent: "plan-accept",
      plan_id: String(plan!.id),
      grace_days: terms.grace ?? "7",
      ...(terms.autoBreak ? { auto_break: "on" } : {}),
    },
    s.cookie,
  );
  expect(res.status).toBe(200);
  return { ...s, planId: plan!.id, page };
}

const planLetterKeys = async (debtorId: number) => (await lettersOf(debtorId)).map((l) => l.key);

describe("chasing instalments (the watchdog)", () => {
  it("sends each instalment's reminder once, a few days before its date, in the debtor's daytime", async () => {
    const s = await accepted(addDays(today(), 2) ?? "");
    // At night in the debtor's zone nothing goes.
    await runPlanWatch(env, noon() - 11 * HOUR);
    expect(await planLetterKeys(s.debtor.id)).toEqual([`plan:${s.planId}:0:confirmed`]);
    await runPlanWatch(env, noon());
    await runPlanWatch(env, noon() + HOUR);
    expect(await planLetterKeys(s.debtor.id)).toEqual([`plan:${s.planId}:0:confirmed`, `plan:${s.planId}:1:before`]);
    const before = (await lettersOf(s.debtor.id))[1]?.message;
    expect(before).toMatchObject({ kind: "before", due: { amount: "€466.66" } });
  });

  it("never reminds a debtor who opted out", async () => {
    const s = await accepted(addDays(today(), 1) ?? "");
    await env.DB.prepare("INSERT INTO opt_outs (owner_id, email) VALUES (?, ?)").bind(s.user.id, s.debtor.email).run();
    await runPlanWatch(env, noon());
    expect(await planLetterKeys(s.debtor.id)).toEqual([`plan:${s.planId}:0:confirmed`]);
  });

  it("a missed instalment tells the user once and nudges the debtor; after the grace the plan ends by itself", async () => {
    const s = await accepted(today(), { grace: "5", autoBreak: true });
    // The first instalment's date moves 3 days back: missed, still in its grace.
    await env.DB.prepare("UPDATE plan_instalments SET due_on = ? WHERE plan_id = ? AND seq = 1")
      .bind(addDays(today(), -3), s.planId)
      .run();
    await runPlanWatch(env, noon());
    await runPlanWatch(env, noon() + HOUR);
    expect((await eventsOf(s.debtor.id)).filter((e) => e.type === "plan_missed")).toHaveLength(1);
    expect((await noticesOf(s.debtor.id)).filter((k) => k === "plan_missed")).toHaveLength(1);
    expect(await planLetterKeys(s.debtor.id)).toContain(`plan:${s.planId}:1:after`);
    expect((await plansOf(s.debtor.id))[0]?.status).toBe("active");
    const page = await pageText(await get(s.path));
    expect(page).toContain("Missed");
    expect(page).toContain("An instalment is overdue");
    // The user sees it and may end the plan.
    expect(await pageText(await get(s.page, { cookie: s.cookie }))).toContain("End the plan");

    // Past the 5 grace days: the plan ends, its pauses go, its invoices are chased again.
    await env.DB.prepare("UPDATE plan_instalments SET due_on = ? WHERE plan_id = ? AND seq = 1")
      .bind(addDays(today(), -6), s.planId)
      .run();
    await runPlanWatch(env, noon());
    expect((await plansOf(s.debtor.id))[0]?.status).toBe("broken");
    expect(await pausesOf(s.planId)).toEqual([]);
    expect((await statementLines(s.debtor.id)).sort()).toEqual([...s.invoices].sort((a, b) => a - b));
    expect((await eventsOf(s.debtor.id)).map((e) => e.type)).toContain("plan_broken");
    expect(await noticesOf(s.debtor.id)).toContain("plan_broken");
    expect(await planLetterKeys(s.debtor.id)).toContain(`plan:${s.planId}:1:broken`);
  });

  it("without 'end automatically' the plan waits for the user, who ends it", async () => {
    const s = await accepted(today(), { grace: "0" });
    await env.DB.prepare("UPDATE plan_instalments SET due_on = ? WHERE plan_id = ? AND seq = 1")
      .bind(addDays(today(), -2), s.planId)
      .run();
    await runPlanWatch(env, noon());
    expect((await plansOf(s.debtor.id))[0]?.status).toBe("active");
    const { status } = await formAction(s.page, { intent: "plan-end", plan_id: String(s.planId) }, s.cookie);
    expect(status).toBe(200);
    expect((await plansOf(s.debtor.id))[0]?.status).toBe("broken");
    expect(await pausesOf(s.planId)).toEqual([]);
  });
});

describe("paying a plan", () => {
  it("a payment recorded for everything completes the plan in its own write and closes its pauses", async () => {
    const s = await accepted(today());
    const { status } = await formAction(
      s.page,
      { intent: "payment-add", debtor_id: String(s.debtor.id), amount: "1400", paid_on: today(), note: "" },
      s.cookie,
    );
    expect(status).toBe(200);
    expect((await plansOf(s.debtor.id))[0]?.status).toBe("completed");
    const pauses = await pausesOf(s.planId);
    expect(pauses).toHaveLength(2);
    for (const p of pauses) expect(p.to_on).toBe(today());
    expect((await eventsOf(s.debtor.id)).map((e) => e.type)).toContain("plan_completed");
    expect(await pageText(await get(s.path))).toContain("Your payment plan is paid in full");
  });

  it("a part payment meets the first instalment; the page says what is next", async () => {
    const s = await accepted(today());
    await formAction(
      s.page,
      { intent: "payment-add", debtor_id: String(s.debtor.id), amount: "500", paid_on: today(), note: "" },
      s.cookie,
    );
    expect((await plansOf(s.debtor.id))[0]?.status).toBe("active");
    const page = await pageText(await get(s.path));
    expect(page).toContain("Paid so far: €500.00 of €1,400.00");
    expect(page).toMatch(/Next: €433\.32 by/);
  });
});

describe("Pay now on a plan", () => {
  it("starts a Checkout for the next instalment's unpaid part, from the ledger, never the form", async () => {
    const c = await connectSetup({ invoices: [30000, 30000] });
    const cookie = `${SESSION_COOKIE}=${c.user.token}`;
    await env.DB.prepare("UPDATE debtors SET time_zone = 'UTC' WHERE id = ?").bind(c.debtor.id).run();
    expect(
      (await postForm(c.portal, { intent: "portal-plan-request", how: "count", count: "3", first_on: today() })).status,
    ).toBe(302);
    const [plan] = await plansOf(c.debtor.id);
    expect(
      (
        await formAction(
          `/debtors/${c.debtor.id}`,
          { intent: "plan-accept", plan_id: String(plan!.id), grace_days: "7" },
          cookie,
        )
      ).status,
    ).toBe(200);
    expect(await pageText(await get(c.portal))).toContain("Pay €200.00 now");
    const tampered = await postForm(c.portal, { intent: "portal-plan-pay", currency: "EUR", amount: "1" });
    expect(tampered.status).toBe(400);
    const res = await postForm(c.portal, { intent: "portal-plan-pay", currency: "EUR" });
    expect(res.status).toBe(303);
    const sessionId = /\/dev\/checkout\/checkout\/(cs_test_[A-Za-z0-9]+)/.exec(
      String(res.headers.get("Location")),
    )?.[1];
    expect(sessionId).toBeTruthy();
    expect(await onlineRow(sessionId!)).toMatchObject({ amount_cents: 20000 });
  });
});

describe("every attempt of an instalment's e-mail re-checks the debtor", () => {
  it("is not sent (failed, with why) to a debtor whose reply waits for the user, nor once the instalment is paid", async () => {
    const s = await accepted(addDays(today(), 2) ?? "");
    const plan = (await debtorPlans(db(), s.user.id, s.debtor.id))[0]!;
    await env.DB.prepare(
      "INSERT INTO debtor_replies (owner_id, debtor_id, from_address, subject, text) VALUES (?, ?, ?, 'Re', 'Hi')",
    )
      .bind(s.user.id, s.debtor.id, s.debtor.email)
      .run();
    const scope = { env, db: db(), ownerId: s.user.id };
    await sendPlanLetter(scope, config(), plan, "before", { seq: 1 });
    const held = await env.DB.prepare("SELECT status, error FROM emails WHERE idem_key = ?")
      .bind(`plan:${plan.id}:1:before`)
      .first<{ status: string; error: string }>();
    expect(held).toEqual({
      status: "failed",
      error: "Not sent: the debtor is held (their answer waits for you) before it went out.",
    });

    await env.DB.prepare("UPDATE debtor_replies SET handled_at = 1 WHERE debtor_id = ?").bind(s.debtor.id).run();
    await formAction(
      s.page,
      { intent: "payment-add", debtor_id: String(s.debtor.id), amount: "466.66", paid_on: today(), note: "" },
      s.cookie,
    );
    await sendPlanLetter(scope, config(), plan, "before", { seq: 1 });
    expect(await planLetterKeys(s.debtor.id)).toContain(`plan:${plan.id}:1:before`);
    await sendPlanLetter(scope, config(), plan, "after", { seq: 1 });
    const paid = await env.DB.prepare("SELECT status, error FROM emails WHERE idem_key = ?")
      .bind(`plan:${plan.id}:1:after`)
      .first<{ status: string; error: string }>();
    expect(paid).toEqual({ status: "failed", error: "Not sent: the instalment is paid before it went out." });
  });
});

describe("hostile plan requests", () => {
  it("whatever the form holds, the page answers with a plan, a refusal or field errors: never a 500", async () => {
    const s = await setUp();
    const text = fc.oneof(
      fc.string({ maxLength: 30 }),
      fc.constantFrom("", "2", "12", "13", "-1", "1e3", "0,50", "1.234,56"),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          how: fc.oneof(text, fc.constantFrom("count", "amount")),
          count: text,
          amount: text,
          first_on: fc.oneof(text, fc.constantFrom(today(), "2020-01-01", "2999-12-31", "2027-02-30")),
          currency: fc.oneof(text, fc.constantFrom("EUR", "USD")),
        }),
        async (fields) => {
          const res = await postForm(s.path, { intent: "portal-plan-request", ...fields });
          expect([302, 400, 409]).toContain(res.status);
          await res.body?.cancel();
        },
      ),
      { numRuns: 25 },
    );
    // At most one plan came of it, whole.
    const plans = await plansOf(s.debtor.id);
    expect(plans.length).toBeLessThanOrEqual(1);
    for (const p of plans) {
      const sum = (await instalmentsOf(p.id)).reduce((a, i) => a + i.amount_cents, 0);
      expect(sum).toBe(p.total_cents);
    }
  });
});

describe("the dashboard's answers and withdrawn offers", () => {
  it("accepts a request from the dashboard with the default grace; an offer can be withdrawn before an answer", async () => {
    const s = await requested();
    const { status, data } = await formAction(
      "/dashboard",
      { intent: "plan-accept", plan_id: String(s.planId), grace_days: "7" },
      s.cookie,
    );
    expect(status).toBe(200);
    expect(data.ok).toBe(true);
    expect((await plansOf(s.debtor.id))[0]?.status).toBe("active");
    expect(await pageText(await get("/dashboard", { cookie: s.cookie }))).not.toContain("asked to pay €1,400.00");

    const o = await setUp();
    const page = `/debtors/${o.debtor.id}`;
    await formAction(
      page,
      {
        intent: "plan-offer",
        debtor_id: String(o.debtor.id),
        how: "count",
        count: "2",
        first_on: today(),
        grace_days: "3",
      },
      o.cookie,
    );
    const [offer] = await plansOf(o.debtor.id);
    expect((await formAction(page, { intent: "plan-cancel", plan_id: String(offer!.id) }, o.cookie)).status).toBe(200);
    expect((await plansOf(o.debtor.id))[0]?.status).toBe("cancelled");
    // Withdrawn, it is no longer the debtor's to accept.
    expect((await postForm(o.path, { intent: "portal-plan-accept", currency: "EUR" })).status).toBe(409);
    expect((await plansOf(o.debtor.id))[0]?.status).toBe("cancelled");
  });
});
