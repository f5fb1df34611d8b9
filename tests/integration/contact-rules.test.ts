import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { formAction } from "./data-helpers";
import { consumeJobs, fireAndSend, HOUR, MINUTE, programResend, type SentOutcome } from "./engine-helpers";
import { deliveriesOf, makeDebtor, makeSchedule, makeUser, scheduleRow, setSchedule } from "./fixtures";
import { DAY, get, outboxFor, pageText, signIn, uniqueEmail } from "./helpers";

/**
 * The engine's contact rules and stops: reminders reach a debtor only
 * between 08:00 and 21:00 in the debtor's zone and at most 7 in 7 days (an account may tighten
 * both); an occurrence outside them waits under its own key, never dropped, never doubled. A debt
 * paid in full or an address that opted out stops the schedule, also while an occurrence retries.
 */

/** 2026-11-18 02:00 in Tokyo (UTC+9), in the past so the sending limits count from a quiet day. */
const TOKYO_2AM = Date.UTC(2026, 10, 17, 17, 0);

async function setup(timeZone: string, fields: Record<string, number> = {}) {
  const user = await makeUser();
  const debtor = await makeDebtor(user.id, { timeZone, ...fields });
  const id = await makeSchedule(user.id, debtor.id, { frequency: "daily", timeZone });
  return { user, debtor, id };
}

describe("quiet hours", () => {
  it("an alarm due at 02:00 in the debtor's zone sends once, at 08:00 there", async () => {
    // A daily schedule at 10:00 in Denver (UTC-7 in winter) is due at 02:00 for a debtor in Tokyo.
    const { debtor, id } = await setup("Asia/Tokyo");
    await setSchedule(id, { next_run_at: TOKYO_2AM, time_zone: "America/Denver" });

    const held = await fireAndSend(id, TOKYO_2AM);
    expect(held).toMatchObject({ kind: "deferred", nextAlarmAt: TOKYO_2AM + 6 * HOUR });
    expect(held.kind === "deferred" && held.reason).toMatch(
      /^Waiting for the debtor's daytime \(8:00–21:00 in their time zone\): goes out Nov 18, 2026, 8:00\sAM\.$/,
    );
    const [waiting] = await deliveriesOf(id);
    expect(waiting).toMatchObject({ status: "deferred", occurrence_key: `${id}:${TOKYO_2AM}` });
    expect(await outboxFor(debtor.email)).toHaveLength(0);

    // The watchdog or a stray alarm before 08:00 changes nothing.
    expect(await fireAndSend(id, TOKYO_2AM + 3 * HOUR)).toMatchObject({ kind: "deferred" });
    expect(await outboxFor(debtor.email)).toHaveLength(0);

    const sent = await fireAndSend(id, TOKYO_2AM + 6 * HOUR);
    expect(sent).toMatchObject({ kind: "done", status: "sent" });
    expect(await outboxFor(debtor.email)).toHaveLength(1);
    const rows = await deliveriesOf(id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ status: "sent", occurrence_key: `${id}:${TOKYO_2AM}`, error: null });
    // The next run is the next 10:00 in Denver, not a catch-up: nothing doubles.
    expect((await scheduleRow(id))!.next_run_at).toBe(TOKYO_2AM + DAY);
    expect(await fireAndSend(id, TOKYO_2AM + 6 * HOUR)).toMatchObject({ kind: "not-due" });
    expect(await outboxFor(debtor.email)).toHaveLength(1);
  });

  it("goes by the debtor's zone, not the schedule's or the server's", async () => {
    // 17:00 UTC is 02:00 in Tokyo but 12:00 in New York (winter).
    const { debtor, id } = await setup("America/New_York");
    await setSchedule(id, { next_run_at: TOKYO_2AM, time_zone: "Asia/Tokyo" });
    expect(await fireAndSend(id, TOKYO_2AM)).toMatchObject({ kind: "done", status: "sent" });
    expect(await outboxFor(debtor.email)).toHaveLength(1);
  });

  it("follows the account's tighter hours", async () => {
    const { user, debtor, id } = await setup("UTC");
    await env.DB.prepare("UPDATE users SET quiet_start_hour = 9, quiet_end_hour = 17 WHERE id = ?").bind(user.id).run();
    const at = Date.UTC(2026, 10, 18, 17, 30);
    await setSchedule(id, { next_run_at: at });
    expect(await fireAndSend(id, at)).toMatchObject({
      kind: "deferred",
      nextAlarmAt: Date.UTC(2026, 10, 19, 9, 0),
    });
    expect(await outboxFor(debtor.email)).toHaveLength(0);
  });
});

describe("the schedule says when a held-back reminder will really go, and why", () => {
  it("on /schedules-list and in the configure modal's details", async () => {
    const { cookie, userId } = await signIn(uniqueEmail("held"));
    const debtor = await makeDebtor(userId, { timeZone: "UTC" });
    const id = await makeSchedule(userId, debtor.id, { frequency: "daily", timeZone: "UTC" });
    const night = Date.UTC(2026, 10, 18, 3, 0);
    await setSchedule(id, { next_run_at: night });
    expect(await fireAndSend(id, night)).toMatchObject({ kind: "deferred" });

    const reason = "Waiting for the debtor's daytime (8:00–21:00 in their time zone): goes out Nov 18, 2026, 8:00";
    const list = await pageText(await get("/schedules-list", { cookie }));
    expect(list).toContain(`Held back: ${reason}`);
    const details = await get(`/schedules/${encodeURIComponent(id)}.data`, { cookie });
    expect(details.status).toBe(200);
    expect(await details.text()).toContain(reason);
  });
});

describe("contact cap", () => {
  /** `n` reminders already sent to the debtor, the oldest `oldestAgo` before `at`, 12 hours apart. */
  async function alreadySent(ownerId: string, debtorId: number, at: number, n: number, oldestAgo: number) {
    for (let i = 0; i < n; i++) {
      await env.DB.prepare(
        `INSERT INTO deliveries (owner_id, schedule_id, debtor_id, occurrence_key, template, tone, status, created_at, sent_at)
         VALUES (?, 'earlier', ?, ?, 'initial', 1, 'sent', ?, ?)`,
      )
        .bind(
          ownerId,
          debtorId,
          `earlier-${debtorId}-${i}`,
          at - oldestAgo + i * 12 * HOUR,
          at - oldestAgo + i * 12 * HOUR,
        )
        .run();
    }
  }

  it("the 8th e-mail in 7 days is deferred, not dropped, and goes once the oldest leaves the window", async () => {
    const at = Date.UTC(2026, 10, 18, 12, 0);
    const { user, debtor, id } = await setup("UTC");
    await alreadySent(user.id, debtor.id, at, 7, 6 * DAY);
    await setSchedule(id, { next_run_at: at });

    const held = await fireAndSend(id, at);
    // The oldest of the 7 was 6 days ago at 12:00: room again one day later, at 12:00.
    expect(held).toMatchObject({ kind: "deferred", nextAlarmAt: at + DAY });
    expect(held.kind === "deferred" && held.reason).toMatch(
      /got 7 reminders \(e-mails and texts\) in the last 7 days, the most allowed/,
    );
    expect(await outboxFor(debtor.email)).toHaveLength(0);

    expect(await fireAndSend(id, at + DAY)).toMatchObject({ kind: "done", status: "sent" });
    expect(await outboxFor(debtor.email)).toHaveLength(1);
    expect((await deliveriesOf(id)).map((d) => d.status)).toEqual(["sent"]);
  });

  it("counts every schedule of the debtor, and an account may lower the cap", async () => {
    const at = Date.UTC(2026, 10, 18, 12, 0);
    const { user, debtor, id } = await setup("UTC");
    await env.DB.prepare("UPDATE users SET contact_cap = 2 WHERE id = ?").bind(user.id).run();
    await alreadySent(user.id, debtor.id, at, 2, 2 * DAY);
    await setSchedule(id, { next_run_at: at });
    expect(await fireAndSend(id, at)).toMatchObject({ kind: "deferred", nextAlarmAt: at + 5 * DAY });
  });

  it("a looser setting stored for the account is never applied", async () => {
    const at = Date.UTC(2026, 10, 18, 3, 0);
    const { user, id } = await setup("UTC");
    await env.DB.prepare("UPDATE users SET quiet_start_hour = 0, quiet_end_hour = 24, contact_cap = 50 WHERE id = ?")
      .bind(user.id)
      .run();
    await setSchedule(id, { next_run_at: at });
    expect(await fireAndSend(id, at)).toMatchObject({ kind: "deferred", nextAlarmAt: at + 5 * HOUR });
  });
});

describe("stops", () => {
  it("a debt paid in full while an unanswered batch waits for its retry: the retry sends nothing, the reminder is skipped with why, the schedule completes", async () => {
    const { debtor, id } = await setup("UTC");
    const at = Date.UTC(2026, 10, 18, 12, 0);
    await setSchedule(id, { next_run_at: at });
    await programResend(debtor.email, [500]);
    const first = await fireAndSend(id, at);
    // No definite answer: the batch's retry is on the queue.
    expect(first).toMatchObject({ kind: "done", status: "sending", requeued: [{ batchKey: expect.any(String) }] });
    expect((await deliveriesOf(id))[0]).toMatchObject({ status: "sending" });

    await env.DB.prepare("UPDATE debtors SET paid_cents = debt_cents, status = 'paid' WHERE id = ?")
      .bind(debtor.id)
      .run();
    const { requeued } = first as SentOutcome;
    // The retry looks at the debtor again (docs/decisions/045): paid, so nothing is sent. Its only
    // e-mail is stopped and nothing says whether the unanswered request went, so its reason says so.
    await consumeJobs(requeued, { now: at + MINUTE });
    expect(await outboxFor(debtor.email)).toHaveLength(0);
    expect((await deliveriesOf(id))[0]).toMatchObject({
      status: "skipped",
      error: expect.stringMatching(
        /^Not sent: the debt was paid in full before this reminder went out\. An earlier attempt/,
      ),
    });
    expect(await scheduleRow(id)).toMatchObject({ state: "COMPLETED", stopped_reason: "paid", next_run_at: null });
  });

  it("an address that opted out of this user: the schedule completes, another user's reminders still go", async () => {
    const address = uniqueEmail("opted");
    const mine = await setup("UTC", {});
    await env.DB.prepare("UPDATE debtors SET email = ? WHERE id = ?").bind(address, mine.debtor.id).run();
    const theirs = await setup("UTC");
    await env.DB.prepare("UPDATE debtors SET email = ? WHERE id = ?")
      .bind(address.toUpperCase(), theirs.debtor.id)
      .run();
    await env.DB.prepare("INSERT INTO opt_outs (owner_id, email) VALUES (?, ?)").bind(mine.user.id, address).run();

    const at = Date.UTC(2026, 10, 18, 12, 0);
    await setSchedule(mine.id, { next_run_at: at });
    await setSchedule(theirs.id, { next_run_at: at });
    expect(await fireAndSend(mine.id, at)).toMatchObject({ kind: "done", status: "skipped" });
    expect(await scheduleRow(mine.id)).toMatchObject({ state: "COMPLETED", stopped_reason: "opted_out" });
    expect(await fireAndSend(theirs.id, at)).toMatchObject({ kind: "done", status: "sent" });
    expect(await outboxFor(address)).toHaveLength(1);
  });
});

describe("the sending rules form (Settings → Info)", () => {
  it("saves tighter rules and refuses looser ones with field errors, keeping the form", async () => {
    const { cookie, userId } = await signIn(uniqueEmail("rules"));
    const saved = await formAction(
      "/iam/info",
      { intent: "contact-rules", start_hour: "9", end_hour: "18", max_per_week: "3" },
      cookie,
    );
    expect(saved.status).toBe(200);
    expect(saved.data).toMatchObject({ intent: "contact-rules", ok: true, message: "Sending rules saved." });
    const row = await env.DB.prepare("SELECT quiet_start_hour, quiet_end_hour, contact_cap FROM users WHERE id = ?")
      .bind(userId)
      .first();
    expect(row).toEqual({ quiet_start_hour: 9, quiet_end_hour: 18, contact_cap: 3 });

    const looser = await formAction(
      "/iam/info",
      { intent: "contact-rules", start_hour: "6", end_hour: "23", max_per_week: "10" },
      cookie,
    );
    expect(looser.status).toBe(400);
    expect(Object.keys(looser.data.result.error ?? {}).sort()).toEqual(["end_hour", "max_per_week", "start_hour"]);
    expect(looser.data.result.initialValue).toMatchObject({ start_hour: "6", end_hour: "23", max_per_week: "10" });
    const unchanged = await env.DB.prepare("SELECT quiet_start_hour FROM users WHERE id = ?").bind(userId).first();
    expect(unchanged).toEqual({ quiet_start_hour: 9 });
  });
});
