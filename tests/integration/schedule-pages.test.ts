import { runDurableObjectAlarm } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { fireSchedule } from "../../workers/engine";
import { decodeTurbo, eventually, insertDelivery, type Json, snapshot } from "./data-helpers";
import {
  alarmAt,
  deliveriesOf,
  doStorage,
  expectNextTenOClock,
  MINUTE,
  makeDebtor,
  makeOrg,
  resendRequests,
  scheduleRow,
  setSchedule,
  stubOf,
  wallClock,
} from "./engine-helpers";
import {
  DAY,
  get,
  location,
  ORIGIN,
  outboxFor,
  pageText,
  request,
  type SignedIn,
  signIn,
  uniqueEmail,
  uniqueIp,
} from "./helpers";

/**
 * The schedule pages and their actions (spec §2, §3) against the built app Worker: creating,
 * editing, deleting, "send now" and the debtors' re-send through POST /schedules/actions, what
 * the Durable Object's alarm is afterwards and what it sends, who may touch which schedule, and
 * what /schedules-list, /dashboard, /report, /schedule and the e-mail preview show.
 */

const ACTIONS = "/schedules/actions";
const SCHEDULED = "Email reminder scheduled.";
const RESCHEDULED = "Emails sending rescheduled.";
const DEBTOR_MSG = "Please select a debtor";
const PRESET_MSG = "Please select a preset";
const ORG_MSG = "Please select an organization";
const DATE_MSG = "Please enter a valid date";
const VISITOR_REDIRECT = "/404?redirectTo=%2Fschedules%2Factions";

interface ScheduleRow {
  id: string;
  owner_id: string;
  debtor_id: number;
  organization_id: number | null;
  preset: string;
  template_step: number;
  frequency: string;
  cron: string | null;
  run_at: number | null;
  time_zone: string;
  due_date: string | null;
  state: string;
  next_run_at: number | null;
  last_run_at: number | null;
  input: string;
  created_at: number;
  updated_at: number;
}

type Fields = Record<string, string | string[] | undefined>;

/** A form POST to /schedules/actions as the page's fetcher makes it (repeated keys for `ids`). */
async function act(fields: Fields, options: { cookie?: string; originHeader?: string | null; tz?: string } = {}) {
  const body = new URLSearchParams();
  for (const [k, v] of Object.entries(fields)) for (const x of v === undefined ? [] : [v].flat()) body.append(k, x);
  const headers = new Headers({ "Content-Type": "application/x-www-form-urlencoded", "CF-Connecting-IP": uniqueIp() });
  const originHeader = options.originHeader === undefined ? ORIGIN : options.originHeader;
  if (originHeader !== null) headers.set("Origin", originHeader);
  const cookie = [options.cookie, options.tz && `tz=${encodeURIComponent(options.tz)}`].filter(Boolean).join("; ");
  if (cookie) headers.set("Cookie", cookie);
  const res = await request(ACTIONS, { method: "POST", headers, body: body.toString() });
  const text = await res.text();
  let json: Json = null;
  try {
    json = JSON.parse(text);
  } catch {
    // Redirects and 403s are not JSON.
  }
  return { status: res.status, body: json, text, res };
}

/** A route's loader data, read as the client router does (GET <path>.data, turbo-stream). */
async function loaderData(path: string, route: string, cookie?: string, tz?: string) {
  const url = new URL(path, ORIGIN);
  const cookies = [cookie, tz && `tz=${encodeURIComponent(tz)}`].filter(Boolean).join("; ");
  const res = await get(`${url.pathname}.data${url.search}`, { cookie: cookies || undefined });
  expect(res.status, path).toBe(200);
  const decoded = await decodeTurbo(res);
  return decoded[route]?.data as Json;
}

async function schedulesOf(ownerId: string) {
  return (
    await env.DB.prepare("SELECT * FROM schedules WHERE owner_id = ? ORDER BY created_at, id")
      .bind(ownerId)
      .all<ScheduleRow>()
  ).results;
}

async function fullRow(id: string) {
  return env.DB.prepare("SELECT * FROM schedules WHERE id = ?").bind(id).first<ScheduleRow>();
}

async function countSchedulesOfDebtor(debtorId: number) {
  return (await env.DB.prepare("SELECT count(*) AS n FROM schedules WHERE debtor_id = ?")
    .bind(debtorId)
    .first<{ n: number }>())!.n;
}

/** Creates a schedule through the action and returns its row (the only new one of the owner). */
async function createVia(user: SignedIn, fields: Fields, tz?: string) {
  const before = new Set((await schedulesOf(user.userId)).map((s) => s.id));
  const t0 = Date.now();
  const { status, body } = await act({ intent: "schedule-create", ...fields }, { cookie: user.cookie, tz });
  const t1 = Date.now();
  expect(status, JSON.stringify(body)).toBe(200);
  expect(body).toMatchObject({ intent: "schedule-create", ok: true, message: SCHEDULED });
  const created = (await schedulesOf(user.userId)).filter((s) => !before.has(s.id));
  expect(created).toHaveLength(1);
  const row = created[0]!;
  expect(row.created_at).toBeGreaterThanOrEqual(t0);
  expect(row.created_at).toBeLessThanOrEqual(t1);
  return row;
}

function expectNextMondayTen(at: number | null | undefined, after: number, timeZone: string) {
  expect(at).toEqual(expect.any(Number));
  const w = wallClock(at!, timeZone);
  expect([w.weekday, w.hour, w.minute, w.second, w.ms], `${new Date(at!).toISOString()} in ${timeZone}`).toEqual([
    "Mon",
    10,
    0,
    0,
    0,
  ]);
  expect(at!).toBeGreaterThan(after);
  expect(at! - 7 * DAY).toBeLessThanOrEqual(after);
}

/**
 * The zone of daily schedules whose zone is not the point of the test: UTC, unless 10:00 UTC is
 * minutes away (then an alarm could fire in the middle of a test).
 */
const ZONE = Math.abs((Date.now() % DAY) - 10 * 60 * MINUTE) < 15 * MINUTE ? "Asia/Tokyo" : "UTC";

/** UTC midnight of the day of `ms`. */
const utcDayStart = (ms: number) => Math.floor(ms / DAY) * DAY;

// 1. Create --------------------------------------------------------------------------------------

describe("schedule-create", () => {
  let a: SignedIn;
  let debtor: Awaited<ReturnType<typeof makeDebtor>>;
  beforeAll(async () => {
    a = await signIn(uniqueEmail("create"));
    debtor = await makeDebtor(a.userId, { fullName: "Create Debtor" });
  });

  it("daily: the signed-in user's row, next run the next 10:00 in the posted zone, and the alarm at that time", async () => {
    const tz = "Asia/Tokyo";
    const row = await createVia(a, {
      debtor_id: String(debtor.id),
      preset: "FRIENDLY_REMINDER",
      frequency: "daily",
      time_zone: tz,
      due_date: "2027-01-31",
    });
    expect(row).toMatchObject({
      owner_id: a.userId,
      debtor_id: debtor.id,
      organization_id: null,
      preset: "FRIENDLY_REMINDER",
      template_step: 0,
      frequency: "daily",
      time_zone: tz,
      due_date: "2027-01-31",
      state: "ENABLED",
      last_run_at: null,
    });
    expect(row.id.startsWith(`${a.userId}-`)).toBe(true);
    expectNextTenOClock(row.next_run_at, row.created_at, tz);
    expect(await alarmAt(row.id)).toBe(row.next_run_at);
    // Who it goes to is looked up on the server, from the owner's debtor.
    expect(JSON.parse(row.input)).toMatchObject({
      receiverEmail: debtor.email,
      senderEmail: a.email,
      template: "initial",
      senderCompany: null,
    });

    // The owner reads it back through GET /schedules/:id.
    const details = await get(`/schedules/${row.id}`, { cookie: a.cookie });
    expect(details.status).toBe(200);
    const json = await details.json<Json>();
    expect(json.schedule).toMatchObject({
      id: row.id,
      debtorId: debtor.id,
      debtorName: "Create Debtor",
      preset: "FRIENDLY_REMINDER",
      nextRunAt: row.next_run_at,
      state: "ENABLED",
    });
    expect(json.debtors.map((d: Json) => d.id)).toContain(debtor.id);
  });

  it("'now': next run and alarm 60 s after creation", async () => {
    const row = await createVia(a, {
      debtor_id: String(debtor.id),
      preset: "SINGLE_REMINDER",
      frequency: "now",
      time_zone: ZONE,
    });
    expect(row).toMatchObject({ frequency: "now", cron: null, state: "ENABLED", template_step: 0 });
    expect(row.next_run_at).toBe(row.created_at + MINUTE);
    expect(row.run_at).toBe(row.next_run_at);
    expect(await alarmAt(row.id)).toBe(row.next_run_at);
  });

  it("weekly: the next Monday 10:00 in the zone", async () => {
    const tz = "Asia/Kolkata";
    const row = await createVia(a, {
      debtor_id: String(debtor.id),
      preset: "SINGLE_REMINDER",
      frequency: "weekly",
      time_zone: tz,
    });
    expectNextMondayTen(row.next_run_at, row.created_at, tz);
    expect(await alarmAt(row.id)).toBe(row.next_run_at);
  });

  it("an invalid time_zone falls back to UTC; none posted takes the browser's tz cookie", async () => {
    const bad = await createVia(a, {
      debtor_id: String(debtor.id),
      preset: "SINGLE_REMINDER",
      time_zone: "Mars/Olympus_Mons",
    });
    expect(bad.time_zone).toBe("UTC");
    expect(bad.frequency).toBe("daily");
    expectNextTenOClock(bad.next_run_at, bad.created_at, "UTC");
    expect(await alarmAt(bad.id)).toBe(bad.next_run_at);

    const fromCookie = await createVia(a, { debtor_id: String(debtor.id), preset: "SINGLE_REMINDER" }, "Asia/Kolkata");
    expect(fromCookie.time_zone).toBe("Asia/Kolkata");
    expectNextTenOClock(fromCookie.next_run_at, fromCookie.created_at, "Asia/Kolkata");
  });

  it("as a company: with the owner's organization it is sent as that organization", async () => {
    const org = await makeOrg(a.userId, "Create Org Ltd", "7 Org Road");
    const row = await createVia(a, {
      kind: "company",
      organization_id: String(org),
      debtor_id: String(debtor.id),
      preset: "SINGLE_REMINDER",
      time_zone: ZONE,
    });
    expect(row.organization_id).toBe(org);
    expect(JSON.parse(row.input)).toMatchObject({
      senderName: "Create Org Ltd",
      senderCompany: { id: org, name: "Create Org Ltd", address: "7 Org Road" },
    });
  });

  describe("invalid posts answer 400 with the field's message and create nothing", () => {
    const cases: [string, Fields, Record<string, string[]>][] = [
      ["missing debtor_id", { debtor_id: undefined }, { debtor_id: [DEBTOR_MSG] }],
      ["empty debtor_id", { debtor_id: "" }, { debtor_id: [DEBTOR_MSG] }],
      ["non-numeric debtor_id", { debtor_id: "abc" }, { debtor_id: [DEBTOR_MSG] }],
      ["missing preset", { preset: undefined }, { preset: [PRESET_MSG] }],
      ["unknown preset", { preset: "NOPE" }, { preset: [PRESET_MSG] }],
      ["both missing", { debtor_id: undefined, preset: undefined }, { debtor_id: [DEBTOR_MSG], preset: [PRESET_MSG] }],
      ["kind=company without organization", { kind: "company" }, { organization_id: [ORG_MSG] }],
      ["impossible due_date", { due_date: "2027-02-30" }, { due_date: [DATE_MSG] }],
      ["due_date not a date", { due_date: "next friday" }, { due_date: [DATE_MSG] }],
    ];
    for (const [name, change, errors] of cases) {
      it(name, async () => {
        const before = await schedulesOf(a.userId);
        const fields = {
          intent: "schedule-create",
          debtor_id: String(debtor.id),
          preset: "SINGLE_REMINDER",
          frequency: "daily",
          time_zone: ZONE,
          ...change,
        };
        const { status, body } = await act(fields, { cookie: a.cookie });
        expect(status, JSON.stringify(body)).toBe(400);
        expect(body).toMatchObject({ intent: "schedule-create", ok: false });
        expect(body.result.error).toEqual(errors);
        expect(await schedulesOf(a.userId)).toEqual(before);
      });
    }
  });
});

// 2. Ownership -----------------------------------------------------------------------------------

describe("ownership: user B and a visitor against user A's schedules", () => {
  let a: SignedIn;
  let b: SignedIn;
  let aDebtor: Awaited<ReturnType<typeof makeDebtor>>;
  let bDebtor: Awaited<ReturnType<typeof makeDebtor>>;
  let aOrg: number;
  let aSchedule: ScheduleRow;
  let aAlarm: number | null;
  let before: Awaited<ReturnType<typeof snapshot>>;
  const SECRET = "Ophelia Secretdebtor";

  beforeAll(async () => {
    a = await signIn(uniqueEmail("owner"));
    b = await signIn(uniqueEmail("intruder"));
    aDebtor = await makeDebtor(a.userId, { fullName: SECRET });
    bDebtor = await makeDebtor(b.userId, { fullName: "Intruder's Debtor" });
    aOrg = await makeOrg(a.userId, "Owner Org", "1 Owner St");
    aSchedule = await createVia(a, {
      debtor_id: String(aDebtor.id),
      preset: "FRIENDLY_REMINDER",
      frequency: "daily",
      time_zone: ZONE,
    });
    aAlarm = await alarmAt(aSchedule.id);
    expect(aAlarm).toBe(aSchedule.next_run_at);
    before = await snapshot(a.userId);
  });

  /** A's rows and alarm are exactly as they were. */
  async function expectAUnchanged() {
    expect(await snapshot(a.userId)).toEqual(before);
    expect(await alarmAt(aSchedule.id)).toBe(aAlarm);
  }

  it("create with A's debtor or A's organization: 400 on that field, nothing created", async () => {
    const withDebtor = await act(
      { intent: "schedule-create", debtor_id: String(aDebtor.id), preset: "SINGLE_REMINDER", time_zone: ZONE },
      { cookie: b.cookie },
    );
    expect(withDebtor.status).toBe(400);
    expect(withDebtor.body.result.error).toEqual({ debtor_id: [DEBTOR_MSG] });

    const withOrg = await act(
      {
        intent: "schedule-create",
        kind: "company",
        organization_id: String(aOrg),
        debtor_id: String(bDebtor.id),
        preset: "SINGLE_REMINDER",
        time_zone: ZONE,
      },
      { cookie: b.cookie },
    );
    expect(withOrg.status).toBe(400);
    expect(withOrg.body.result.error).toEqual({ organization_id: [ORG_MSG] });

    expect(await schedulesOf(b.userId)).toEqual([]);
    expect(await countSchedulesOfDebtor(aDebtor.id)).toBe(1);
    for (const r of [withDebtor, withOrg]) expect(r.text).not.toContain(SECRET);
    await expectAUnchanged();
  });

  it("GET /schedules/:id of A's schedule: 404 for B, and nothing of A's in the answer", async () => {
    const res = await get(`/schedules/${aSchedule.id}`, { cookie: b.cookie });
    expect(res.status).toBe(404);
    const text = await res.text();
    expect(text).not.toContain(SECRET);
    expect(text).not.toContain(aDebtor.email);
    // A does get it (so the 404 is about ownership).
    expect((await get(`/schedules/${aSchedule.id}`, { cookie: a.cookie })).status).toBe(200);
  });

  it("schedule-update of A's schedule: 404, A's row and alarm unchanged", async () => {
    for (const debtorId of [bDebtor.id, aDebtor.id]) {
      const res = await act(
        {
          intent: "schedule-update",
          id: aSchedule.id,
          debtor_id: String(debtorId),
          preset: "SINGLE_REMINDER",
          frequency: "now",
          time_zone: "Asia/Tokyo",
        },
        { cookie: b.cookie },
      );
      expect(res.status, res.text).toBe(404);
      expect(res.body).toMatchObject({ intent: "schedule-update", ok: false });
    }
    expect(await schedulesOf(b.userId)).toEqual([]);
    await expectAUnchanged();
  });

  it("schedule-delete of A's schedule: 404, the row and its alarm remain", async () => {
    const res = await act({ intent: "schedule-delete", id: aSchedule.id }, { cookie: b.cookie });
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ intent: "schedule-delete", ok: false });
    expect(await scheduleRow(aSchedule.id)).not.toBeNull();
    await expectAUnchanged();
  });

  it("schedule-send-now of A's schedule: 404, A's next run and alarm time unchanged", async () => {
    const res = await act({ intent: "schedule-send-now", ids: [aSchedule.id] }, { cookie: b.cookie });
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ intent: "schedule-send-now", ok: false });
    await expectAUnchanged();
    expect(await resendRequests(aDebtor.email)).toEqual([]);
  });

  it("debtor-resend to A's debtor: 404, no schedule created", async () => {
    const res = await act({ intent: "debtor-resend", ids: [String(aDebtor.id)] }, { cookie: b.cookie });
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ intent: "debtor-resend", ok: false });
    expect(await schedulesOf(b.userId)).toEqual([]);
    expect(await countSchedulesOfDebtor(aDebtor.id)).toBe(1);
    await expectAUnchanged();
    expect(await resendRequests(aDebtor.email)).toEqual([]);
  });

  it("A cannot use B's debtor in an update either: 400 on debtor_id, row unchanged", async () => {
    const res = await act(
      {
        intent: "schedule-update",
        id: aSchedule.id,
        debtor_id: String(bDebtor.id),
        preset: "FRIENDLY_REMINDER",
        time_zone: ZONE,
      },
      { cookie: a.cookie },
    );
    expect(res.status).toBe(400);
    expect(res.body.result.error).toEqual({ debtor_id: [DEBTOR_MSG] });
    await expectAUnchanged();
  });

  it("a visitor is sent to /404 for every intent and for GET /schedules/:id; nothing changes", async () => {
    const posts: Fields[] = [
      { intent: "schedule-create", debtor_id: String(aDebtor.id), preset: "SINGLE_REMINDER" },
      { intent: "schedule-update", id: aSchedule.id, debtor_id: String(aDebtor.id), preset: "SINGLE_REMINDER" },
      { intent: "schedule-delete", id: aSchedule.id },
      { intent: "schedule-send-now", ids: [aSchedule.id] },
      { intent: "debtor-resend", ids: [String(aDebtor.id)] },
    ];
    for (const fields of posts) {
      const res = await act(fields);
      expect(res.status, String(fields.intent)).toBe(302);
      expect(res.res.headers.get("Location")).toBe(VISITOR_REDIRECT);
      expect(res.text).not.toContain(SECRET);
    }
    const details = await get(`/schedules/${aSchedule.id}`);
    expect(details.status).toBe(302);
    expect(location(details)!.pathname).toBe("/404");
    expect(location(details)!.searchParams.get("redirectTo")).toBe(`/schedules/${aSchedule.id}`);
    await expectAUnchanged();
  });

  it("a POST without Origin or from another site is refused with 403, even with A's session", async () => {
    for (const originHeader of [null, "https://evil.example"]) {
      for (const fields of [
        { intent: "schedule-delete", id: aSchedule.id },
        { intent: "schedule-send-now", ids: [aSchedule.id] },
        { intent: "debtor-resend", ids: [String(aDebtor.id)] },
        { intent: "schedule-create", debtor_id: String(aDebtor.id), preset: "SINGLE_REMINDER" },
      ] as Fields[]) {
        const res = await act(fields, { cookie: a.cookie, originHeader });
        expect(res.status, `${originHeader} ${fields.intent}`).toBe(403);
      }
    }
    await expectAUnchanged();
  });
});

// 3. Update --------------------------------------------------------------------------------------

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
    expect(JSON.parse(row.input).template).toBe("second-follow-up");
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
      due_date: null,
      state: "ENABLED",
    });
    expect(JSON.parse(row.input)).toMatchObject({ template: "single", receiverEmail: d2.email });
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
    const row = (await fullRow(created.id))!;
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
    expect(await fullRow(created.id)).toEqual(created);
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

// 4. Delete --------------------------------------------------------------------------------------

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
    expect(await fullRow(keep.id)).toEqual(keep);
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

// 5. Send now ------------------------------------------------------------------------------------

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
    const disabledRow = await fullRow(disabled.id);
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
    const row = (await fullRow(enabled.id))!;
    expect(row).toMatchObject({ last_run_at: occurrence, template_step: 1, state: "ENABLED" });
    expectNextTenOClock(row.next_run_at, occurrence, ZONE);
    expect(await alarmAt(enabled.id)).toBe(row.next_run_at);

    // The disabled one and B's are as they were; their debtors got nothing.
    expect(await fullRow(disabled.id)).toEqual(disabledRow);
    expect(await alarmAt(disabled.id)).toBe(disabled.next_run_at);
    expect(await fullRow(others.id)).toEqual(others);
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
    const before = await fullRow(s.id);
    const res = await act({ intent: "schedule-send-now", ids: [s.id] }, { cookie: a.cookie });
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({
      ok: false,
      message: "None of the selected schedules can send now (only active ones can).",
    });
    expect(await fullRow(s.id)).toEqual(before);
    expect(await alarmAt(s.id)).toBe(s.next_run_at);
    const none = await act({ intent: "schedule-send-now" }, { cookie: a.cookie });
    expect(none.status).toBe(400);
    expect(none.body).toMatchObject({ ok: false, message: "Select at least one schedule." });
  });
});

// 6. Re-send -------------------------------------------------------------------------------------

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
    expect(await countSchedulesOfDebtor(dB.id)).toBe(0);
    expect(await countSchedulesOfDebtor(unselected.id)).toBe(0);

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
      expect(mails[0]!.replyTo).toBe(a.email);
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
    expect(await schedulesOf(a.userId)).toEqual([]);
  });
});

// 7. Lists, dashboard, report --------------------------------------------------------------------

describe("/schedules-list", () => {
  let a: SignedIn;
  let b: SignedIn;
  let dA1: Awaited<ReturnType<typeof makeDebtor>>;
  let dA2: Awaited<ReturnType<typeof makeDebtor>>;
  let dB: Awaited<ReturnType<typeof makeDebtor>>;
  const ids: Record<"today" | "yesterday" | "threeDays" | "twentyDays" | "b", string> = {} as never;

  beforeAll(async () => {
    a = await signIn(uniqueEmail("list"));
    b = await signIn(uniqueEmail("list-other"));
    dA1 = await makeDebtor(a.userId, { fullName: "Listed Alpha" });
    dA2 = await makeDebtor(a.userId, { fullName: "Listed Beta" });
    dB = await makeDebtor(b.userId, { fullName: "Hidden Gamma" });
    ids.today = (await createVia(a, { debtor_id: String(dA1.id), preset: "SINGLE_REMINDER", time_zone: ZONE })).id;
    ids.yesterday = (
      await createVia(a, { debtor_id: String(dA2.id), preset: "FRIENDLY_REMINDER", time_zone: ZONE })
    ).id;
    ids.threeDays = (
      await createVia(a, { debtor_id: String(dA1.id), preset: "FRIENDLY_REMINDER", time_zone: ZONE })
    ).id;
    ids.twentyDays = (await createVia(a, { debtor_id: String(dA2.id), preset: "SINGLE_REMINDER", time_zone: ZONE })).id;
    ids.b = (await createVia(b, { debtor_id: String(dB.id), preset: "SINGLE_REMINDER", time_zone: ZONE })).id;
    // Created earlier, by the clock of UTC days (the list's zone without a tz cookie).
    const today = utcDayStart(Date.now());
    await setSchedule(ids.yesterday, { created_at: today - DAY / 2 });
    await setSchedule(ids.threeDays, { created_at: today - 3 * DAY + DAY / 2 });
    await setSchedule(ids.twentyDays, { created_at: today - 20 * DAY });
  });

  const listed = async (query = "", cookie = a.cookie) => {
    const data = await loaderData(`/schedules-list${query}`, "routes/schedules-list", cookie);
    return { ids: (data.schedules as Json[]).map((s) => s.id as string), total: data.total as number, data };
  };

  it("shows the user's schedules only, newest first, with their debtors", async () => {
    const { ids: got, total, data } = await listed();
    expect(got).toEqual([ids.today, ids.yesterday, ids.threeDays, ids.twentyDays]);
    expect(total).toBe(4);
    expect(data.signedIn).toBe(true);
    const html = await pageText(await get("/schedules-list", { cookie: a.cookie }));
    expect(html).toContain("Listed Alpha · Single Reminder");
    expect(html).toContain("Listed Beta · Escalating Reminders");
    expect(html.replace(/<!-- -->/g, "")).toMatch(/data-testid="schedule-count"[^>]*>4 schedules</);
    expect(html).not.toContain("Hidden Gamma");
    expect(html).not.toContain(ids.b);
    // And B sees only B's.
    expect((await listed("", b.cookie)).ids).toEqual([ids.b]);
  });

  it("the debtor parameter filters; another user's debtor shows nothing", async () => {
    expect((await listed(`?debtor=${dA1.id}`)).ids).toEqual([ids.today, ids.threeDays]);
    expect((await listed(`?debtor=${dA2.id}`)).ids).toEqual([ids.yesterday, ids.twentyDays]);
    const foreign = await listed(`?debtor=${dB.id}`);
    expect(foreign.ids).toEqual([]);
    expect(foreign.total).toBe(0);
    const html = await pageText(await get(`/schedules-list?debtor=${dB.id}`, { cookie: a.cookie }));
    expect(html).toContain("No schedules found");
    expect(html).not.toContain("Hidden Gamma");
    // Nonsense is ignored (all of A's).
    expect((await listed("?debtor=abc")).ids).toHaveLength(4);
  });

  it("the period parameter filters by creation time: Yesterday, Today, Last 7 days", async () => {
    expect((await listed("?period=today")).ids).toEqual([ids.today]);
    expect((await listed("?period=yesterday")).ids).toEqual([ids.yesterday]);
    expect((await listed("?period=7d")).ids).toEqual([ids.today, ids.yesterday, ids.threeDays]);
    expect((await listed("?period=30d")).ids).toEqual([ids.today, ids.yesterday, ids.threeDays, ids.twentyDays]);
    expect((await listed("?period=forever")).ids).toHaveLength(4);
    expect((await listed(`?period=7d&debtor=${dA2.id}`)).ids).toEqual([ids.yesterday]);
    const today = await listed("?period=today");
    expect(today.total).toBe(1);
    expect(today.data.period).toBe("today");
    const html = await pageText(await get("/schedules-list?period=yesterday", { cookie: a.cookie }));
    for (const label of ["Yesterday", "Today", "Last 7 days", "All time"]) expect(html).toContain(`>${label}</option>`);
    expect(html).toContain("Listed Beta · Escalating Reminders");
    expect(html).not.toContain("Listed Alpha");
  });

  it("periods are days of the user's own zone (the tz cookie)", async () => {
    const c = await signIn(uniqueEmail("list-tz"));
    const d = await makeDebtor(c.userId);
    // Pacific/Kiritimati is UTC+14 all year: its days start at 10:00 UTC of the day before.
    const tz = "Pacific/Kiritimati";
    const [y, m, day] = new Intl.DateTimeFormat("en-CA", { timeZone: tz })
      .format(Date.now())
      .split("-")
      .map(Number) as [number, number, number];
    const localMidnight = Date.UTC(y, m - 1, day) - 14 * 60 * MINUTE;
    const justAfter = (await createVia(c, { debtor_id: String(d.id), preset: "SINGLE_REMINDER", time_zone: ZONE })).id;
    const justBefore = (await createVia(c, { debtor_id: String(d.id), preset: "SINGLE_REMINDER", time_zone: ZONE })).id;
    await setSchedule(justAfter, { created_at: localMidnight + MINUTE });
    await setSchedule(justBefore, { created_at: localMidnight - MINUTE });
    const inZone = async (period: string) =>
      (
        (await loaderData(`/schedules-list?period=${period}`, "routes/schedules-list", c.cookie, tz))
          .schedules as Json[]
      ).map((s) => s.id);
    expect(await inZone("today")).toEqual([justAfter]);
    expect(await inZone("yesterday")).toEqual([justBefore]);
    expect(await inZone("7d")).toEqual([justAfter, justBefore]);
  });

  it("a visitor sees 'No schedules found' and gets no schedule data", async () => {
    const res = await get("/schedules-list");
    expect(res.status).toBe(200);
    const html = await pageText(res);
    expect(html).toContain("No schedules found");
    for (const secret of ["Listed Alpha", "Hidden Gamma", ids.today]) expect(html).not.toContain(secret);
    const data = await loaderData(`/schedules-list?debtor=${dA1.id}`, "routes/schedules-list");
    expect(data.signedIn).toBe(false);
    expect(data.schedules).toBeUndefined();
    expect(data.total).toBeUndefined();
  });
});

describe("/dashboard", () => {
  it("shows the schedules card with the user's schedules, the links, and the chart's real counts", async () => {
    const a = await signIn(uniqueEmail("dash"));
    const b = await signIn(uniqueEmail("dash-other"));
    const d = await makeDebtor(a.userId, { fullName: "Dash Debtor" });
    const dB = await makeDebtor(b.userId, { fullName: "Other Dash Debtor" });
    await createVia(a, { debtor_id: String(d.id), preset: "FRIENDLY_REMINDER", time_zone: ZONE });
    await createVia(b, { debtor_id: String(dB.id), preset: "SINGLE_REMINDER", time_zone: ZONE });
    for (let i = 0; i < 3; i++) await insertDelivery(a.userId, d.id, "sent");
    await insertDelivery(a.userId, d.id, "failed");
    await insertDelivery(b.userId, dB.id, "sent");

    const res = await get(`/dashboard?debtor=${d.id}`, { cookie: a.cookie });
    expect(res.status).toBe(200);
    const html = await pageText(res);
    for (const text of [
      "Scheduled reminders",
      "View All Schedules",
      "Reminders Report",
      "Dash Debtor · Escalating Reminders",
    ])
      expect(html).toContain(text);
    expect(html).toMatch(/href="\/schedules-list"[^>]*>View All Schedules</);
    expect(html).toMatch(/href="\/report"[^>]*>Reminders Report</);
    expect(html).not.toContain("Other Dash Debtor");

    const data = await loaderData(`/dashboard?debtor=${d.id}`, "routes/dashboard", a.cookie);
    expect(data.schedules.map((s: Json) => s.debtorId)).toEqual([d.id]);
    expect(data.chart).toHaveLength(6);
    expect(data.chart.at(-1).value).toBe(3);
    expect(data.chart.slice(0, 5).every((p: Json) => p.value === 0)).toBe(true);
    // The card's period filter works here too.
    expect(
      (await loaderData(`/dashboard?debtor=${d.id}&period=yesterday`, "routes/dashboard", a.cookie)).schedules,
    ).toEqual([]);
  });
});

describe("/report", () => {
  let a: SignedIn;
  let d1: Awaited<ReturnType<typeof makeDebtor>>;
  let d2: Awaited<ReturnType<typeof makeDebtor>>;
  let dB: Awaited<ReturnType<typeof makeDebtor>>;

  beforeAll(async () => {
    a = await signIn(uniqueEmail("report"));
    const b = await signIn(uniqueEmail("report-other"));
    d1 = await makeDebtor(a.userId, { fullName: "Report Alpha" });
    d2 = await makeDebtor(a.userId, { fullName: "Report Beta" });
    dB = await makeDebtor(b.userId, { fullName: "Report Hidden" });
    await insertDelivery(a.userId, d1.id, "sent");
    await insertDelivery(a.userId, d1.id, "sent");
    await insertDelivery(a.userId, d1.id, "failed");
    await insertDelivery(a.userId, d2.id, "bounced");
    await insertDelivery(a.userId, d2.id, "sending");
    await insertDelivery(b.userId, dB.id, "sent");
    // One of d2's from yesterday, one of d1's from 20 days ago.
    const today = utcDayStart(Date.now());
    await env.DB.prepare(
      "INSERT INTO deliveries (owner_id, debtor_id, occurrence_key, template, tone, status, created_at, sent_at) VALUES (?, ?, ?, 'final-notice', 3, 'sent', ?, ?), (?, ?, ?, 'initial', 1, 'sent', ?, ?)",
    )
      .bind(
        a.userId,
        d2.id,
        `report-y-${a.userId}`,
        today - DAY / 2,
        today - DAY / 2,
        a.userId,
        d1.id,
        `report-old-${a.userId}`,
        today - 20 * DAY,
        today - 20 * DAY,
      )
      .run();
  });

  const report = (query = "") => loaderData(`/report${query}`, "routes/report", a.cookie);

  it("lists the user's deliveries only, with totals", async () => {
    const data = await report();
    expect(data.totals).toEqual({ all: 7, sent: 4, sending: 1, failed: 1, bounced: 1 });
    expect(data.deliveries).toHaveLength(7);
    expect(new Set(data.deliveries.map((x: Json) => x.debtorId))).toEqual(new Set([d1.id, d2.id]));
    const html = await pageText(await get("/report", { cookie: a.cookie }));
    expect(html).toContain("Reminders Report");
    expect(html).toContain("Report Alpha");
    expect(html).toContain("Final Notice");
    expect(html).not.toContain("Report Hidden");
    expect(html).toMatch(/data-testid="total-total"[^>]*>7</);
    expect(html).toMatch(/data-testid="total-sent"[^>]*>4</);
    expect(html).toMatch(/data-testid="total-failed"[^>]*>2</);
    expect(html).toMatch(/data-testid="total-sending"[^>]*>1</);
  });

  it("filters by debtor and by period", async () => {
    expect((await report(`?debtor=${d1.id}`)).totals).toEqual({ all: 4, sent: 3, sending: 0, failed: 1, bounced: 0 });
    expect((await report(`?debtor=${d2.id}`)).deliveries.map((x: Json) => x.status).sort()).toEqual([
      "bounced",
      "sending",
      "sent",
    ]);
    const foreign = await report(`?debtor=${dB.id}`);
    expect(foreign.totals.all).toBe(0);
    expect(foreign.deliveries).toEqual([]);
    expect((await report("?period=today")).totals.all).toBe(5);
    const yesterday = await report("?period=yesterday");
    expect(yesterday.deliveries.map((x: Json) => [x.debtorId, x.template])).toEqual([[d2.id, "final-notice"]]);
    expect((await report("?period=7d")).totals.all).toBe(6);
    expect((await report(`?period=7d&debtor=${d1.id}`)).totals).toEqual({
      all: 3,
      sent: 2,
      sending: 0,
      failed: 1,
      bounced: 0,
    });
    const html = await pageText(await get(`/report?debtor=${dB.id}`, { cookie: a.cookie }));
    expect(html).toContain("No reminders found");
  });

  it("a visitor is redirected to /404?redirectTo=%2Freport", async () => {
    const res = await get("/report");
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/404?redirectTo=%2Freport");
  });
});

// 8. Preview -------------------------------------------------------------------------------------

describe("/schedule/preview", () => {
  let a: SignedIn;
  beforeAll(async () => {
    a = await signIn(uniqueEmail("preview"));
  });

  it("renders the template with sample values as HTML under a strict Content-Security-Policy", async () => {
    const res = await get("/schedule/preview?template=final-notice&tone=3", { cookie: a.cookie });
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toMatch(/^text\/html/);
    const csp = res.headers.get("Content-Security-Policy") ?? "";
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("sandbox");
    const html = await pageText(res);
    expect(html).toContain("John Doe");
    expect(html).toContain("$1,250.00");
    expect(html).not.toMatch(/<script/i);
    // Another template and tone render differently.
    const single = await pageText(await get("/schedule/preview?template=single&tone=1", { cookie: a.cookie }));
    expect(single).toContain("$1,250.00");
    expect(single).not.toEqual(html);
  });

  it("an unknown template answers 404; a visitor is redirected", async () => {
    for (const q of ["?template=nope&tone=1", "?tone=2", "?template=&tone=3"]) {
      expect((await get(`/schedule/preview${q}`, { cookie: a.cookie })).status, q).toBe(404);
    }
    const visitor = await get("/schedule/preview?template=final-notice&tone=3");
    expect(visitor.status).toBe(302);
    expect(location(visitor)!.pathname).toBe("/404");
    expect(location(visitor)!.searchParams.get("redirectTo")).toBe("/schedule/preview?template=final-notice&tone=3");
  });
});

// 9. The new-schedule page -----------------------------------------------------------------------

describe("/schedule", () => {
  it("without debtors asks to add one; with debtors lists the user's own", async () => {
    const a = await signIn(uniqueEmail("new-schedule"));
    const b = await signIn(uniqueEmail("new-schedule-other"));
    await makeDebtor(b.userId, { fullName: "Someone Else's Debtor" });

    const empty = await get("/schedule", { cookie: a.cookie });
    expect(empty.status).toBe(200);
    const emptyHtml = await pageText(empty);
    expect(emptyHtml).toContain("Add a debtor to get started");
    expect(emptyHtml).not.toContain("Someone Else's Debtor");

    await makeDebtor(a.userId, { fullName: "Pickable Paula" });
    await makeDebtor(a.userId, { fullName: "Pickable Peter" });
    await makeOrg(a.userId, "Pickable Org", "2 Org Way");
    const html = await pageText(await get("/schedule", { cookie: a.cookie }));
    expect(html).not.toContain("Add a debtor to get started");
    expect(html).toContain("New schedule");
    for (const text of ["Pickable Paula", "Pickable Peter", "Pickable Org", "Select a preset"])
      expect(html).toContain(text);
    expect(html).not.toContain("Someone Else's Debtor");
    const data = await loaderData("/schedule", "routes/schedule", a.cookie);
    expect(data.debtors.map((d: Json) => d.fullName)).toEqual(["Pickable Paula", "Pickable Peter"]);

    const visitor = await get("/schedule");
    expect(visitor.status).toBe(302);
    expect(visitor.headers.get("Location")).toBe("/404?redirectTo=%2Fschedule");
  });
});
