import { runDurableObjectAlarm } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { batchKeyOf } from "~/domain/mail-batch";
import { eventually } from "./data-helpers";
import {
  alarmAt,
  doStorage,
  dueNow,
  FROM_ADDRESS,
  fireAndSend,
  fireAt,
  MINUTE,
  resendDelivered,
  resendRequests,
  settled,
  stubOf,
} from "./engine-helpers";
import {
  deliveriesOf,
  deliveriesOfOwner,
  makeDebtor,
  makeOrg,
  makeSchedule,
  makeUser,
  scheduleRow,
  schedulesOf,
  setPlan,
} from "./fixtures";
import { DAY, type SignedIn, signIn, uniqueEmail } from "./helpers";
import { act, createVia, ZONE } from "./schedule-helpers";

/**
 * The sending limits end to end: the account's
 * daily quota and the per-address cap where the engine claims an occurrence (held back, visibly,
 * and sent once later under the same key), the 24-hour cooldown, the re-send cap and the limits'
 * messages in the schedule actions' replies, and hostile display names in what Resend receives.
 */

const LIMITED = 429;

/** "Nov 22, 2026, 10:15 PM" in `timeZone`, as the messages write an instant. */
const when = (ms: number, timeZone: string) =>
  new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeStyle: "short", timeZone }).format(ms);

/** As if the owner's reminders had been sent `ms` earlier. */
async function ageOwnerDeliveries(ownerId: string, ms: number) {
  await env.DB.prepare("UPDATE deliveries SET created_at = created_at - ? WHERE owner_id = ?").bind(ms, ownerId).run();
}

/** `count` reminders the account sent in the last hour, recorded as the engine records them. */
async function sentRecently(ownerId: string, debtorId: number, count: number, recipient = uniqueEmail("earlier")) {
  const at = Date.now() - 60 * MINUTE;
  for (let i = 0; i < count; i++) {
    await env.DB.prepare(
      "INSERT INTO deliveries (owner_id, debtor_id, occurrence_key, template, tone, status, recipient, created_at, sent_at) VALUES (?, ?, ?, 'single', 1, 'sent', ?, ?, ?)",
    )
      .bind(ownerId, debtorId, `history-${ownerId}-${i}-${Math.random()}`, recipient, at + i, at + i)
      .run();
  }
  return at;
}

/** A user's debtor with a daily schedule (UTC), fired at a due occurrence through its alarm. */
async function fireFor(ownerId: string, debtor: { fullName?: string; email?: string } = {}) {
  const d = await makeDebtor(ownerId, debtor);
  const id = await makeSchedule(ownerId, d.id, { preset: "FRIENDLY_REMINDER", timeZone: "UTC" });
  const due = dueNow();
  await fireAt(id, due);
  return { debtor: d, id, due, key: `${id}:${due}` };
}

// The account's daily quota, where the engine claims --------------------------------------------

describe("the account's daily quota at the engine", () => {
  it("holds the reminder over the quota back, visibly and under its key, and sends it once when there is room", async () => {
    const user = await makeUser();
    await setPlan(user.id, "soft"); // 10 a day
    for (let i = 0; i < 10; i++) await fireFor(user.id);
    const sent = await deliveriesOfOwner(user.id);
    expect(sent.map((d) => d.status)).toEqual(Array(10).fill("sent"));
    const oldest = Math.min(...sent.map((d) => d.created_at));

    const over = await fireFor(user.id, { fullName: "Eleventh Debtor" });
    // Not sent, not dropped: a deferred delivery that says why and until when.
    expect(await resendRequests(over.debtor.email)).toEqual([]);
    const [held] = await deliveriesOf(over.id);
    expect(held).toMatchObject({ status: "deferred", occurrence_key: over.key, provider_id: null, sent_at: null });
    expect(held!.error).toBe(
      `Daily limit of 10 reminders reached for this account. It will be sent after ${when(oldest + DAY, "UTC")}.`,
    );
    // The schedule stays on this occurrence; the alarm comes back when the oldest reminder is a day old.
    expect(await scheduleRow(over.id)).toMatchObject({
      state: "ENABLED",
      next_run_at: over.due,
      template_step: 0,
      last_run_at: null,
    });
    expect(await alarmAt(over.id)).toBe(oldest + DAY);
    expect((await doStorage(over.id)).deferred).toBe(over.key);

    // Fired again meanwhile (at-least-once alarms): still held back, still one row, nothing sent.
    const again = await fireAndSend(over.id, Date.now());
    expect(again).toMatchObject({ kind: "deferred", occurrenceKey: over.key, nextAlarmAt: oldest + DAY });
    expect(await deliveriesOf(over.id)).toHaveLength(1);
    expect(await resendRequests(over.debtor.email)).toEqual([]);

    // A day later the quota has room: the alarm sends the same occurrence, once.
    await ageOwnerDeliveries(user.id, DAY);
    const ranFrom = Date.now();
    expect(await runDurableObjectAlarm(stubOf(over.id))).toBe(true);
    await settled(over.id, over.due, { before: null, ranFrom, ranTo: Date.now() });
    const delivered = await resendDelivered(over.debtor.email);
    expect(delivered.map((d) => d.idempotencyKey)).toEqual([await batchKeyOf([over.key])]);
    const rows = await deliveriesOf(over.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ status: "sent", error: null, occurrence_key: over.key, template: "initial" });
    expect(await scheduleRow(over.id)).toMatchObject({ template_step: 1, last_run_at: over.due });
    expect((await doStorage(over.id)).deferred).toBeUndefined();

    // And never twice: the occurrence fired again sends nothing.
    await fireAt(over.id, over.due);
    expect(await resendRequests(over.debtor.email)).toHaveLength(1);
    expect(await deliveriesOf(over.id)).toHaveLength(1);
    // Eleven firings through alarms and the mail queue: about 12 s alone, past the default 20 s on a
    // busy 2-core machine (CI, 2026-11-22), so it gets more room rather than fewer checks.
  }, 45_000);

  it("a plan's quota: the aggressive plan sends what the soft plan holds back", async () => {
    const soft = await makeUser();
    const aggressive = await makeUser();
    await setPlan(soft.id, "soft");
    await setPlan(aggressive.id, "aggressive");
    await sentRecently(soft.id, (await makeDebtor(soft.id)).id, 10);
    await sentRecently(aggressive.id, (await makeDebtor(aggressive.id)).id, 10);

    const held = await fireFor(soft.id);
    expect((await deliveriesOf(held.id))[0]?.status).toBe("deferred");
    const sent = await fireFor(aggressive.id);
    expect((await deliveriesOf(sent.id))[0]?.status).toBe("sent");
  });

  it("a held-back occurrence whose schedule moves on or is deleted is skipped with why, never sent", async () => {
    const user = await makeUser();
    await setPlan(user.id, "soft");
    const history = await makeDebtor(user.id);
    await sentRecently(user.id, history.id, 10);

    // Moved on (an edit or "send now" re-arms it): the old occurrence is given up.
    const moved = await fireFor(user.id);
    expect((await deliveriesOf(moved.id))[0]?.status).toBe("deferred");
    await fireAt(moved.id, moved.due + 1000);
    const [first, second] = await deliveriesOf(moved.id);
    expect(first).toMatchObject({
      occurrence_key: moved.key,
      status: "skipped",
      error: "Not sent: the schedule was changed, stopped or completed while this reminder waited for a sending limit.",
    });
    expect(second).toMatchObject({ occurrence_key: `${moved.id}:${moved.due + 1000}`, status: "deferred" });

    // Deleted through the action (the alarm is disarmed first): given up at once.
    const a = await signIn(uniqueEmail("limit-delete"));
    await setPlan(a.userId, "soft");
    await sentRecently(a.userId, (await makeDebtor(a.userId)).id, 10);
    const gone = await fireFor(a.userId);
    const res = await act({ intent: "schedule-delete", id: gone.id }, { cookie: a.cookie });
    expect(res.status, res.text).toBe(200);
    expect(await deliveriesOf(gone.id)).toMatchObject([{ status: "skipped", occurrence_key: gone.key }]);
    expect(await resendRequests(gone.debtor.email)).toEqual([]);
  });
});

// The per-address cap, across accounts -----------------------------------------------------------

describe("the per-address daily cap", () => {
  it("counts every account's reminders to an address: the fourth in a day is held back, whoever sends it", async () => {
    const address = uniqueEmail("shared");
    const a = await makeUser("Alice Owner");
    const b = await makeUser("Bob Owner");
    const a1 = await fireFor(a.id, { email: address });
    const a2 = await fireFor(a.id, { email: address.toUpperCase() }); // the same address
    const b1 = await fireFor(b.id, { email: address });
    expect(await resendDelivered(address)).toHaveLength(3);
    for (const f of [a1, a2, b1])
      expect((await deliveriesOf(f.id))[0]).toMatchObject({ status: "sent", recipient: address });

    const b2 = await fireFor(b.id, { email: address });
    const a3 = await fireFor(a.id, { email: ` ${address} ` });
    expect(await resendDelivered(address)).toHaveLength(3);
    const firstAt = Math.min(
      ...(await Promise.all([a1, a2, b1].map(async (f) => (await deliveriesOf(f.id))[0]!.created_at))),
    );
    for (const f of [b2, a3]) {
      const [held] = await deliveriesOf(f.id);
      expect(held).toMatchObject({ status: "deferred", occurrence_key: f.key });
      expect(held!.error).toBe(
        `Daily limit of 3 reminders to ${address} reached. It will be sent after ${when(firstAt + DAY, "UTC")}.`,
      );
      expect(await alarmAt(f.id)).toBe(firstAt + DAY);
    }

    // Another address of the same accounts is not affected.
    const other = await fireFor(b.id);
    expect(await resendDelivered(other.debtor.email)).toHaveLength(1);
  });
});

describe("concurrent claims", () => {
  it("six schedules to one address firing at once (six debtors sharing it): three are sent, three held back", async () => {
    const address = uniqueEmail("six");
    const user = await makeUser();
    const due = dueNow();
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) {
      const d = await makeDebtor(user.id, { email: address });
      const id = await makeSchedule(user.id, d.id, { frequency: "now" });
      await env.DB.prepare("UPDATE schedules SET next_run_at = ? WHERE id = ?").bind(due, id).run();
      ids.push(id);
    }
    const outcomes = await Promise.all(ids.map((id) => fireAndSend(id, Date.now())));
    expect(outcomes.filter((o) => o.kind === "done")).toHaveLength(3);
    expect(outcomes.filter((o) => o.kind === "deferred")).toHaveLength(3);
    expect(await resendDelivered(address)).toHaveLength(3);
    const statuses = (await deliveriesOfOwner(user.id)).map((d) => d.status).sort();
    expect(statuses).toEqual(["deferred", "deferred", "deferred", "sent", "sent", "sent"]);
  });
});

// The manual sends' checks and messages ----------------------------------------------------------

/** A signed-in user's debtor and schedule whose first reminder the engine has just sent. */
async function justReminded(user: SignedIn, fullName: string) {
  const d = await makeDebtor(user.userId, { fullName });
  const s = await createVia(user, { debtor_id: String(d.id), preset: "FRIENDLY_REMINDER", time_zone: ZONE });
  await fireAt(s.id, dueNow());
  const [delivery] = await deliveriesOf(s.id);
  expect(delivery).toMatchObject({ status: "sent" });
  return { debtor: d, schedule: (await scheduleRow(s.id))!, sentAt: delivery!.created_at };
}

describe("the 24-hour cooldown of 'Send next reminder now' and 'Re-send reminders'", () => {
  it("refuses a debtor reminded less than 24 hours ago with 429 and when the next is allowed, in the user's zone", async () => {
    const a = await signIn(uniqueEmail("cooldown"));
    const { debtor, schedule, sentAt } = await justReminded(a, "Ada Lovelace");
    const message = `Ada Lovelace got a reminder less than 24 hours ago. The next one can be sent after ${when(sentAt + DAY, "Asia/Tokyo")}.`;

    const now = await act({ intent: "schedule-send-now", ids: [schedule.id] }, { cookie: a.cookie, tz: "Asia/Tokyo" });
    expect(now.status, now.text).toBe(LIMITED);
    expect(now.body).toEqual({ intent: "schedule-send-now", ok: false, message });
    expect(await scheduleRow(schedule.id)).toEqual(schedule);

    const resend = await act(
      { intent: "debtor-resend", ids: [String(debtor.id)] },
      { cookie: a.cookie, tz: "Asia/Tokyo" },
    );
    expect(resend.status, resend.text).toBe(LIMITED);
    expect(resend.body).toEqual({ intent: "debtor-resend", ok: false, message });
    expect((await schedulesOf(a.userId)).map((s) => s.id)).toEqual([schedule.id]);
    expect(await resendRequests(debtor.email)).toHaveLength(1);

    // With another debtor selected, the whole request is refused and says so.
    const fresh = await makeDebtor(a.userId, { fullName: "Fresh Debtor" });
    const both = await act(
      { intent: "debtor-resend", ids: [String(fresh.id), String(debtor.id)] },
      { cookie: a.cookie, tz: "UTC" },
    );
    expect(both.status).toBe(LIMITED);
    expect(both.body).toMatchObject({
      ok: false,
      message: expect.stringMatching(/^Ada Lovelace got a reminder less than 24 hours ago\./),
    });
    expect(await schedulesOf(a.userId)).toHaveLength(1);

    // A day later it may go.
    await ageOwnerDeliveries(a.userId, DAY);
    const later = await act({ intent: "schedule-send-now", ids: [schedule.id] }, { cookie: a.cookie });
    expect(later.status, later.text).toBe(200);
    expect(later.body).toMatchObject({ ok: true, count: 1 });
    expect(await eventually(async () => (await resendDelivered(debtor.email)).length === 2, 5000)).toBe(true);
  });

  it("refuses a debtor whose reminder is already waiting: held back by a limit, or a re-send not yet fired", async () => {
    const a = await signIn(uniqueEmail("waiting"));
    await setPlan(a.userId, "soft");
    const history = await makeDebtor(a.userId);
    await sentRecently(a.userId, history.id, 10);
    const held = await fireFor(a.userId, { fullName: "Held Back" });
    expect((await deliveriesOf(held.id))[0]?.status).toBe("deferred");

    const res = await act({ intent: "debtor-resend", ids: [String(held.debtor.id)] }, { cookie: a.cookie });
    expect(res.status).toBe(LIMITED);
    expect(res.body).toMatchObject({ ok: false, message: "A reminder to Held Back is already waiting to be sent." });

    // A one-time schedule not fired yet (a re-send moments ago) is on its way too.
    const b = await signIn(uniqueEmail("waiting-now"));
    const d = await makeDebtor(b.userId, { fullName: "On Its Way" });
    await makeSchedule(b.userId, d.id, { frequency: "now" }); // due in a minute
    const twice = await act({ intent: "debtor-resend", ids: [String(d.id)] }, { cookie: b.cookie });
    expect(twice.status).toBe(LIMITED);
    expect(twice.body).toMatchObject({ ok: false, message: "A reminder to On Its Way is already waiting to be sent." });
    expect(await schedulesOf(b.userId)).toHaveLength(1);
  });
});

describe("the account quota and the per-address cap in the actions", () => {
  it("refuses a send the account's quota cannot take, saying when the next is allowed", async () => {
    const a = await signIn(uniqueEmail("quota"));
    await setPlan(a.userId, "soft");
    const history = await makeDebtor(a.userId);
    const first = await sentRecently(a.userId, history.id, 9);
    const d1 = await makeDebtor(a.userId);
    const d2 = await makeDebtor(a.userId);

    const two = await act({ intent: "debtor-resend", ids: [String(d1.id), String(d2.id)] }, { cookie: a.cookie });
    expect(two.status).toBe(LIMITED);
    expect(two.body).toMatchObject({
      ok: false,
      message: "Daily limit of 10 reminders for this account: only 1 more can be sent now, and 2 were selected.",
    });

    await sentRecently(a.userId, history.id, 1);
    const one = await act({ intent: "debtor-resend", ids: [String(d1.id)] }, { cookie: a.cookie, tz: "Europe/Berlin" });
    expect(one.status).toBe(LIMITED);
    expect(one.body).toMatchObject({
      ok: false,
      message: `Daily limit of 10 reminders reached for this account. The next one can be sent after ${when(first + DAY, "Europe/Berlin")}.`,
    });
    expect(await schedulesOf(a.userId)).toEqual([]);
  });

  it("refuses a re-send that would send an address more than three reminders a day", async () => {
    const a = await signIn(uniqueEmail("same-address"));
    const address = uniqueEmail("family");
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) ids.push(String((await makeDebtor(a.userId, { email: address })).id));
    const res = await act({ intent: "debtor-resend", ids }, { cookie: a.cookie });
    expect(res.status).toBe(LIMITED);
    expect(res.body).toMatchObject({
      ok: false,
      message: `At most 3 reminders a day can go to one address, and ${address} would get 4. Select fewer debtors with that address.`,
    });
    expect(await schedulesOf(a.userId)).toEqual([]);

    // Reminders from another account count too.
    const other = await makeUser();
    const theirs = await makeDebtor(other.id);
    const sentAt = await sentRecently(other.id, theirs.id, 3, address);
    const one = await act({ intent: "debtor-resend", ids: [ids[0]!] }, { cookie: a.cookie, tz: "UTC" });
    expect(one.status).toBe(LIMITED);
    expect(one.body).toMatchObject({
      ok: false,
      message: `${address} got 3 reminders in the last 24 hours, the most one address may get. The next one can be sent after ${when(sentAt + DAY, "UTC")}.`,
    });
  });
});

describe("the re-send cap", () => {
  it("refuses more than 20 debtors at once and creates nothing; 20 go", async () => {
    const a = await signIn(uniqueEmail("resend-cap"));
    const ids: string[] = [];
    for (let i = 0; i < 21; i++) ids.push(String((await makeDebtor(a.userId, { debtCents: 100 })).id));
    const res = await act({ intent: "debtor-resend", ids }, { cookie: a.cookie });
    expect(res.status).toBe(LIMITED);
    expect(res.body).toEqual({
      intent: "debtor-resend",
      ok: false,
      message: "Re-send reminders to at most 20 debtors at a time (21 selected).",
    });
    expect(await schedulesOf(a.userId)).toEqual([]);

    const twenty = await act({ intent: "debtor-resend", ids: ids.slice(0, 20) }, { cookie: a.cookie });
    expect(twenty.status, twenty.text).toBe(200);
    expect(twenty.body).toMatchObject({ ok: true, count: 20 });
    expect(await schedulesOf(a.userId)).toHaveLength(20);
  });
});

// Hostile display names --------------------------------------------------------------------------

describe("hostile display names", () => {
  it("the From header and the e-mail show the user's name without line breaks, bidi, zero-width characters, addresses or links", async () => {
    const user = await makeUser(
      "\u202eSally\u200b Sender\u2066 <billing@evil.example> https://evil.example/pay www.evil.example evil.example\r\nX",
    );
    const { debtor, id } = await fireFor(user.id, { fullName: "Dan\u200f Debtor\u202e" });
    const [req] = await resendRequests(debtor.email);
    // The key of the batch it went in (the queue may have put other reminders in it too).
    expect(req!.idempotencyKey).toBe((await deliveriesOf(id))[0]!.batch_key);
    expect(req!.body.from).toBe(`"Sally Sender X" <${FROM_ADDRESS}>`);
    const html = String(req!.body.html);
    const text = String(req!.body.text);
    for (const out of [html, text]) {
      expect(out).toContain("Sally Sender X");
      expect(out).toContain("Dan Debtor");
      expect(out).not.toContain("evil.example");
    }
    expect(text).not.toMatch(/[\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]/);
    expect(String(req!.body.subject)).not.toMatch(/[\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]/);
  });

  it("an organization's name and address are cleaned the same way; a name that is only a domain falls back to the user's", async () => {
    const user = await makeUser("Olga Owner");
    const orgId = await makeOrg(
      user.id,
      "Acme\u200b Widgets\u202e Ltd (acme-payments.example)",
      "12 Long\u2066 Road\r\nSpringfield\u200b 12345",
    );
    const d = await makeDebtor(user.id);
    const id = await makeSchedule(user.id, d.id, { organizationId: orgId });
    await fireAt(id, dueNow());
    const [req] = await resendRequests(d.email);
    expect(req!.body.from).toBe(`"Acme Widgets Ltd" <${FROM_ADDRESS}>`);
    const text = String(req!.body.text);
    expect(text).toContain("Acme Widgets Ltd");
    expect(text).toContain("12 Long Road");
    expect(text).toContain("Springfield 12345");
    expect(text).not.toContain("acme-payments.example");
    expect(text).not.toMatch(/[\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]/);

    const posing = await makeOrg(user.id, "paypal.com", "1 Main St");
    const d2 = await makeDebtor(user.id);
    const id2 = await makeSchedule(user.id, d2.id, { organizationId: posing });
    await fireAt(id2, dueNow());
    const [req2] = await resendRequests(d2.email);
    expect(req2!.body.from).toBe(`"Olga Owner" <${FROM_ADDRESS}>`);
    expect(String(req2!.body.text)).not.toContain("paypal.com");
  });
});

// The counting queries use the indexes -----------------------------------------------------------

describe("counting", () => {
  it("per account, per address and per debtor, the limits read through an index", async () => {
    const plan = async (sql: string, ...binds: unknown[]) =>
      (
        await env.DB.prepare(`EXPLAIN QUERY PLAN ${sql}`)
          .bind(...binds)
          .all<{ detail: string }>()
      ).results
        .map((r) => r.detail)
        .join("; ");
    const counted = "AND d.created_at > ? AND d.status IN ('sending', 'sent', 'bounced')";
    expect(await plan(`SELECT count(*) FROM deliveries AS d WHERE d.owner_id = ? ${counted}`, "x", 0)).toMatch(
      /SEARCH d USING (COVERING )?INDEX deliveries_owner_idx \(owner_id=\? AND created_at>\?\)/,
    );
    expect(await plan(`SELECT count(*) FROM deliveries AS d WHERE d.recipient = ? ${counted}`, "x", 0)).toMatch(
      /SEARCH d USING (COVERING )?INDEX deliveries_recipient_idx \(recipient=\? AND created_at>\?\)/,
    );
    // What a manual send asks per debtor (app/reminders/deliveries.server.ts, manualSendLoad).
    expect(
      await plan(
        "SELECT DISTINCT debtor_id FROM deliveries WHERE +owner_id = ? AND debtor_id IN (?, ?) AND status = 'deferred'",
        "x",
        1,
        2,
      ),
    ).toMatch(/SEARCH deliveries USING (COVERING )?INDEX deliveries_debtor_(sent_)?idx \(debtor_id=\?/);
    expect(
      await plan(
        "SELECT debtor_id, id FROM schedules WHERE +owner_id = ? AND debtor_id IN (?, ?) AND +state = 'ENABLED' AND frequency = 'now'",
        "x",
        1,
        2,
      ),
    ).toMatch(/SEARCH schedules USING INDEX schedules_debtor_idx \(debtor_id=\?\)/);
  });
});
