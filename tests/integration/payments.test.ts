import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { apiJson, formAction, type Json, replyErrors } from "./data-helpers";
import { alarmAt, fireAt, HOUR, MINUTE, resendRequests, stubOf } from "./engine-helpers";
import {
  ageDeliveries,
  debtorRow,
  deliveriesOf,
  makeDebtor,
  makeSchedule,
  paymentsOf,
  scheduleRow,
  setSchedule,
} from "./fixtures";
import { DAY, get, outboxFor, pageText, signIn, uniqueEmail } from "./helpers";
import { loaderData } from "./schedule-helpers";

/**
 * Payments through the debtor pages' form action: the payment, the debtor's
 * paid amount and status in one batch; paid in full, every live schedule completes (and nothing is
 * sent any more); a payment deleted leaves reminders stopped until the user resumes them.
 */

const PAGES = ["/debtors-list", "/dashboard"] as const;
const PAGE = "/debtors-list";

/** Today in UTC: never later than the server's limit (today where the day starts first, UTC+14). */
const today = () => new Date().toISOString().slice(0, 10);
/** A date that is in the future in every zone. */
const future = () => new Date(Date.now() + 3 * DAY).toISOString().slice(0, 10);

const MSG = {
  amount: "Please enter a number greater than 0",
  decimals: "Please enter an amount with at most two decimals",
  date: "Please enter a valid date",
  future: "The payment date cannot be in the future",
} as const;

/** A signed-in user with a debtor owing `debtCents` (no payments yet). */
async function owing(debtCents = 10000, prefix = "pay") {
  const user = await signIn(uniqueEmail(prefix));
  const debtor = await makeDebtor(user.userId, { debtCents });
  return { user, debtor };
}

function pay(
  cookie: string,
  debtorId: number,
  fields: Record<string, string> = {},
  page: string = PAGE,
): Promise<{ status: number; data: Json }> {
  return formAction(
    page,
    { intent: "payment-add", debtor_id: String(debtorId), amount: "10", paid_on: today(), note: "", ...fields },
    cookie,
  );
}

/** The payments section's list, as the modal loads it (GET /api/debtors/:id/payments). */
async function listed(cookie: string, debtorId: number) {
  const { status, body } = await apiJson("GET", `/debtors/${debtorId}/payments`, { cookie });
  expect(status, JSON.stringify(body)).toBe(200);
  return body as { id: number; debtor_id: number; amount: number; paid_on: string; note: string }[];
}

/** The debtors list row of the page's loader (what the table and the modal show). */
async function listRow(cookie: string, debtorId: number) {
  const data = await loaderData(PAGE, "routes/debtors-list", cookie);
  return (data.debtors as Json[]).find((d) => d.id === debtorId);
}

for (const page of PAGES) {
  describe(`payment-add on ${page}`, () => {
    it("records a partial payment: the debtor's paid amount is the sum, still 'active'", async () => {
      const { user, debtor } = await owing(10000);
      const first = await pay(user.cookie, debtor.id, { amount: "25.5", note: "Bank transfer" }, page);
      expect(first.status).toBe(200);
      expect(first.data).toMatchObject({ intent: "payment-add", ok: true, message: "Payment recorded." });
      const second = await pay(user.cookie, debtor.id, { amount: "4.5" }, page);
      expect(second.status).toBe(200);

      expect(await paymentsOf(debtor.id)).toMatchObject([
        { owner_id: user.userId, amount_cents: 2550, paid_on: today(), note: "Bank transfer" },
        { owner_id: user.userId, amount_cents: 450, note: "" },
      ]);
      expect(await debtorRow(debtor.id)).toMatchObject({ paid_cents: 3000, debt_cents: 10000, status: "active" });
      expect(await listRow(user.cookie, debtor.id)).toMatchObject({ paidCents: 3000, status: "active", resumable: 0 });
      expect((await listed(user.cookie, debtor.id)).map((p) => p.amount).sort()).toEqual([25.5, 4.5]);
    });
  });
}

describe("payment validation: 400 with the field's message, what was typed kept, nothing stored", () => {
  const cases: [string, Record<string, string>, string, string][] = [
    [
      "an amount over what is owed",
      { amount: "100.01" },
      "amount",
      "The payment can be at most $100.00, the amount still owed.",
    ],
    ["three decimals", { amount: "1000.005" }, "amount", MSG.decimals],
    [
      "an amount that could be read two ways",
      { amount: "600,50" },
      "amount",
      `"600,50" could be read as 600.50 or as 60,050.00. Please type the amount with its decimals, as in 1,234.56.`,
    ],
    ["zero", { amount: "0" }, "amount", MSG.amount],
    ["a negative amount", { amount: "-5" }, "amount", MSG.amount],
    ["no amount", { amount: "" }, "amount", MSG.amount],
    ["letters", { amount: "ten" }, "amount", MSG.amount],
    ["a future date", { paid_on: future() }, "paid_on", MSG.future],
    ["a date not on the calendar", { paid_on: "2026-02-30" }, "paid_on", MSG.date],
    ["no date", { paid_on: "" }, "paid_on", MSG.date],
    ["a note over 500 characters", { note: "x".repeat(501) }, "note", "Please use at most 500 characters"],
  ];
  for (const [name, change, field, message] of cases) {
    it(name, async () => {
      const { user, debtor } = await owing(10000, "invalid");
      const fields = { amount: "12.34", note: "Typed note", ...change };
      const { status, data } = await pay(user.cookie, debtor.id, fields);
      expect(status).toBe(400);
      expect(data).toMatchObject({ intent: "payment-add", ok: false });
      expect(replyErrors(data)[field]).toEqual([message]);
      // Everything typed comes back (an emptied field is simply absent).
      const typed = Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== ""));
      expect(data.result.initialValue).toMatchObject({ debtor_id: String(debtor.id), ...typed });
      expect(await paymentsOf(debtor.id)).toEqual([]);
      expect(await debtorRow(debtor.id)).toMatchObject({ paid_cents: 0, status: "active" });
    });
  }

  it("the date limit is today in the user's own zone (the tz cookie)", async () => {
    const { user, debtor } = await owing(10000, "tz");
    // UTC+14's today is always a later date than UTC-12's.
    const kiritimati = new Intl.DateTimeFormat("en-CA", { timeZone: "Pacific/Kiritimati" }).format(Date.now());
    const west = await pay(`${user.cookie}; tz=${encodeURIComponent("Etc/GMT+12")}`, debtor.id, {
      paid_on: kiritimati,
    });
    expect(west.status).toBe(400);
    expect(replyErrors(west.data).paid_on).toEqual([MSG.future]);
    const east = await pay(`${user.cookie}; tz=${encodeURIComponent("Pacific/Kiritimati")}`, debtor.id, {
      paid_on: kiritimati,
    });
    expect(east.status).toBe(200);
  });

  it("nothing more can be paid once the debt is paid in full", async () => {
    const { user, debtor } = await owing(5000, "full");
    expect((await pay(user.cookie, debtor.id, { amount: "50" })).status).toBe(200);
    const again = await pay(user.cookie, debtor.id, { amount: "0.01" });
    expect(again.status).toBe(400);
    expect(replyErrors(again.data).amount).toEqual(["Nothing is owed any more: the debt is paid in full."]);
    expect(await paymentsOf(debtor.id)).toHaveLength(1);
  });
});

describe("paid in full", () => {
  it("the debtor is 'Paid', their ENABLED and DISABLED schedules complete ('paid'), alarms go, nothing is sent", async () => {
    const { user, debtor } = await owing(12345, "inful");
    const enabled = await makeSchedule(user.userId, debtor.id, { frequency: "daily" });
    const paused = await makeSchedule(user.userId, debtor.id, { frequency: "weekly" });
    await setSchedule(paused, { state: "DISABLED", next_run_at: null });
    const finished = await makeSchedule(user.userId, debtor.id, { frequency: "now" });
    await setSchedule(finished, { state: "COMPLETED", next_run_at: null });
    // Another debtor's schedule of the same user is not touched.
    const other = await makeDebtor(user.userId);
    const otherSchedule = await makeSchedule(user.userId, other.id);
    const armedAt = Date.now() + HOUR;
    await stubOf(enabled).arm(enabled, armedAt, { force: true });
    expect(await alarmAt(enabled)).toBe(armedAt);

    expect((await pay(user.cookie, debtor.id, { amount: "23.45" })).status).toBe(200);
    expect((await scheduleRow(enabled))!.state).toBe("ENABLED");
    const { status, data } = await pay(user.cookie, debtor.id, { amount: "100" });
    expect(status).toBe(200);
    expect(data.message).toBe("Payment recorded. The debt is paid in full: reminders to this debtor have stopped.");

    expect(await debtorRow(debtor.id)).toMatchObject({ paid_cents: 12345, status: "paid" });
    for (const id of [enabled, paused]) {
      expect(await scheduleRow(id)).toMatchObject({ state: "COMPLETED", stopped_reason: "paid", next_run_at: null });
    }
    expect(await scheduleRow(finished)).toMatchObject({ state: "COMPLETED", stopped_reason: null });
    expect(await scheduleRow(otherSchedule)).toMatchObject({ state: "ENABLED", stopped_reason: null });
    expect(await alarmAt(enabled)).toBeNull();

    // An alarm that was already due (or retrying) finds the schedule completed: nothing is sent.
    await fireAt(enabled, Date.now() - MINUTE);
    expect(await resendRequests(debtor.email)).toEqual([]);
    expect(await deliveriesOf(enabled)).toEqual([]);
    expect(await scheduleRow(enabled)).toMatchObject({ state: "COMPLETED", stopped_reason: "paid" });

    // The list shows the status; the page says 'Paid'.
    expect(await listRow(user.cookie, debtor.id)).toMatchObject({ status: "paid", paidCents: 12345, resumable: 0 });
    expect(await pageText(await get(PAGE, { cookie: user.cookie }))).toMatch(/>Paid</);
  });

  it("an opted-out debtor keeps that status, but their schedules still complete", async () => {
    const user = await signIn(uniqueEmail("optout"));
    const debtor = await makeDebtor(user.userId, { debtCents: 1000 });
    const id = await makeSchedule(user.userId, debtor.id);
    // Opted out after the schedule was made (a schedule is never created for an opted-out debtor).
    await env.DB.prepare("UPDATE debtors SET status = 'opted_out' WHERE id = ?").bind(debtor.id).run();
    expect((await pay(user.cookie, debtor.id, { amount: "10" })).status).toBe(200);
    expect(await debtorRow(debtor.id)).toMatchObject({ paid_cents: 1000, status: "opted_out" });
    expect(await scheduleRow(id)).toMatchObject({ state: "COMPLETED", stopped_reason: "paid" });
  });
});

describe("the reminder engine and payments", () => {
  it("a payment in full between two firings stops the second", async () => {
    const { user, debtor } = await owing(5000, "between");
    const id = await makeSchedule(user.userId, debtor.id, { frequency: "daily" });
    await fireAt(id, Date.now() - 2 * MINUTE);
    expect(await outboxFor(debtor.email)).toHaveLength(1);
    expect((await scheduleRow(id))!.state).toBe("ENABLED");

    expect((await pay(user.cookie, debtor.id, { amount: "50" })).status).toBe(200);
    expect(await scheduleRow(id)).toMatchObject({ state: "COMPLETED", stopped_reason: "paid", next_run_at: null });
    expect(await alarmAt(id)).toBeNull();

    // The second occurrence comes due anyway (an alarm already on its way, or a retry): nothing is sent.
    await ageDeliveries(id, DAY);
    await fireAt(id, Date.now() - MINUTE);
    expect(await outboxFor(debtor.email)).toHaveLength(1);
    expect(await resendRequests(debtor.email)).toHaveLength(1);
    expect(await deliveriesOf(id)).toHaveLength(1);
    expect(await scheduleRow(id)).toMatchObject({ state: "COMPLETED", stopped_reason: "paid" });
    expect(await alarmAt(id)).toBeNull();
  });

  it("a partial payment changes the amount in the next e-mail", async () => {
    const { user, debtor } = await owing(123450, "partial");
    const id = await makeSchedule(user.userId, debtor.id, { frequency: "daily" });
    await fireAt(id, Date.now() - 2 * MINUTE);
    const [first] = await outboxFor(debtor.email);
    expect(first!.text).toContain("$1,234.50");

    expect((await pay(user.cookie, debtor.id, { amount: "234.50" })).status).toBe(200);
    await ageDeliveries(id, DAY);
    await fireAt(id, Date.now() - MINUTE);
    const mails = await outboxFor(debtor.email);
    expect(mails).toHaveLength(2);
    expect(mails[1]!.text).toContain("$1,000.00");
    expect(mails[1]!.text).not.toContain("$1,234.50");
    expect(mails[1]!.subject).toContain("$1,000.00");
    expect((await scheduleRow(id))!.state).toBe("ENABLED");
  });
});

describe("payment-edit and payment-delete", () => {
  it("an edit may use what is owed plus the payment's own amount; paid in full completes the schedules", async () => {
    const { user, debtor } = await owing(10000, "edit");
    const id = await makeSchedule(user.userId, debtor.id);
    await pay(user.cookie, debtor.id, { amount: "60", note: "First" });
    const [payment] = await paymentsOf(debtor.id);

    const over = await formAction(
      PAGE,
      { intent: "payment-edit", id: String(payment!.id), amount: "100.01", paid_on: "2026-01-15", note: "Typed" },
      user.cookie,
    );
    expect(over.status).toBe(400);
    expect(replyErrors(over.data).amount).toEqual(["The payment can be at most $100.00, the amount still owed."]);
    expect(over.data.result.initialValue).toMatchObject({ amount: "100.01", paid_on: "2026-01-15", note: "Typed" });
    expect(await paymentsOf(debtor.id)).toMatchObject([{ amount_cents: 6000, note: "First" }]);

    const edited = await formAction(
      PAGE,
      { intent: "payment-edit", id: String(payment!.id), amount: "40", paid_on: "2026-01-15", note: "Corrected" },
      user.cookie,
    );
    expect(edited.status).toBe(200);
    expect(edited.data).toMatchObject({ intent: "payment-edit", ok: true, message: "Payment updated." });
    expect(await paymentsOf(debtor.id)).toMatchObject([
      { id: payment!.id, amount_cents: 4000, paid_on: "2026-01-15", note: "Corrected" },
    ]);
    expect(await debtorRow(debtor.id)).toMatchObject({ paid_cents: 4000, status: "active" });

    const full = await formAction(
      PAGE,
      { intent: "payment-edit", id: String(payment!.id), amount: "100", paid_on: "2026-01-15" },
      user.cookie,
    );
    expect(full.status).toBe(200);
    expect(await debtorRow(debtor.id)).toMatchObject({ paid_cents: 10000, status: "paid" });
    expect(await scheduleRow(id)).toMatchObject({ state: "COMPLETED", stopped_reason: "paid" });
  });

  it("deleting a payment re-opens the debt; reminders stay stopped until debtor-resume re-enables and re-arms them", async () => {
    const { user, debtor } = await owing(8000, "reopen");
    const daily = await makeSchedule(user.userId, debtor.id, { frequency: "daily", timeZone: "Asia/Tokyo" });
    const once = await makeSchedule(user.userId, debtor.id, { frequency: "now" });
    await pay(user.cookie, debtor.id, { amount: "30" });
    await pay(user.cookie, debtor.id, { amount: "50" });
    expect(await debtorRow(debtor.id)).toMatchObject({ status: "paid" });
    const [, last] = await paymentsOf(debtor.id);

    const deleted = await formAction(PAGE, { intent: "payment-delete", id: String(last!.id) }, user.cookie);
    expect(deleted.status).toBe(200);
    expect(deleted.data).toMatchObject({
      intent: "payment-delete",
      ok: true,
      message: "Payment deleted. Reminders stay stopped until you resume them.",
    });
    expect(await paymentsOf(debtor.id)).toHaveLength(1);
    expect(await debtorRow(debtor.id)).toMatchObject({ paid_cents: 3000, status: "active" });
    // Nothing restarted by itself.
    for (const id of [daily, once]) {
      expect(await scheduleRow(id)).toMatchObject({ state: "COMPLETED", stopped_reason: "paid", next_run_at: null });
      expect(await alarmAt(id)).toBeNull();
    }
    // The modal offers to resume them.
    expect(await listRow(user.cookie, debtor.id)).toMatchObject({ status: "active", paidCents: 3000, resumable: 2 });

    const before = Date.now();
    const resumed = await formAction(PAGE, { intent: "debtor-resume", debtor_id: String(debtor.id) }, user.cookie);
    expect(resumed.status).toBe(200);
    expect(resumed.data).toMatchObject({ intent: "debtor-resume", ok: true, count: 2 });
    const d = await scheduleRow(daily);
    expect(d).toMatchObject({ state: "ENABLED", stopped_reason: null });
    expect(d!.next_run_at).toBeGreaterThan(before);
    // 10:00 in Tokyo is 01:00 UTC.
    expect(new Date(d!.next_run_at!).getUTCHours()).toBe(1);
    expect(await alarmAt(daily)).toBe(d!.next_run_at);
    const o = await scheduleRow(once);
    expect(o).toMatchObject({ state: "ENABLED", stopped_reason: null });
    expect(o!.next_run_at! - before).toBeGreaterThanOrEqual(60_000);
    expect(o!.next_run_at! - before).toBeLessThan(60_000 + 10_000);
    expect(await alarmAt(once)).toBe(o!.next_run_at);
    expect(await listRow(user.cookie, debtor.id)).toMatchObject({ resumable: 0 });

    // Nothing left to resume.
    const again = await formAction(PAGE, { intent: "debtor-resume", debtor_id: String(debtor.id) }, user.cookie);
    expect(again.status).toBe(409);
    expect(again.data.ok).toBe(false);
  });

  it("resume is refused while nothing is owed", async () => {
    const { user, debtor } = await owing(1000, "noresume");
    const id = await makeSchedule(user.userId, debtor.id);
    await pay(user.cookie, debtor.id, { amount: "10" });
    const res = await formAction(PAGE, { intent: "debtor-resume", debtor_id: String(debtor.id) }, user.cookie);
    expect(res.status).toBe(409);
    expect(await scheduleRow(id)).toMatchObject({ state: "COMPLETED", stopped_reason: "paid" });
  });
});

describe("owner scoping: another user's debtor or payment answers 404 and nothing changes", () => {
  it("payment-add, payment-edit, payment-delete, debtor-resume and the list", async () => {
    const { user: owner, debtor } = await owing(5000, "owner");
    const id = await makeSchedule(owner.userId, debtor.id);
    await pay(owner.cookie, debtor.id, { amount: "50" });
    await formAction(
      PAGE,
      { intent: "payment-delete", id: String((await paymentsOf(debtor.id))[0]!.id) },
      owner.cookie,
    );
    await pay(owner.cookie, debtor.id, { amount: "20", note: "Owner's" });
    const [payment] = await paymentsOf(debtor.id);
    const before = {
      payments: await paymentsOf(debtor.id),
      debtor: await debtorRow(debtor.id),
      schedule: await scheduleRow(id),
    };

    const stranger = await signIn(uniqueEmail("stranger"));
    const add = await pay(stranger.cookie, debtor.id, { amount: "30" });
    expect(add.status).toBe(404);
    expect(add.data.ok).toBe(false);
    const edit = await formAction(
      PAGE,
      { intent: "payment-edit", id: String(payment!.id), amount: "1", paid_on: today(), note: "Stranger's" },
      stranger.cookie,
    );
    expect(edit.status).toBe(404);
    const del = await formAction(PAGE, { intent: "payment-delete", id: String(payment!.id) }, stranger.cookie);
    expect(del.status).toBe(404);
    const resume = await formAction(PAGE, { intent: "debtor-resume", debtor_id: String(debtor.id) }, stranger.cookie);
    expect(resume.status).toBe(404);
    expect((await apiJson("GET", `/debtors/${debtor.id}/payments`, { cookie: stranger.cookie })).status).toBe(404);

    expect({
      payments: await paymentsOf(debtor.id),
      debtor: await debtorRow(debtor.id),
      schedule: await scheduleRow(id),
    }).toEqual(before);
    expect(before.schedule).toMatchObject({ state: "COMPLETED", stopped_reason: "paid" });
  });

  it("ids that are no ids answer 404", async () => {
    const { user } = await owing(5000, "badid");
    const cases: Record<string, string>[] = [
      { intent: "payment-add", debtor_id: "x", amount: "1", paid_on: today() },
      { intent: "payment-add", amount: "1", paid_on: today() },
      { intent: "payment-edit", id: "-1", amount: "1", paid_on: today() },
      { intent: "payment-delete", id: "" },
      { intent: "debtor-resume", debtor_id: "1e3" },
    ];
    for (const fields of cases) {
      const { status } = await formAction(PAGE, fields, user.cookie);
      expect(status, JSON.stringify(fields)).toBe(404);
    }
  });
});

describe("many payments", () => {
  it("120 payments list and sum right, and the last one settles the debt", async () => {
    const { user, debtor } = await owing(12000 + 1, "many");
    for (let i = 0; i < 120; i++) {
      const { status } = await pay(user.cookie, debtor.id, { amount: "1", paid_on: `2026-0${1 + (i % 9)}-1${i % 10}` });
      expect(status).toBe(200);
    }
    const rows = await listed(user.cookie, debtor.id);
    expect(rows).toHaveLength(120);
    expect(rows.reduce((sum, p) => sum + p.amount, 0)).toBe(120);
    // Newest date first.
    const dates = rows.map((p) => p.paid_on);
    expect(dates).toEqual([...dates].sort().reverse());
    expect(await debtorRow(debtor.id)).toMatchObject({ paid_cents: 12000, status: "active" });
    expect((await pay(user.cookie, debtor.id, { amount: "0.01" })).status).toBe(200);
    expect(await debtorRow(debtor.id)).toMatchObject({ paid_cents: 12001, status: "paid" });
  });
});
