import { runDurableObjectAlarm } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { templateForStep } from "~/domain/presets";
import { fireSchedule } from "~/reminders/engine.server";
import { alarmAt, doStorage, MINUTE, resendRequests, stubOf } from "./engine-helpers";
import { deliveriesOf, makeDebtor, scheduleRow, schedulesOf, setSchedule } from "./fixtures";
import { DAY, get, signIn, uniqueEmail } from "./helpers";
import { act, createVia, DATE_MSG, expectNextMondayTen, PRESET_MSG, SCHEDULED, ZONE } from "./schedule-helpers";

/**
 * Editing and deleting a schedule through the schedule actions route: the row in place,
 * the re-armed or removed alarm, and what fires afterwards.
 */

// Update --------------------------------------------------------------------------------------

describe("schedule-update", () => {
  it("changes the schedule in place, re-arms the alarm, keeps the step for the same preset and resets it for another", async () => {
    const a = await signIn(uniqueEmail("update"));
    const d1 = await makeDebtor(a.userId, { fullName: "First Debtor" });
    const d2 = await makeDebtor(a.userId, { fullName: "Second Debtor" });
    const created = await createVia(a, {
      debtor_id: String(d1.id),
      preset: "FRIENDLY_REMINDER",
      frequency: "daily",
      time_zone: ZONE,
    });
    // Two reminders already went out: the sequence is at its third template.
    await setSchedule(created.id, { template_step: 2 });

    const t0 = Date.now();
    const same = await act(
      {
        intent: "schedule-update",
        id: created.id,
        debtor_id: String(d1.id),
        preset: "FRIENDLY_REMINDER",
        frequency: "weekly",
        time_zone: "Asia/Kolkata",
        due_date: "2027-06-01",
      },
      { cookie: a.cookie },
    );
    expect(same.status, same.text).toBe(200);
    expect(same.body).toMatchObject({ intent: "schedule-update", ok: true, message: SCHEDULED });
    let rows = await schedulesOf(a.userId);
    expect(rows).toHaveLength(1);
    let row = rows[0]!;
    expect(row).toMatchObject({
      id: created.id,
      created_at: created.created_at,
      frequency: "weekly",
      time_zone: "Asia/Kolkata",
      due_date: "2027-06-01",
      template_step: 2,
      preset: "FRIENDLY_REMINDER",
    });
    expect(templateForStep("FRIENDLY_REMINDER", row.template_step)).toBe("second-follow-up");
    expect(row.updated_at).toBeGreaterThanOrEqual(t0);
    expectNextMondayTen(row.next_run_at, t0 - 1, "Asia/Kolkata");
    expect(await alarmAt(created.id)).toBe(row.next_run_at);

    // Another preset (and debtor): the sequence starts again; 'now' runs a minute after the edit.
    const t1 = Date.now();
    const other = await act(
      {
        intent: "schedule-update",
        id: created.id,
        debtor_id: String(d2.id),
        preset: "SINGLE_REMINDER",
        frequency: "now",
        time_zone: ZONE,
      },
      { cookie: a.cookie },
    );
    const t2 = Date.now();
    expect(other.status, other.text).toBe(200);
    rows = await schedulesOf(a.userId);
    expect(rows).toHaveLength(1);
    row = rows[0]!;
    expect(row).toMatchObject({
      id: created.id,
      debtor_id: d2.id,
      preset: "SINGLE_REMINDER",
      frequency: "now",
      template_step: 0,
      // None given: the debtor's earliest open due date (their one invoice's).
      due_date: "2026-01-15",
      state: "ENABLED",
    });
    expect(templateForStep("SINGLE_REMINDER", row.template_step)).toBe("single");
    expect(row.next_run_at).toBe(row.updated_at + MINUTE);
    expect(row.updated_at).toBeGreaterThanOrEqual(t1);
    expect(row.updated_at).toBeLessThanOrEqual(t2);
    expect(await alarmAt(created.id)).toBe(row.next_run_at);

    // The preset alone changing resets the step too.
    await setSchedule(created.id, { template_step: 3 });
    await act(
      {
        intent: "schedule-update",
        id: created.id,
        debtor_id: String(d2.id),
        preset: "FRIENDLY_REMINDER",
        time_zone: ZONE,
      },
      { cookie: a.cookie },
    );
    expect((await scheduleRow(created.id))!.template_step).toBe(0);
  });

  it("a disabled schedule edited is enabled again with a fresh alarm", async () => {
    const a = await signIn(uniqueEmail("reenable"));
    const d = await makeDebtor(a.userId);
    const created = await createVia(a, { debtor_id: String(d.id), preset: "SINGLE_REMINDER", time_zone: ZONE });
    await setSchedule(created.id, { state: "DISABLED" });
    await stubOf(created.id).disarm();
    const res = await act(
      {
        intent: "schedule-update",
        id: created.id,
        debtor_id: String(d.id),
        preset: "SINGLE_REMINDER",
        time_zone: ZONE,
      },
      { cookie: a.cookie },
    );
    expect(res.status).toBe(200);
    const row = (await scheduleRow(created.id))!;
    expect(row.state).toBe("ENABLED");
    expect(await alarmAt(created.id)).toBe(row.next_run_at);
  });

  it("invalid fields: 400 and the row is unchanged; an unknown or missing id: 404", async () => {
    const a = await signIn(uniqueEmail("update-bad"));
    const d = await makeDebtor(a.userId);
    const created = await createVia(a, { debtor_id: String(d.id), preset: "SINGLE_REMINDER", time_zone: ZONE });
    const bad = await act(
      { intent: "schedule-update", id: created.id, debtor_id: String(d.id), preset: "", due_date: "2027-13-01" },
      { cookie: a.cookie },
    );
    expect(bad.status).toBe(400);
    expect(bad.body.result.error).toEqual({ preset: [PRESET_MSG], due_date: [DATE_MSG] });
    expect(await scheduleRow(created.id)).toEqual(created);
    for (const id of [undefined, "", `${a.userId}-00000000-0000-4000-8000-000000000000`]) {
      const res = await act(
        { intent: "schedule-update", id, debtor_id: String(d.id), preset: "SINGLE_REMINDER" },
        { cookie: a.cookie },
      );
      expect(res.status, String(id)).toBe(404);
    }
    expect(await schedulesOf(a.userId)).toEqual([created]);
  });
});

// Delete --------------------------------------------------------------------------------------

describe("schedule-delete", () => {
  it("removes the row and the alarm; nothing fires afterwards; a second delete answers 404", async () => {
    const a = await signIn(uniqueEmail("delete"));
    const d = await makeDebtor(a.userId);
    const keep = await createVia(a, { debtor_id: String(d.id), preset: "SINGLE_REMINDER", time_zone: ZONE });
    const gone = await createVia(a, { debtor_id: String(d.id), preset: "FRIENDLY_REMINDER", time_zone: ZONE });
    expect(await alarmAt(gone.id)).toBe(gone.next_run_at);

    const res = await act({ intent: "schedule-delete", id: gone.id }, { cookie: a.cookie });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ intent: "schedule-delete", ok: true, message: "Schedule deleted" });
    expect(await scheduleRow(gone.id)).toBeNull();
    expect(await alarmAt(gone.id)).toBeNull();
    expect(await doStorage(gone.id)).toEqual({});
    // The other schedule is untouched.
    expect(await scheduleRow(keep.id)).toEqual(keep);
    expect(await alarmAt(keep.id)).toBe(keep.next_run_at);

    // No alarm is left to run, and firing it anyway finds nothing to send.
    expect(await runDurableObjectAlarm(stubOf(gone.id))).toBe(false);
    expect(await fireSchedule(env, gone.id, Date.now() + 2 * DAY)).toEqual({ kind: "gone" });
    expect(await deliveriesOf(gone.id)).toEqual([]);
    expect(await resendRequests(d.email)).toEqual([]);

    const again = await act({ intent: "schedule-delete", id: gone.id }, { cookie: a.cookie });
    expect(again.status).toBe(404);
    expect((await get(`/schedules/${gone.id}`, { cookie: a.cookie })).status).toBe(404);
  });
});
