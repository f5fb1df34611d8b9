import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { addDays } from "~/domain/promise";
import { localDateString } from "~/domain/schedule-time";
import { portalLink } from "~/links/debtor-pages.server";
import { readConfig } from "~/platform/config.server";
import { HOUR, stubOf } from "./engine-helpers";
import { db, eventsOf, makeDebtor, makeInvoice, makeSchedule, makeSignedInUser, scheduleRow } from "./fixtures";
import { get, pageText, postForm, SESSION_COOKIE } from "./helpers";

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
  await env.DB.prepare("UPDATE invoices SET paid_cents = 10000 WHERE id = ?").bind(b).run();
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
