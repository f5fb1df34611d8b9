import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { getDb } from "~/db/client.server";
import { claimOccurrences } from "~/reminders/deliveries.server";
import { claimArgs, fireSchedule, prepareFiring, QUEUED_RECHECK_MS } from "~/reminders/engine.server";
import { loadFirings } from "~/reminders/firing.server";
import { MAIL_HANDOFF_NAME } from "~/reminders/handoff.server";
import { runMailRecovery } from "~/watchdog/index.server";
import { daytimeZone } from "../support/daytime-zone";
import { alarmAt, doStorage, dueNow, MINUTE, resendDelivered, settled, stubOf } from "./engine-helpers";
import {
  deliveriesOf,
  deliveriesOfOwner,
  insertDelivery,
  makeDebtor,
  makeInvoice,
  makeSchedule,
  makeUser,
  setPlan,
  setSchedule,
} from "./fixtures";

/**
 * The mail handoff (docs/decisions/029 and 031): the schedules' alarms fire through one Durable
 * Object, which loads and claims them 50 a D1 batch and queues the jobs 100 a call, answering each
 * alarm with its outcome. What an alarm's own firing guaranteed holds for firings made together: the
 * limits count each claim before the next, each object's alarm goes where it would have, a repeated
 * firing makes one delivery and one e-mail, and one claim that cannot be made holds up no other.
 */

const handoff = () => env.MAIL_HANDOFF.get(env.MAIL_HANDOFF.idFromName(MAIL_HANDOFF_NAME));

/** `count` due schedules of one owner, each to its own debtor, their objects armed. */
async function dueSchedules(ownerId: string, count: number) {
  const due = dueNow();
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const debtor = await makeDebtor(ownerId, { fullName: `Debtor ${i}` });
    // Midday in its zone: the next daily run (10:00) is tomorrow, beyond the hour a queued reminder waits, at any hour of the test.
    const id = await makeSchedule(ownerId, debtor.id, { preset: "FRIENDLY_REMINDER", timeZone: daytimeZone() });
    await setSchedule(id, { next_run_at: due });
    await stubOf(id).arm(id, Date.now() + 60 * MINUTE, { force: true });
    ids.push(id);
  }
  return { due, ids };
}

/** The claim a due schedule's alarm would hand over. */
async function claimOf(scheduleId: string) {
  const prepared = await prepareFiring(env, scheduleId, Date.now());
  if (prepared.kind !== "claim") throw new Error(`expected a claim, got ${prepared.kind}`);
  return prepared.claim;
}

async function statusesOf(ids: readonly string[]) {
  return (await Promise.all(ids.map((id) => deliveriesOf(id)))).map((rows) => rows.map((d) => d.status));
}

describe("the mail handoff", () => {
  it("twelve alarms of one account at once: claimed together, the quota still counts each; ten sent once, two held back", async () => {
    const user = await makeUser();
    await setPlan(user.id, "soft"); // 10 a day
    const { due, ids } = await dueSchedules(user.id, 12);
    const ranFrom = Date.now();
    expect(await Promise.all(ids.map((id) => runDurableObjectAlarm(stubOf(id))))).toEqual(ids.map(() => true));
    await Promise.all(ids.map((id) => settled(id, due, { before: null, ranFrom, ranTo: Date.now() })));

    const rows = await deliveriesOfOwner(user.id);
    expect(rows).toHaveLength(12);
    expect(rows.filter((d) => d.status === "sent")).toHaveLength(10);
    const held = rows.filter((d) => d.status === "deferred");
    expect(held).toHaveLength(2);
    for (const d of held) {
      expect(d.error).toContain("Daily limit of 10 reminders reached for this account.");
      const id = d.schedule_id!;
      // The object keeps the occurrence and comes back when the quota has room (a day after the oldest).
      expect((await doStorage(id)).deferred).toBe(`${id}:${due}`);
      expect(await alarmAt(id)).toBe(Math.min(...rows.map((r) => r.created_at)) + 24 * 60 * MINUTE);
    }
    for (const d of rows.filter((r) => r.status === "sent")) {
      expect(await resendDelivered(d.recipient!)).toHaveLength(1);
    }
    expect(await handoff().waiting()).toBe(0);
  });

  it("each object's alarm goes to its next run, as when it fired alone", async () => {
    const user = await makeUser();
    const { due, ids } = await dueSchedules(user.id, 3);
    const ranFrom = Date.now();
    expect(await Promise.all(ids.map((id) => runDurableObjectAlarm(stubOf(id))))).toEqual([true, true, true]);
    const ranTo = Date.now();
    // Daily: set at once to tomorrow's run, which the consumer then gives the schedule.
    const right = await Promise.all(ids.map((id) => alarmAt(id)));
    for (const at of right) expect(at).toBeGreaterThan(ranTo + QUEUED_RECHECK_MS);
    await Promise.all(ids.map((id) => settled(id, due, { before: null, ranFrom, ranTo })));
    for (const [i, id] of ids.entries()) {
      const row = await env.DB.prepare("SELECT next_run_at FROM schedules WHERE id = ?")
        .bind(id)
        .first<{ next_run_at: number }>();
      expect(row?.next_run_at).toBe(right[i]);
      expect(await alarmAt(id)).toBe(right[i]);
    }
    expect(await statusesOf(ids)).toEqual([["sent"], ["sent"], ["sent"]]);
  });

  it("an edit that sets a sooner alarm while the alarm waits for its firing keeps it", async () => {
    const user = await makeUser();
    const { due, ids } = await dueSchedules(user.id, 1);
    const [id] = ids as [string];
    const ranFrom = Date.now();
    const ran = runDurableObjectAlarm(stubOf(id));
    // The handoff gathers for 50 ms before it fires: the edit's arm lands while the alarm waits.
    await new Promise((resolve) => setTimeout(resolve, 10));
    const sooner = Date.now() + 5 * MINUTE;
    await stubOf(id).arm(id, sooner, { force: true });
    expect(await ran).toBe(true);
    expect(await alarmAt(id)).toBe(sooner);
    await settled(id, due, { before: null, ranFrom, ranTo: Date.now() });
    expect(await statusesOf(ids)).toEqual([["sent"]]);
  });

  it("a schedule fired twice through the handoff, together or one after the other: one delivery, one e-mail", async () => {
    const user = await makeUser();
    const { due, ids } = await dueSchedules(user.id, 1);
    const [id] = ids as [string];
    const [first, second] = await Promise.all([handoff().fire(id, null), handoff().fire(id, null)]);
    expect(first.kind).toBe("queued");
    expect(second).toEqual(first);
    // Again after it was claimed (an alarm retried): the same row and the job queued again (dropped by
    // the consumer), or, once the consumer has sent it, the schedule is not due any more.
    expect(["queued", "not-due"]).toContain((await handoff().fire(id, null)).kind);
    await settled(id, due, { before: null, ranFrom: Date.now(), ranTo: Date.now() });

    expect(await statusesOf(ids)).toEqual([["sent"]]);
    const [row] = await deliveriesOf(id);
    expect(await resendDelivered(row!.recipient!)).toHaveLength(1);
  });

  it("claims in one batch, one whose owner was deleted after its load: that one is dropped, the others made", async () => {
    const gone = await makeUser();
    const kept = await makeUser();
    const a = await dueSchedules(gone.id, 1);
    const b = await dueSchedules(kept.id, 2);
    const claims = [];
    for (const id of [...a.ids, ...b.ids]) {
      claims.push(await claimOf(id));
    }
    await env.DB.prepare("DELETE FROM users WHERE id = ?").bind(gone.id).run();
    const now = Date.now();
    const rows = await claimOccurrences(
      getDb(env.DB),
      claims.map((c) => claimArgs(c, now)),
    );
    expect(rows.map((r) => r?.status)).toEqual([undefined, "sending", "sending"]);
    expect(await deliveriesOfOwner(gone.id)).toEqual([]);
  });

  it("jobs left with no alarm (a failing alarm the runtime gave up on) are queued by the watchdog's next run", async () => {
    const user = await makeUser();
    const { due, ids } = await dueSchedules(user.id, 1);
    const [id] = ids as [string];
    const fired = await fireSchedule(env, id, Date.now());
    if (fired.kind !== "queued") throw new Error(`expected a queued job, got ${fired.kind}`);
    // In the object's storage, and no alarm to take it.
    await runInDurableObject(handoff(), async (_object, state) => {
      await state.storage.put(`job:${fired.job.deliveryId}`, fired.job);
      await state.storage.deleteAlarm();
    });
    expect(await handoff().waiting()).toBe(1);

    const ranFrom = Date.now();
    expect((await runMailRecovery(env)).handedOver).toBe(1);
    await settled(id, due, { before: null, ranFrom, ranTo: Date.now() });
    expect(await statusesOf(ids)).toEqual([["sent"]]);
  });

  it("one load for many schedules gives each its own owner, debtor, statement, opt-out and recent reminders", async () => {
    const a = await makeUser("Ann Owner");
    const b = await makeUser("Bob Owner");
    await setPlan(b.id, "soft");
    const email = `shared-${a.id}@example.com`;
    // The same address is a debtor of both; only Ann's reminders to it are opted out.
    const ad = await makeDebtor(a.id, { email });
    const bd = await makeDebtor(b.id, { email });
    await makeInvoice(b.id, bd.id, { number: "B-2", amountCents: 7_700 });
    const sa = await makeSchedule(a.id, ad.id);
    const sb = await makeSchedule(b.id, bd.id);
    // A schedule pointing at another owner's debtor (no such row is ever written by the app) gets no debtor.
    const stray = await makeSchedule(a.id, ad.id);
    await setSchedule(stray, { debtor_id: bd.id });
    await env.DB.prepare("INSERT INTO opt_outs (owner_id, email) VALUES (?, ?)").bind(a.id, email).run();
    await insertDelivery(a.id, ad.id, "sent");
    await insertDelivery(a.id, ad.id, "sent");

    const since = Date.now() - 60 * MINUTE;
    const firings = await loadFirings(getDb(env.DB), [sa, "no-such-schedule", sb, stray, sa], since);
    expect([...firings.keys()].sort()).toEqual([sa, sb, stray].sort());
    const fa = firings.get(sa)!;
    const fb = firings.get(sb)!;
    expect(fa.user?.fullName).toBe("Ann Owner");
    expect(fb.user?.fullName).toBe("Bob Owner");
    expect(fb.plan).toBe("soft");
    expect(fa.debtor?.id).toBe(ad.id);
    expect(fb.debtor?.id).toBe(bd.id);
    expect(fa.optedOut).toBe(true);
    expect(fb.optedOut).toBe(false);
    expect(fa.debtorInstants).toHaveLength(2);
    expect(fb.debtorInstants).toEqual([]);
    expect(fb.statement.lines.map((l) => l.number)).toContain("B-2");
    expect(fa.statement.lines.map((l) => l.number)).not.toContain("B-2");
    const fs = firings.get(stray)!;
    expect(fs.debtor).toBeUndefined();
    expect(fs.statement.lines).toEqual([]);
    expect(fs.user?.fullName).toBe("Ann Owner");
  });
});
