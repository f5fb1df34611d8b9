import { beforeAll, describe, expect, it } from "vitest";
import { templateForStep } from "~/domain/presets";
import type { Json } from "./data-helpers";
import { alarmAt, expectNextTenOClock, MINUTE } from "./engine-helpers";
import { makeDebtor, makeOrg, schedulesOf } from "./fixtures";
import { get, type SignedIn, signIn, uniqueEmail } from "./helpers";
import {
  act,
  createVia,
  DATE_MSG,
  DEBTOR_MSG,
  expectNextMondayTen,
  type Fields,
  ORG_MSG,
  PRESET_MSG,
  ZONE,
} from "./schedule-helpers";

/**
 * Creating a schedule through the schedule actions route: the row, its next run and the
 * Durable Object's alarm, and the 400s of invalid posts.
 */

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
    // The first reminder is the sequence's first template.
    expect(templateForStep("FRIENDLY_REMINDER", row.template_step)).toBe("initial");

    // The owner reads it back through GET /schedules/:id.
    const details = await get(`/schedules/${row.id}`, { cookie: a.cookie });
    expect(details.status).toBe(200);
    const json = await details.json<Json>();
    // Who it goes to and from is looked up on the server: the owner's debtor, sent as the owner.
    expect(json.schedule).toMatchObject({
      id: row.id,
      debtorId: debtor.id,
      debtorName: "Create Debtor",
      debtorEmail: debtor.email,
      organizationId: null,
      organizationName: null,
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
    expect(row).toMatchObject({ frequency: "now", state: "ENABLED", template_step: 0 });
    expect(row.next_run_at).toBe(row.created_at + MINUTE);
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
    const details = await (await get(`/schedules/${row.id}`, { cookie: a.cookie })).json<Json>();
    expect(details.schedule).toMatchObject({ organizationId: org, organizationName: "Create Org Ltd" });
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
