import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { getDb } from "~/db/client.server";
import { followAlarms } from "~/reminders/alarms.server";
import { createSchedule, deleteSchedule, pauseSchedules, resumeSchedules } from "~/reminders/writes.server";
import { runWatchdog } from "~/watchdog/index.server";
import { alarmAt } from "./engine-helpers";
import { alarmStub, db, makeDebtor, makeSchedule, makeUser, scheduleRow, withAlarms } from "./fixtures";

/**
 * The lifecycle's failure policy: a Durable Object call
 * that fails after the D1 change committed is not the caller's error. The saved result is the
 * answer, the failure is written to alarm_repairs, and one watchdog run sets the alarm from the row.
 */

const repairs = async () =>
  (
    await env.DB.prepare("SELECT schedule_id, error FROM alarm_repairs ORDER BY schedule_id").all<{
      schedule_id: string;
      error: string;
    }>()
  ).results;

const repairOf = async (id: string) =>
  env.DB.prepare("SELECT schedule_id, error FROM alarm_repairs WHERE schedule_id = ?").bind(id).first();

const input = (debtorId: number) => ({
  kind: "person" as const,
  debtor_id: debtorId,
  preset: "SINGLE_REMINDER" as const,
  frequency: "weekly" as const,
  time_zone: "UTC",
});

const eventsOf = async (debtorId: number) =>
  (
    await env.DB.prepare("SELECT type FROM debtor_events WHERE debtor_id = ? ORDER BY id")
      .bind(debtorId)
      .all<{ type: string }>()
  ).results.map((r) => r.type);

describe("a Durable Object that fails after the database change", () => {
  it("create: the saved schedule is the answer, the failure is recorded, and the watchdog arms it", async () => {
    const user = await makeUser();
    const debtor = await makeDebtor(user.id, { debtCents: 5000 });
    const down = alarmStub(true);
    const result = await createSchedule(
      { env: withAlarms(down), db: db(), ownerId: user.id, now: Date.now() },
      input(debtor.id),
    );
    if (!("schedule" in result)) throw new Error(JSON.stringify(result));
    const { schedule } = result;
    // Saved, with its event: a true answer.
    expect(await scheduleRow(schedule.id)).toMatchObject({ state: "ENABLED", next_run_at: schedule.nextRunAt });
    expect(await eventsOf(debtor.id)).toEqual(["schedule_created"]);
    // No alarm was set; the failure is recorded.
    expect(await alarmAt(schedule.id)).toBeNull();
    expect(await repairOf(schedule.id)).toMatchObject({ error: "Durable Object unavailable" });

    await runWatchdog(env);
    expect(await alarmAt(schedule.id)).toBe(schedule.nextRunAt);
    expect(await repairOf(schedule.id)).toBeNull();
  });

  it("pause and delete: the change stands, and the watchdog disarms the alarms left behind", async () => {
    const user = await makeUser();
    const debtor = await makeDebtor(user.id, { debtCents: 5000 });
    const paused = await makeSchedule(user.id, debtor.id, { frequency: "weekly" });
    const deleted = await makeSchedule(user.id, debtor.id, { frequency: "weekly" });
    const week = Date.now() + 7 * 86_400_000;
    await followAlarms(
      { env, db: getDb(env.DB) },
      {
        arm: [
          { id: paused, at: week },
          { id: deleted, at: week },
        ],
      },
    );
    expect(await alarmAt(paused)).not.toBeNull();
    expect(await alarmAt(deleted)).not.toBeNull();

    const scope = { env: withAlarms(alarmStub(true)), db: db(), ownerId: user.id, now: Date.now() };
    expect(await pauseSchedules(scope, [paused])).toEqual([paused]);
    expect(await deleteSchedule(scope, deleted)).toBe(true);
    expect(await scheduleRow(paused)).toMatchObject({ state: "DISABLED", next_run_at: null });
    expect(await scheduleRow(deleted)).toBeNull();
    expect(await eventsOf(debtor.id)).toEqual([
      "schedule_created",
      "schedule_created",
      "schedule_paused",
      "schedule_deleted",
    ]);
    // The alarms are still set: the Durable Objects were down.
    expect(await alarmAt(paused)).not.toBeNull();
    expect(await alarmAt(deleted)).not.toBeNull();
    expect(
      (await repairs())
        .map((r) => r.schedule_id)
        .filter((id) => id === paused || id === deleted)
        .sort(),
    ).toEqual([paused, deleted].sort());

    await runWatchdog(env);
    expect(await alarmAt(paused)).toBeNull();
    expect(await alarmAt(deleted)).toBeNull();
    expect(await repairOf(paused)).toBeNull();
    expect(await repairOf(deleted)).toBeNull();
  });

  it("resume: the schedule runs again, and the watchdog arms it for its next run", async () => {
    const user = await makeUser();
    const debtor = await makeDebtor(user.id, { debtCents: 5000 });
    const id = await makeSchedule(user.id, debtor.id, { frequency: "weekly" });
    const up = { env, db: db(), ownerId: user.id, now: Date.now() };
    await followAlarms({ env, db: getDb(env.DB) }, { arm: [{ id, at: Date.now() + 7 * 86_400_000 }] });
    await pauseSchedules(up, [id]);
    expect(await alarmAt(id)).toBeNull();

    const { resumed } = await resumeSchedules({ ...up, env: withAlarms(alarmStub(true)) }, [id]);
    expect(resumed.map((r) => r.id)).toEqual([id]);
    const row = await scheduleRow(id);
    expect(row?.state).toBe("ENABLED");
    expect(await alarmAt(id)).toBeNull();
    expect(await repairOf(id)).not.toBeNull();

    await runWatchdog(env);
    expect(await alarmAt(id)).toBe(row?.next_run_at);
    expect(await repairOf(id)).toBeNull();
  });

  it("a repair that fails again stays for the next run; the latest failure is kept once", async () => {
    const user = await makeUser();
    const debtor = await makeDebtor(user.id, { debtCents: 5000 });
    const id = await makeSchedule(user.id, debtor.id, { frequency: "weekly" });
    const down = withAlarms(alarmStub(true));
    expect(await followAlarms({ env: down, db: getDb(env.DB) }, { disarm: [id] })).toBe(1);
    expect(await followAlarms({ env: down, db: getDb(env.DB) }, { disarm: [id, id] })).toBe(1);
    expect((await repairs()).filter((r) => r.schedule_id === id)).toHaveLength(1);

    await runWatchdog(down);
    expect(await repairOf(id)).not.toBeNull();
    await runWatchdog(env);
    expect(await repairOf(id)).toBeNull();
    // The row is ENABLED: the repair armed it, not disarmed it.
    expect(await alarmAt(id)).toBe((await scheduleRow(id))?.next_run_at);
  });
});
