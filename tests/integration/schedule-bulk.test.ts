import { describe, expect, it } from "vitest";
import { eventually } from "./data-helpers";
import { alarmAt, expectNextTenOClock, resendRequests } from "./engine-helpers";
import { deliveriesOf, makeDebtor, scheduleRow, schedulesOf, schedulesOfDebtor, setSchedule } from "./fixtures";
import { outboxFor, signIn, uniqueEmail } from "./helpers";
import { act, createVia, RESCHEDULED, ZONE } from "./schedule-helpers";

/**
 * "Send now" and the debtors' re-send through the schedule actions route: the alarm moved
 * to now or a new 'now' schedule per debtor, and the one e-mail each sends.
 */

// Send now ------------------------------------------------------------------------------------

describe("schedule-send-now", () => {
  it("moves the next run of the owner's enabled schedules to now and the alarm sends one e-mail; others are untouched", async () => {
    const a = await signIn(uniqueEmail("sendnow"));
    const b = await signIn(uniqueEmail("sendnow-other"));
    const d = await makeDebtor(a.userId, { fullName: "Now Debtor", debtCents: 4200 });
    const dOff = await makeDebtor(a.userId);
    const dB = await makeDebtor(b.userId);
    const enabled = await createVia(a, { debtor_id: String(d.id), preset: "FRIENDLY_REMINDER", time_zone: ZONE });
    const disabled = await createVia(a, { debtor_id: String(dOff.id), preset: "SINGLE_REMINDER", time_zone: ZONE });
    await setSchedule(disabled.id, { state: "DISABLED" });
    const disabledRow = await scheduleRow(disabled.id);
    const others = await createVia(b, { debtor_id: String(dB.id), preset: "SINGLE_REMINDER", time_zone: ZONE });

    const t0 = Date.now();
    const res = await act(
      { intent: "schedule-send-now", ids: [enabled.id, disabled.id, others.id, "no-such-id"] },
      { cookie: a.cookie },
    );
    const t1 = Date.now();
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({
      intent: "schedule-send-now",
      ok: true,
      count: 1,
      message: "The next reminder is being sent now.",
    });

    // The alarm is set for now (unless it is already running or has run): the runtime fires it by
    // itself, at once, and it sends the occurrence due now.
    const pending = await alarmAt(enabled.id);
    if (pending !== null && (await deliveriesOf(enabled.id)).length === 0) expect(pending).toBeLessThanOrEqual(t1);
    expect(await eventually(async () => (await deliveriesOf(enabled.id)).some((x) => x.status === "sent"), 5000)).toBe(
      true,
    );
    const [delivery] = await deliveriesOf(enabled.id);
    const occurrence = Number(delivery!.occurrence_key.split(":").at(-1));
    expect(occurrence).toBeGreaterThanOrEqual(t0);
    expect(occurrence).toBeLessThanOrEqual(t1);
    expect(delivery).toMatchObject({ owner_id: a.userId, debtor_id: d.id, template: "initial", status: "sent" });
    const mails = await outboxFor(d.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.html).toContain("$42.00");
    // Then the schedule goes on: second template, next 10:00, alarm there.
    const row = (await scheduleRow(enabled.id))!;
    expect(row).toMatchObject({ last_run_at: occurrence, template_step: 1, state: "ENABLED" });
    expectNextTenOClock(row.next_run_at, occurrence, ZONE);
    expect(await alarmAt(enabled.id)).toBe(row.next_run_at);

    // The disabled one and B's are as they were; their debtors got nothing.
    expect(await scheduleRow(disabled.id)).toEqual(disabledRow);
    expect(await alarmAt(disabled.id)).toBe(disabled.next_run_at);
    expect(await scheduleRow(others.id)).toEqual(others);
    expect(await alarmAt(others.id)).toBe(others.next_run_at);
    expect(await resendRequests(dOff.email)).toEqual([]);
    expect(await resendRequests(dB.email)).toEqual([]);
    // Still exactly one e-mail a moment later.
    expect(await outboxFor(d.email)).toHaveLength(1);
  });

  it("only disabled ids: 404 and nothing moves; no ids: 400", async () => {
    const a = await signIn(uniqueEmail("sendnow-none"));
    const d = await makeDebtor(a.userId);
    const s = await createVia(a, { debtor_id: String(d.id), preset: "SINGLE_REMINDER", time_zone: ZONE });
    await setSchedule(s.id, { state: "DISABLED" });
    const before = await scheduleRow(s.id);
    const res = await act({ intent: "schedule-send-now", ids: [s.id] }, { cookie: a.cookie });
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({
      ok: false,
      message: "None of the selected schedules can send now (only active ones can).",
    });
    expect(await scheduleRow(s.id)).toEqual(before);
    expect(await alarmAt(s.id)).toBe(s.next_run_at);
    const none = await act({ intent: "schedule-send-now" }, { cookie: a.cookie });
    expect(none.status).toBe(400);
    expect(none.body).toMatchObject({ ok: false, message: "Select at least one schedule." });
    // More than one bulk action may name: told so, and nothing moves.
    for (const intent of ["schedule-send-now", "schedule-pause", "schedule-resume"]) {
      const tooMany = await act({ intent, ids: Array.from({ length: 101 }, () => s.id) }, { cookie: a.cookie });
      expect(tooMany.status, intent).toBe(400);
      expect(tooMany.body).toMatchObject({ ok: false, message: "Select at most 100 schedules at a time." });
    }
    expect(await scheduleRow(s.id)).toEqual(before);
  });
});

// Re-send -------------------------------------------------------------------------------------

describe("debtor-resend", () => {
  it("one 'now' Single Reminder per selected owned debtor, armed now, each delivering one e-mail", async () => {
    const a = await signIn(uniqueEmail("resend"));
    const b = await signIn(uniqueEmail("resend-other"));
    const d1 = await makeDebtor(a.userId, { fullName: "Resend One", debtCents: 1999 });
    const d2 = await makeDebtor(a.userId, { fullName: "Resend Two", activeStrategy: 3 });
    const unselected = await makeDebtor(a.userId);
    const dB = await makeDebtor(b.userId);

    const t0 = Date.now();
    const res = await act(
      { intent: "debtor-resend", ids: [String(d1.id), String(d2.id), String(dB.id), "99999999"] },
      { cookie: a.cookie, tz: "Asia/Tokyo" },
    );
    const t1 = Date.now();
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ intent: "debtor-resend", ok: true, message: RESCHEDULED, count: 2 });

    const rows = await schedulesOf(a.userId);
    expect(rows.map((r) => r.debtor_id).sort()).toEqual([d1.id, d2.id].sort());
    for (const r of rows) {
      expect(r).toMatchObject({
        owner_id: a.userId,
        preset: "SINGLE_REMINDER",
        frequency: "now",
        template_step: 0,
        time_zone: "Asia/Tokyo",
      });
      expect(r.created_at).toBeGreaterThanOrEqual(t0);
      expect(r.created_at).toBeLessThanOrEqual(t1);
    }
    expect(await schedulesOf(b.userId)).toEqual([]);
    expect(await schedulesOfDebtor(dB.id)).toHaveLength(0);
    expect(await schedulesOfDebtor(unselected.id)).toHaveLength(0);

    for (const [debtor, r] of [
      [d1, rows.find((x) => x.debtor_id === d1.id)!],
      [d2, rows.find((x) => x.debtor_id === d2.id)!],
    ] as const) {
      // Due now: the runtime fires the alarm at once by itself, and the one-time schedule completes.
      const pending = await alarmAt(r.id);
      if (pending !== null && (await deliveriesOf(r.id)).length === 0) expect(pending).toBeLessThanOrEqual(t1);
      expect(
        await eventually(async () => (await scheduleRow(r.id))!.state === "COMPLETED", 5000),
        debtor.fullName,
      ).toBe(true);
      const delivered = await deliveriesOf(r.id);
      expect(delivered).toHaveLength(1);
      expect(delivered[0]).toMatchObject({
        template: "single",
        status: "sent",
        debtor_id: debtor.id,
        tone: debtor.activeStrategy,
      });
      expect(Number(delivered[0]!.occurrence_key.split(":").at(-1))).toBe(r.created_at);
      const mails = await outboxFor(debtor.email);
      expect(mails).toHaveLength(1);
      expect(mails[0]!.replyTo).toMatch(/^r-[0-9a-f]{32}-[0-9a-f]{26}@inbound\.localhost$/);
      expect(await alarmAt(r.id)).toBeNull();
    }
    expect((await outboxFor(d1.email))[0]!.html).toContain("$19.99");
    expect(await resendRequests(dB.email)).toEqual([]);
    expect(await resendRequests(unselected.email)).toEqual([]);
  });

  it("no ids or malformed ids: 400 and nothing is created", async () => {
    const a = await signIn(uniqueEmail("resend-bad"));
    const d = await makeDebtor(a.userId);
    for (const ids of [undefined, ["abc"], ["0"], [`${d.id}`, "-1"]]) {
      const res = await act({ intent: "debtor-resend", ids }, { cookie: a.cookie });
      expect(res.status, JSON.stringify(ids)).toBe(400);
      expect(res.body).toMatchObject({ ok: false, message: "Select at least one debtor." });
    }
    const tooMany = await act(
      { intent: "debtor-resend", ids: Array.from({ length: 101 }, () => `${d.id}`) },
      { cookie: a.cookie },
    );
    expect(tooMany.status).toBe(400);
    expect(tooMany.body).toMatchObject({ ok: false, message: "Select at most 100 debtors at a time." });
    expect(await schedulesOf(a.userId)).toEqual([]);
  });
});
