import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { accentColours } from "~/domain/brand";
import type { FrequencyId } from "~/domain/frequencies";
import { advancePast } from "~/domain/occurrence";
import {
  claimOccurrence,
  markDeliveryFailed,
  markDeliverySent,
  recordDeliveryError,
} from "~/reminders/deliveries.server";
import { advanceSchedule, completeSchedule, currentAlarm } from "~/reminders/occurrences.server";
import { getSenderAndDebtors } from "~/reminders/schedules.server";
import { createResendSchedules, sendNow } from "~/reminders/writes.server";
import { HOUR, MINUTE } from "./engine-helpers";
import {
  alarmStub,
  db,
  deliveriesOf,
  makeDebtor,
  makeOrg,
  makeSchedule,
  makeUser,
  scheduleRow,
  setSchedule,
  withAlarms,
} from "./fixtures";
import { uniqueEmail } from "./helpers";

/**
 * The lifecycle's scope for the owner, with Durable Objects that only record (alarmStub): these
 * tests look at the rows, and 100 real alarms due now would fire while they do.
 */
const scopeOf = (ownerId: string, now = Date.now()) => ({ env: withAlarms(alarmStub()), db: db(), ownerId, now });

/**
 * The models the engine and the bulk actions stand on, straight against D1: the sender and
 * debtor lookup, bulk writes of 100 ids (D1 binds at most 100 values per statement), and the
 * delivery and schedule writes of one occurrence.
 */

/** `count` debtors of `ownerId` in one batch; their ids in order. */
async function makeDebtors(ownerId: string, count: number, debtCents = 10_000) {
  const insert = env.DB.prepare(
    "INSERT INTO debtors (owner_id, full_name, email, debt_cents) VALUES (?, ?, ?, ?) RETURNING id",
  );
  const results = await env.DB.batch<{ id: number }>(
    Array.from({ length: count }, (_, i) => insert.bind(ownerId, `Debtor ${i}`, uniqueEmail(`bulk${i}`), debtCents)),
  );
  return results.map((r) => {
    const row = r.results[0];
    if (!row) throw new Error("no debtor id");
    return row.id;
  });
}

describe("getSenderAndDebtors", () => {
  it("returns the owner, the owner's debtors and organization, and nothing of another user", async () => {
    const owner = await makeUser("Olive Owner");
    const other = await makeUser();
    const mine = await makeDebtor(owner.id, { fullName: "My Debtor" });
    const theirs = await makeDebtor(other.id);
    const myOrg = await makeOrg(owner.id, "Olive Ltd", "1 Main St");
    const theirOrg = await makeOrg(other.id, "Other Ltd", "2 Side St");

    const found = await getSenderAndDebtors(db(), owner.id, [mine.id, theirs.id], myOrg);
    expect(found.user).toEqual({
      fullName: "Olive Owner",
      email: owner.email,
      paymentUrl: null,
      locale: null,
      businessName: null,
      // Dunly's look until the user sets a brand (docs/decisions/058).
      brand: {
        name: "Olive Owner",
        logoUrl: null,
        accent: "#6d28d9",
        accentDark: accentColours(null).dark,
        signature: null,
        poweredBy: true,
      },
    });
    expect(found.debtors.map((d) => d.id)).toEqual([mine.id]);
    expect(found.debtors[0]).toMatchObject({ ownerId: owner.id, fullName: "My Debtor", debtCents: 123450 });
    expect(found.org).toEqual({ id: myOrg, name: "Olive Ltd", address: "1 Main St", paymentUrl: null });

    expect((await getSenderAndDebtors(db(), owner.id, [mine.id], theirOrg)).org).toBeUndefined();
    expect((await getSenderAndDebtors(db(), owner.id, [mine.id], null)).org).toBeUndefined();
    expect((await getSenderAndDebtors(db(), owner.id, [theirs.id])).debtors).toEqual([]);
    expect((await getSenderAndDebtors(db(), "no-such-user", [mine.id])).user).toBeUndefined();
  });

  it("finds 120 debtors at once (more ids than one statement may bind), each once", async () => {
    const owner = await makeUser();
    const ids = await makeDebtors(owner.id, 120);
    const found = await getSenderAndDebtors(db(), owner.id, [...ids, ...ids.slice(0, 10)]);
    expect(found.debtors.map((d) => d.id).sort((a, b) => a - b)).toEqual([...ids].sort((a, b) => a - b));
  });
});

describe("createResendSchedules with 100 debtors", () => {
  it("creates one 'now' Single Reminder per debtor of the owner: 100 schedules", async () => {
    const owner = await makeUser("Rita Resender");
    const ids = await makeDebtors(owner.id, 100, 4250);
    const now = Date.now();

    const created = (await createResendSchedules(scopeOf(owner.id, now), ids, "Asia/Tokyo")).created;
    expect(created).toHaveLength(100);
    expect(new Set(created.map((s) => s.id)).size).toBe(100);
    expect(created.every((s) => s.nextRunAt === now)).toBe(true);

    const rows = (
      await env.DB.prepare("SELECT * FROM schedules WHERE owner_id = ?").bind(owner.id).all<Record<string, unknown>>()
    ).results;
    expect(rows).toHaveLength(100);
    expect(rows.map((r) => r.debtor_id).sort()).toEqual([...ids].sort());
    for (const row of rows) {
      expect(row).toMatchObject({
        preset: "SINGLE_REMINDER",
        frequency: "now",
        state: "ENABLED",
        template_step: 0,
        time_zone: "Asia/Tokyo",
        next_run_at: now,
        organization_id: null,
      });
    }
  });

  it("skips other users' debtors and repeated ids; nothing for none of the owner's", async () => {
    const owner = await makeUser();
    const other = await makeUser();
    const mine = await makeDebtors(owner.id, 60);
    const theirs = await makeDebtors(other.id, 40);
    const requested = [...theirs.slice(0, 20), ...mine, ...mine.slice(0, 20)];
    expect(requested).toHaveLength(100);

    const created = (await createResendSchedules(scopeOf(owner.id), requested, "UTC")).created;
    expect(created).toHaveLength(60);
    const count = await env.DB.prepare("SELECT count(*) AS n FROM schedules WHERE owner_id = ?")
      .bind(other.id)
      .first<{ n: number }>();
    expect(count?.n).toBe(0);

    expect(await createResendSchedules(scopeOf(owner.id), theirs, "UTC")).toEqual({ created: [], unsendable: 0 });
    expect(await createResendSchedules(scopeOf(owner.id), [], "UTC")).toEqual({ created: [], unsendable: 0 });
  });
});

describe("sendNow with 100 ids", () => {
  it("moves the next run of all 100 of the owner's enabled schedules to now, and nothing else", async () => {
    const owner = await makeUser();
    const other = await makeUser();
    const later = Date.now() + 3 * HOUR;
    const mine = (await createResendSchedules(scopeOf(owner.id), await makeDebtors(owner.id, 98), "UTC")).created;
    const [disabled, ...enabled] = mine.map((s) => s.id);
    const [theirs] = (await createResendSchedules(scopeOf(other.id), await makeDebtors(other.id, 1), "UTC")).created;
    if (!disabled || !theirs) throw new Error("setup");
    for (const id of [...enabled, disabled, theirs.id]) await setSchedule(id, { next_run_at: later });
    await setSchedule(disabled, { state: "DISABLED" });

    const ids = [...enabled, disabled, theirs.id, "no-such-id"];
    expect(ids).toHaveLength(100);
    const now = Date.now();
    const changed = await sendNow(scopeOf(owner.id, now), ids);
    expect([...changed].sort()).toEqual([...enabled].sort());

    for (const id of enabled) expect((await scheduleRow(id))?.next_run_at).toBe(now);
    expect((await scheduleRow(disabled))?.next_run_at).toBe(later);
    expect((await scheduleRow(theirs.id))?.next_run_at).toBe(later);
  });

  it("reports a schedule named twice once", async () => {
    const owner = await makeUser();
    const [s] = (await createResendSchedules(scopeOf(owner.id), await makeDebtors(owner.id, 1), "UTC")).created;
    if (!s) throw new Error("setup");
    const twice = [s.id, ...Array.from({ length: 60 }, (_, i) => `${owner.id}-missing-${i}`), s.id];
    expect(await sendNow(scopeOf(owner.id), twice)).toEqual([s.id]);
    expect(await sendNow(scopeOf(owner.id), [])).toEqual([]);
  });
});

describe("one occurrence's writes", () => {
  async function setup() {
    const user = await makeUser();
    const debtor = await makeDebtor(user.id, { activeStrategy: 3 });
    const id = await makeSchedule(user.id, debtor.id, { preset: "FRIENDLY_REMINDER", timeZone: "UTC" });
    const scheduledAt = Math.floor((Date.now() - MINUTE) / 1000) * 1000;
    await setSchedule(id, { next_run_at: scheduledAt });
    const occurrence = {
      ownerId: user.id,
      scheduleId: id,
      debtorId: debtor.id,
      scheduledAt,
      template: "initial",
      tone: 3 as const,
    };
    return { user, debtor, id, scheduledAt, occurrence };
  }

  it("claimOccurrence writes the delivery once under the occurrence key and returns it as it is", async () => {
    const { id, scheduledAt, occurrence } = await setup();
    const now = Date.now();
    const first = await claimOccurrence(db(), occurrence, now);
    expect(first).toMatchObject({
      scheduleId: id,
      occurrenceKey: `${id}:${scheduledAt}`,
      template: "initial",
      tone: 3,
      status: "sending",
      createdAt: now,
      error: null,
    });

    await markDeliverySent(db(), first.id, "re_123", now + 5);
    const again = await claimOccurrence(db(), { ...occurrence, template: "follow-up", tone: 1 }, now + 10);
    expect(again).toMatchObject({
      id: first.id,
      status: "sent",
      providerId: "re_123",
      sentAt: now + 5,
      template: "initial",
    });
    expect(await deliveriesOf(id)).toHaveLength(1);
  });

  it("a retry error keeps the delivery 'sending'; a failure records why; a send clears the error", async () => {
    const { occurrence } = await setup();
    const delivery = await claimOccurrence(db(), occurrence);
    await recordDeliveryError(db(), delivery.id, "Resend 503: busy");
    expect((await deliveriesOf(occurrence.scheduleId))[0]).toMatchObject({
      status: "sending",
      error: "Resend 503: busy",
    });
    await markDeliveryFailed(db(), delivery.id, "Gave up after 5 attempts. Resend 503: busy");
    expect((await deliveriesOf(occurrence.scheduleId))[0]).toMatchObject({
      status: "failed",
      error: "Gave up after 5 attempts. Resend 503: busy",
    });
    await markDeliverySent(db(), delivery.id, null);
    expect((await deliveriesOf(occurrence.scheduleId))[0]).toMatchObject({
      status: "sent",
      error: null,
      provider_id: null,
    });
  });

  it("advanceSchedule moves the schedule only while its next run is still the occurrence and it is enabled", async () => {
    const { id, scheduledAt } = await setup();
    const now = Date.now();
    const row = await scheduleRow(id);
    if (!row) throw new Error("setup");
    const progress = {
      frequency: row.frequency as FrequencyId,
      timeZone: row.time_zone,
      templateStep: row.template_step,
      lastRunAt: row.last_run_at,
    };
    const next = advancePast(progress, scheduledAt, "sent", now);

    await setSchedule(id, { next_run_at: scheduledAt + HOUR }); // edited meanwhile
    expect(await advanceSchedule(db(), id, scheduledAt, next, now)).toBe(false);
    expect(await currentAlarm(db(), id)).toBe(scheduledAt + HOUR);

    await setSchedule(id, { next_run_at: scheduledAt, state: "DISABLED" });
    expect(await advanceSchedule(db(), id, scheduledAt, next, now)).toBe(false);
    expect(await currentAlarm(db(), id)).toBeNull();

    await setSchedule(id, { state: "ENABLED" });
    expect(await advanceSchedule(db(), id, scheduledAt, next, now)).toBe(true);
    expect(await scheduleRow(id)).toMatchObject({
      template_step: 1,
      last_run_at: scheduledAt,
      next_run_at: next.nextRunAt,
      state: "ENABLED",
      updated_at: now,
    });
    expect(await currentAlarm(db(), id)).toBe(next.nextRunAt);
  });

  it("completeSchedule finishes the schedule unless it was edited meanwhile", async () => {
    const { id, scheduledAt } = await setup();
    const now = Date.now();
    await setSchedule(id, { next_run_at: scheduledAt + HOUR });
    expect(await completeSchedule(db(), id, scheduledAt, now)).toBe(false);
    expect((await scheduleRow(id))?.state).toBe("ENABLED");

    await setSchedule(id, { next_run_at: scheduledAt });
    expect(await completeSchedule(db(), id, scheduledAt, now)).toBe(true);
    expect(await scheduleRow(id)).toMatchObject({ state: "COMPLETED", next_run_at: null, updated_at: now });
    expect(await currentAlarm(db(), id)).toBeNull();
    expect(await currentAlarm(db(), "no-such-schedule")).toBeNull();
  });
});
