import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { prepareFiring } from "~/reminders/engine.server";
import { MAIL_HANDOFF_NAME } from "~/reminders/handoff.server";
import { runMailRecovery } from "~/reminders/watchdog.server";
import { alarmAt, doStorage, dueNow, MINUTE, resendDelivered, settled, stubOf } from "./engine-helpers";
import { deliveriesOf, deliveriesOfOwner, makeDebtor, makeSchedule, makeUser, setPlan, setSchedule } from "./fixtures";

/**
 * The mail handoff (docs/decisions/029): the schedules' alarms hand their claims to one Durable
 * Object, which claims them 50 a D1 batch and queues the jobs 100 a call. What an alarm's own claim
 * guaranteed holds for claims made together: the limits count each one before it, a repeated hand-
 * off makes one delivery and one e-mail, and one claim that cannot be made holds up no other.
 */

const handoff = () => env.MAIL_HANDOFF.get(env.MAIL_HANDOFF.idFromName(MAIL_HANDOFF_NAME));

/** `count` due schedules of one owner, each to its own debtor, their objects armed. */
async function dueSchedules(ownerId: string, count: number) {
  const due = dueNow();
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const debtor = await makeDebtor(ownerId, { fullName: `Debtor ${i}` });
    const id = await makeSchedule(ownerId, debtor.id, { preset: "FRIENDLY_REMINDER", timeZone: "UTC" });
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

  it("an alarm run twice hands its claim twice: one delivery, one e-mail", async () => {
    const user = await makeUser();
    const { due, ids } = await dueSchedules(user.id, 1);
    const [id] = ids as [string];
    const claim = await claimOf(id);
    await Promise.all([handoff().claim(claim), handoff().claim(claim)]);
    await settled(id, due, { before: null, ranFrom: Date.now(), ranTo: Date.now() });

    expect(await statusesOf(ids)).toEqual([["sent"]]);
    const [row] = await deliveriesOf(id);
    expect(await resendDelivered(row!.recipient!)).toHaveLength(1);
  });

  it("a claim whose owner was deleted meanwhile is dropped; the others claimed with it are sent", async () => {
    const gone = await makeUser();
    const kept = await makeUser();
    const a = await dueSchedules(gone.id, 1);
    const b = await dueSchedules(kept.id, 2);
    const claims = [];
    for (const id of [...a.ids, ...b.ids]) {
      claims.push(await claimOf(id));
    }
    await env.DB.prepare("DELETE FROM users WHERE id = ?").bind(gone.id).run();
    for (const claim of claims) await handoff().claim(claim);
    await Promise.all(b.ids.map((id) => settled(id, b.due, { before: null, ranFrom: Date.now(), ranTo: Date.now() })));

    expect(await statusesOf(b.ids)).toEqual([["sent"], ["sent"]]);
    expect(await deliveriesOfOwner(gone.id)).toEqual([]);
    expect(await handoff().waiting()).toBe(0);
  });

  it("claims left with no alarm (a failing alarm the runtime gave up on) are taken up by the watchdog's next run", async () => {
    const user = await makeUser();
    const { due, ids } = await dueSchedules(user.id, 1);
    const [id] = ids as [string];
    const claim = await claimOf(id);
    // In the object's storage, and no alarm to take it.
    await runInDurableObject(handoff(), async (_object, state) => {
      await state.storage.put(`claim:${id}:${due}`, claim);
      await state.storage.deleteAlarm();
    });
    expect(await runInDurableObject(handoff(), (_object, state) => state.storage.getAlarm())).toBeNull();
    expect(await deliveriesOf(id)).toEqual([]);

    const ranFrom = Date.now();
    expect((await runMailRecovery(env)).handedOver).toBe(1);
    await settled(id, due, { before: null, ranFrom, ranTo: Date.now() });
    expect(await statusesOf(ids)).toEqual([["sent"]]);
  });
});
