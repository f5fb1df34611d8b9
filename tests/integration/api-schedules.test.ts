import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "~/db/client.server";
import { followAlarms } from "~/reminders/alarms.server";
import { apiJson, type Json } from "./data-helpers";
import { alarmAt } from "./engine-helpers";
import { makeDebtor, makeOrg, makeSchedule, scheduleRow } from "./fixtures";
import { type SignedIn, signIn, uniqueEmail } from "./helpers";

/**
 * The JSON API's schedule calls of spec §7 (list by group and NamePrefix, one
 * schedule by Name and group, its delete), scoped to the session like the rest of /api.
 */

describe("/api schedules", () => {
  let a: SignedIn;
  let b: SignedIn;
  let debtorId: number;
  let daily: string;
  let once: string;
  let theirs: string;
  beforeAll(async () => {
    a = await signIn(uniqueEmail("apisched-a"));
    b = await signIn(uniqueEmail("apisched-b"));
    await env.DB.prepare("UPDATE users SET full_name = 'Ann Api' WHERE id = ?").bind(a.userId).run();
    const debtor = await makeDebtor(a.userId, {
      fullName: "Sched Debtor",
      email: "sched.debtor@example.com",
      debtCents: 12_345,
    });
    debtorId = debtor.id;
    const org = await makeOrg(a.userId, "Api Org", "1 Api Street");
    daily = await makeSchedule(a.userId, debtor.id, {
      frequency: "daily",
      timeZone: "Europe/Berlin",
      dueDate: "2031-05-01",
    });
    once = await makeSchedule(a.userId, debtor.id, {
      frequency: "now",
      preset: "FRIENDLY_REMINDER",
      organizationId: org,
    });
    const theirDebtor = await makeDebtor(b.userId);
    theirs = await makeSchedule(b.userId, theirDebtor.id);
  });

  it("GET /schedules lists the caller's schedules in the spec's Schedule shape", async () => {
    const { status, body } = await apiJson("GET", `/schedules?group=${a.userId}&NamePrefix=${a.userId}`, {
      cookie: a.cookie,
    });
    expect(status).toBe(200);
    expect(Array.isArray(body)).toBe(true);
    expect(body.map((s: Json) => s.Name).sort()).toEqual([daily, once].sort());
    const d = body.find((s: Json) => s.Name === daily);
    expect(d).toMatchObject({
      Name: daily,
      GroupName: a.userId,
      State: "ENABLED",
      ScheduleExpression: "cron(0 10 * * ? *)",
      ScheduleExpressionTimezone: "Europe/Berlin",
      preset: "SINGLE_REMINDER",
      frequency: "daily",
      due_date: "2031-05-01",
      emails_sent: 0,
      Input: {
        receiverName: "Sched Debtor",
        receiverEmail: "sched.debtor@example.com",
        senderName: "Ann Api",
        senderEmail: a.email,
        locale: "en",
        template: "single",
        senderCompany: null,
        debtor: { id: debtorId, fb_uuid: a.userId, full_name: "Sched Debtor", debt: 123.45, active_strategy: 1 },
      },
    });
    expect(new Date(d.CreationDate).toISOString()).toBe(d.CreationDate);
    const o = body.find((s: Json) => s.Name === once);
    expect(o.ScheduleExpression).toMatch(/^at\(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\)$/);
    expect(o.Input).toMatchObject({ senderName: "Api Org", template: "initial", senderCompany: { name: "Api Org" } });
  });

  it("without parameters lists the caller's own; another user's group or NamePrefix is 403", async () => {
    const own = await apiJson("GET", "/schedules", { cookie: a.cookie });
    expect(own.status).toBe(200);
    expect(own.body.map((s: Json) => s.Name)).not.toContain(theirs);
    expect((await apiJson("GET", `/schedules?group=${b.userId}`, { cookie: a.cookie })).status).toBe(403);
    expect((await apiJson("GET", `/schedules?fb_uuid=${b.userId}`, { cookie: a.cookie })).status).toBe(403);
    expect((await apiJson("GET", `/schedules?NamePrefix=${b.userId}`, { cookie: a.cookie })).status).toBe(403);
    // A longer prefix narrows to one schedule.
    const one = await apiJson("GET", `/schedules?NamePrefix=${encodeURIComponent(daily)}`, { cookie: a.cookie });
    expect(one.body.map((s: Json) => s.Name)).toEqual([daily]);
    // Paging is clamped, never a 500.
    for (const q of ["limit=0", "limit=-5", "limit=abc", "offset=-1", "offset=1e30", "limit=1"]) {
      const res = await apiJson("GET", `/schedules?${q}`, { cookie: a.cookie });
      expect(res.status, q).toBe(200);
    }
    expect((await apiJson("GET", "/schedules?limit=1", { cookie: a.cookie })).body).toHaveLength(1);
  });

  it("GET /schedule returns one schedule by Name; another user's is 404, a missing Name 400", async () => {
    const { status, body } = await apiJson("GET", `/schedule?Name=${encodeURIComponent(daily)}&group=${a.userId}`, {
      cookie: a.cookie,
    });
    expect(status).toBe(200);
    expect(body).toMatchObject({ Name: daily, State: "ENABLED" });
    const other = await apiJson("GET", `/schedule?Name=${encodeURIComponent(theirs)}`, { cookie: a.cookie });
    expect(other.status).toBe(404);
    expect(other.body).toMatchObject({ success: false, error: "Schedule not found" });
    const missing = await apiJson("GET", "/schedule", { cookie: a.cookie });
    expect(missing.status).toBe(400);
    expect(missing.body.errors.Name).toBeDefined();
    const denied = await apiJson("GET", `/schedule?Name=${encodeURIComponent(daily)}&group=${b.userId}`, {
      cookie: a.cookie,
    });
    expect(denied.status).toBe(403);
  });

  it("DELETE /schedule deletes the caller's schedule and its alarm; another user's is 404 and stays", async () => {
    const target = await makeSchedule(a.userId, debtorId);
    await followAlarms({ env, db: getDb(env.DB) }, { arm: [{ id: target, at: Date.now() + 3_600_000 }] });
    expect(await alarmAt(target)).not.toBeNull();
    const denied = await apiJson("DELETE", `/schedule?Name=${encodeURIComponent(theirs)}&group=${a.userId}`, {
      cookie: a.cookie,
    });
    expect(denied.status).toBe(404);
    expect(await scheduleRow(theirs)).not.toBeNull();
    const wrongGroup = await apiJson("DELETE", `/schedule?Name=${encodeURIComponent(target)}&group=${b.userId}`, {
      cookie: a.cookie,
    });
    expect(wrongGroup.status).toBe(403);
    expect(await scheduleRow(target)).not.toBeNull();

    const { status, body } = await apiJson("DELETE", `/schedule?Name=${encodeURIComponent(target)}&group=${a.userId}`, {
      cookie: a.cookie,
    });
    expect(status).toBe(200);
    expect(body).toEqual({ success: true, error: null });
    expect(await scheduleRow(target)).toBeNull();
    expect(await alarmAt(target)).toBeNull();
    const again = await apiJson("DELETE", `/schedule?Name=${encodeURIComponent(target)}`, { cookie: a.cookie });
    expect(again.status).toBe(404);
  });

  it("a visitor gets 401", async () => {
    expect((await apiJson("GET", "/schedules")).status).toBe(401);
    expect((await apiJson("GET", `/schedule?Name=${encodeURIComponent(daily)}`)).status).toBe(401);
    expect((await apiJson("DELETE", `/schedule?Name=${encodeURIComponent(daily)}`)).status).toBe(401);
    expect(await scheduleRow(daily)).not.toBeNull();
  });
});
