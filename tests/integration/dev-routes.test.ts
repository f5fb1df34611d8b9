import { describe, expect, it } from "vitest";
import { daytimeZone } from "../support/daytime-zone";
import { eventually } from "./data-helpers";
import { alarmAt, fireAndSend, MINUTE, programResend } from "./engine-helpers";
import { deliveriesOf, makeDebtor, makeSchedule, scheduleRow, setSchedule } from "./fixtures";
import { ORIGIN, outboxFor, request, signIn, uniqueEmail, uniqueIp } from "./helpers";

/**
 * POST /dev/schedules/advance: the end-to-end tests skip
 * a schedule's wait with it instead of waiting for the real time. APP_ENV is test here; the
 * production project checks that it answers 404 there.
 */

function advance(body: unknown, cookie?: string) {
  const headers = new Headers({ "Content-Type": "application/json", Origin: ORIGIN, "CF-Connecting-IP": uniqueIp() });
  if (cookie) headers.set("Cookie", cookie);
  return request("/dev/schedules/advance", { method: "POST", headers, body: JSON.stringify(body) });
}

interface Moved {
  id: string;
  createdAt: number;
  nextRunAt: number;
  movedTo: number;
}

describe("POST /dev/schedules/advance", () => {
  it("answers 401 to a visitor and 400 to a wait that is not a positive whole number of milliseconds up to a week", async () => {
    expect((await advance({ ms: MINUTE })).status).toBe(401);
    const user = await signIn(uniqueEmail("advance-bad"));
    for (const body of [
      null,
      [],
      {},
      { ms: 0 },
      { ms: -1 },
      { ms: 1.5 },
      { ms: "60000" },
      { ms: 8 * 24 * 60 * MINUTE },
    ]) {
      expect((await advance(body, user.cookie)).status, JSON.stringify(body)).toBe(400);
    }
  });

  it("moves the caller's enabled schedules only; a 'now' schedule then sends its one reminder through the real alarm and completes", async () => {
    const owner = await signIn(uniqueEmail("advance-owner"));
    const other = await signIn(uniqueEmail("advance-other"));
    const debtor = await makeDebtor(owner.userId, { debtCents: 25000 });
    const once = await makeSchedule(owner.userId, debtor.id, { frequency: "now" });
    const daily = await makeSchedule(owner.userId, debtor.id, { frequency: "daily" });
    const paused = await makeSchedule(owner.userId, debtor.id, { frequency: "daily" });
    await setSchedule(paused, { state: "DISABLED", next_run_at: null });
    const othersDebtor = await makeDebtor(other.userId);
    const others = await makeSchedule(other.userId, othersDebtor.id, { frequency: "now" });
    const before = {
      once: (await scheduleRow(once))!,
      daily: (await scheduleRow(daily))!,
      others: (await scheduleRow(others))!,
    };
    // A 'now' schedule is due one minute after it was made.
    expect(before.once.next_run_at! - before.once.created_at).toBe(MINUTE);

    const res = await advance({ ms: MINUTE }, owner.cookie);
    expect(res.status).toBe(200);
    const moved = ((await res.json()) as Moved[]).sort((a, b) => a.id.localeCompare(b.id));
    expect(moved).toEqual(
      [
        {
          id: once,
          createdAt: before.once.created_at,
          nextRunAt: before.once.next_run_at,
          movedTo: before.once.next_run_at! - MINUTE,
        },
        {
          id: daily,
          createdAt: before.daily.created_at,
          nextRunAt: before.daily.next_run_at,
          movedTo: before.daily.next_run_at! - MINUTE,
        },
      ].sort((a, b) => a.id.localeCompare(b.id)),
    );
    // The daily one is a minute earlier, its alarm with it; the other user's is untouched.
    expect((await scheduleRow(daily))!.next_run_at).toBe(before.daily.next_run_at! - MINUTE);
    expect(await alarmAt(daily)).toBe(before.daily.next_run_at! - MINUTE);
    expect((await scheduleRow(others))!.next_run_at).toBe(before.others.next_run_at);
    expect((await scheduleRow(paused))!.state).toBe("DISABLED");

    // The 'now' schedule's alarm fires at once: one reminder, then the schedule is completed.
    expect(await eventually(async () => (await scheduleRow(once))!.state === "COMPLETED", 15_000)).toBe(true);
    const deliveries = await deliveriesOf(once);
    expect(deliveries.map((d) => d.status)).toEqual(["sent"]);
    const mail = await outboxFor(debtor.email);
    expect(mail).toHaveLength(1);
    expect(mail[0]!.text).toContain("$250.00");
    expect(mail[0]!.replyTo).toMatch(/^r-[0-9a-f]{32}-[0-9a-f]{26}@inbound\.localhost$/);
  });

  it("leaves alone a schedule whose reminder is on its way: called again while it waits for a retry, it never makes a second occurrence", async () => {
    const owner = await signIn(uniqueEmail("advance-inflight"));
    // A zone where it is daytime now: the contact rules (08:00-21:00) let it go at any hour CI runs.
    const zone = daytimeZone();
    const debtor = await makeDebtor(owner.userId, { debtCents: 25000, timeZone: zone });
    const weekly = await makeSchedule(owner.userId, debtor.id, { frequency: "weekly", timeZone: zone });
    const due = Date.now() - MINUTE;
    await setSchedule(weekly, { next_run_at: due });
    // The provider fails the first request: the reminder stays 'sending', its batch waiting for a retry.
    await programResend(debtor.email, [500]);
    expect(await fireAndSend(weekly, Date.now())).toMatchObject({ kind: "done", status: "sending" });
    const before = (await scheduleRow(weekly))!;

    for (let i = 0; i < 3; i++) {
      const res = await advance({ ms: 7 * 24 * 60 * MINUTE }, owner.cookie);
      expect(res.status).toBe(200);
      expect(((await res.json()) as Moved[]).map((m) => m.id)).not.toContain(weekly);
    }
    expect((await scheduleRow(weekly))!.next_run_at).toBe(before.next_run_at);
    expect(await deliveriesOf(weekly)).toMatchObject([{ status: "sending", occurrence_key: `${weekly}:${due}` }]);
  });
});
