import { runDurableObjectAlarm } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { alarmAt, expectNextTenOClock, HOUR, stubOf } from "./engine-helpers";
import { deliveriesOf, makeDebtor, scheduleRow, setSchedule } from "./fixtures";
import { signIn, uniqueEmail } from "./helpers";
import { act, createVia, expectNextMondayTen, loaderData, ZONE } from "./schedule-helpers";

/**
 * Pause and resume: a paused schedule is DISABLED, kept, and its alarm is gone;
 * resuming makes it ENABLED again from its next run, unless its debtor has nothing to be reminded of.
 */

const PAUSED = "Schedule paused";
type Debtor = Awaited<ReturnType<typeof makeDebtor>> & { ownerId: string };
const RESUMED = "Schedule resumed";

async function setup(prefix: string, debtorFields: Parameters<typeof makeDebtor>[1] = {}) {
  const user = await signIn(uniqueEmail(prefix));
  const debtor = await makeDebtor(user.userId, { fullName: "Pat Pause", ...debtorFields });
  const schedule = await createVia(user, {
    debtor_id: String(debtor.id),
    preset: "FRIENDLY_REMINDER",
    frequency: "daily",
    time_zone: ZONE,
  });
  return { user, debtor, schedule };
}

const pause = (ids: string | string[], cookie: string) => act({ intent: "schedule-pause", ids }, { cookie });
const resume = (ids: string | string[], cookie: string) => act({ intent: "schedule-resume", ids }, { cookie });

describe("schedule-pause", () => {
  it("pauses: DISABLED with no next run, the alarm is gone, and firing sends nothing", async () => {
    const { user, schedule } = await setup("pause");
    expect(await alarmAt(schedule.id)).toBe(schedule.next_run_at);
    await setSchedule(schedule.id, { template_step: 1 });

    const res = await pause(schedule.id, user.cookie);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ intent: "schedule-pause", ok: true, message: PAUSED, count: 1 });
    const row = await scheduleRow(schedule.id);
    // Kept as it was (preset, step), only paused; the user paused it, so no stopped_reason.
    expect(row).toMatchObject({
      state: "DISABLED",
      next_run_at: null,
      stopped_reason: null,
      template_step: 1,
      preset: "FRIENDLY_REMINDER",
    });
    expect(await alarmAt(schedule.id)).toBeNull();

    // A stray alarm (armed before the pause reached D1) finds it paused and sends nothing.
    await stubOf(schedule.id).arm(schedule.id, Date.now() + HOUR, { force: true });
    expect(await runDurableObjectAlarm(stubOf(schedule.id))).toBe(true);
    expect(await deliveriesOf(schedule.id)).toEqual([]);
    expect(await scheduleRow(schedule.id)).toMatchObject({ state: "DISABLED" });
    expect(await alarmAt(schedule.id)).toBeNull();

    // Pausing a paused schedule is refused: nothing is active among the ids.
    const again = await pause(schedule.id, user.cookie);
    expect(again.status).toBe(404);
    expect(again.body).toMatchObject({ intent: "schedule-pause", ok: false });
  });

  it("the configure modal's data says Paused and, after a bounce, why", async () => {
    const { user, schedule } = await setup("pause-details");
    expect((await pause(schedule.id, user.cookie)).status).toBe(200);
    let details = await loaderData(`/schedules/${schedule.id}`, "routes/schedules.details", user.cookie);
    expect(details.schedule).toMatchObject({ id: schedule.id, state: "DISABLED", stoppedReason: null });
    await setSchedule(schedule.id, { stopped_reason: "bounced" });
    details = await loaderData(`/schedules/${schedule.id}`, "routes/schedules.details", user.cookie);
    expect(details.schedule).toMatchObject({ state: "DISABLED", stoppedReason: "bounced" });
  });
});

describe("schedule-resume", () => {
  it("resumes: ENABLED with a fresh next run and an alarm at it", async () => {
    const { user, schedule } = await setup("resume");
    expect((await pause(schedule.id, user.cookie)).status).toBe(200);
    await setSchedule(schedule.id, { stopped_reason: "bounced" });

    const t0 = Date.now();
    const res = await resume(schedule.id, user.cookie);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ intent: "schedule-resume", ok: true, message: RESUMED, count: 1 });
    const row = await scheduleRow(schedule.id);
    expect(row).toMatchObject({ state: "ENABLED", stopped_reason: null, preset: "FRIENDLY_REMINDER" });
    expectNextTenOClock(row!.next_run_at, t0 - 1, ZONE);
    expect(await alarmAt(schedule.id)).toBe(row!.next_run_at);
  });

  it("a weekly schedule resumes on its next Monday at 10:00 in its own zone", async () => {
    const user = await signIn(uniqueEmail("resume-weekly"));
    const debtor = await makeDebtor(user.userId);
    const schedule = await createVia(user, {
      debtor_id: String(debtor.id),
      preset: "SINGLE_REMINDER",
      frequency: "weekly",
      time_zone: "America/New_York",
    });
    expect((await pause(schedule.id, user.cookie)).status).toBe(200);
    const t0 = Date.now();
    expect((await resume(schedule.id, user.cookie)).status).toBe(200);
    const row = await scheduleRow(schedule.id);
    expectNextMondayTen(row!.next_run_at, t0 - 1, "America/New_York");
    expect(await alarmAt(schedule.id)).toBe(row!.next_run_at);
  });

  /** A reminder to the debtor's current address that the provider reported bounced. */
  async function bouncedAt(ownerId: string, debtorId: number, email: string) {
    await env.DB.prepare(
      "INSERT INTO deliveries (owner_id, debtor_id, occurrence_key, template, tone, status, recipient, error) VALUES (?, ?, ?, 'initial', 1, 'bounced', ?, 'Mailbox does not exist')",
    )
      .bind(ownerId, debtorId, `bounce-${crypto.randomUUID()}`, email.toLowerCase())
      .run();
    await env.DB.prepare("UPDATE debtors SET status = 'bouncing' WHERE id = ?").bind(debtorId).run();
  }

  const setDebtor = (id: number, column: string, value: string | number) =>
    env.DB.prepare(`UPDATE debtors SET ${column} = ? WHERE id = ?`).bind(value, id).run();

  it.each([
    ["has paid", (d: Debtor) => setDebtor(d.id, "status", "paid"), "has paid"],
    ["owes nothing", (d: Debtor) => setDebtor(d.id, "paid_cents", d.debtCents), "owes nothing"],
    ["opted out", (d: Debtor) => setDebtor(d.id, "status", "opted_out"), "opted out"],
    ["has an address that bounced", (d: Debtor) => bouncedAt(d.ownerId, d.id, d.email), "bounced"],
  ] as const)("is refused for a debtor who %s: the schedule stays paused", async (_label, prepare, text) => {
    const { user, debtor, schedule } = await setup("resume-refused");
    expect((await pause(schedule.id, user.cookie)).status).toBe(200);
    await prepare({ ...debtor, ownerId: user.userId });
    const before = await scheduleRow(schedule.id);

    const res = await resume(schedule.id, user.cookie);
    expect(res.status, res.text).toBe(409);
    expect(res.body).toMatchObject({ intent: "schedule-resume", ok: false });
    expect(res.body.message).toContain("Pat Pause");
    expect(res.body.message).toContain(text);
    expect(await scheduleRow(schedule.id)).toEqual(before);
    expect(await alarmAt(schedule.id)).toBeNull();
  });

  it("a bouncing debtor's schedule resumes once the address is changed, and the debtor is active again", async () => {
    const { user, debtor, schedule } = await setup("resume-readdressed");
    expect((await pause(schedule.id, user.cookie)).status).toBe(200);
    await setSchedule(schedule.id, { stopped_reason: "bounced" });
    await bouncedAt(user.userId, debtor.id, debtor.email);
    expect((await resume(schedule.id, user.cookie)).status).toBe(409);

    await setDebtor(debtor.id, "email", uniqueEmail("fixed"));
    const res = await resume(schedule.id, user.cookie);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ ok: true, message: RESUMED });
    expect(await scheduleRow(schedule.id)).toMatchObject({ state: "ENABLED", stopped_reason: null });
    const row = await env.DB.prepare("SELECT status FROM debtors WHERE id = ?").bind(debtor.id).first();
    expect(row).toEqual({ status: "active" });
    expect(await alarmAt(schedule.id)).not.toBeNull();
  });

  it("only a paused schedule resumes: an active one is 404 and unchanged", async () => {
    const { user, schedule } = await setup("resume-active");
    const before = await scheduleRow(schedule.id);
    const res = await resume(schedule.id, user.cookie);
    expect(res.status).toBe(404);
    expect(await scheduleRow(schedule.id)).toEqual(before);
  });

  it("without ids, pause and resume answer 400", async () => {
    const user = await signIn(uniqueEmail("pause-no-ids"));
    expect((await act({ intent: "schedule-pause" }, { cookie: user.cookie })).status).toBe(400);
    expect((await act({ intent: "schedule-resume", ids: "" }, { cookie: user.cookie })).status).toBe(400);
  });
});

describe("another user's schedule", () => {
  it("cannot be paused or resumed: 404 and nothing changes", async () => {
    const owner = await setup("pause-owner");
    const stranger = await signIn(uniqueEmail("pause-stranger"));
    const before = await scheduleRow(owner.schedule.id);
    const alarm = await alarmAt(owner.schedule.id);

    const paused = await pause(owner.schedule.id, stranger.cookie);
    expect(paused.status).toBe(404);
    expect(await scheduleRow(owner.schedule.id)).toEqual(before);
    expect(await alarmAt(owner.schedule.id)).toBe(alarm);

    expect((await pause(owner.schedule.id, owner.user.cookie)).status).toBe(200);
    const pausedRow = await scheduleRow(owner.schedule.id);
    const resumed = await resume(owner.schedule.id, stranger.cookie);
    expect(resumed.status).toBe(404);
    expect(await scheduleRow(owner.schedule.id)).toEqual(pausedRow);
    expect(await alarmAt(owner.schedule.id)).toBeNull();
  });

  it("mixed with the user's own ids, only their own change", async () => {
    const owner = await setup("pause-mixed-owner");
    const mine = await setup("pause-mixed-me");
    const before = await scheduleRow(owner.schedule.id);
    const res = await pause([owner.schedule.id, mine.schedule.id], mine.user.cookie);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ count: 1, message: PAUSED });
    expect(await scheduleRow(owner.schedule.id)).toEqual(before);
    expect(await scheduleRow(mine.schedule.id)).toMatchObject({ state: "DISABLED" });
  });
});
