import { beforeAll, describe, expect, it } from "vitest";
import { snapshot } from "./data-helpers";
import { alarmAt, resendRequests } from "./engine-helpers";
import { makeDebtor, makeOrg, type ScheduleRow, scheduleRow, schedulesOf, schedulesOfDebtor } from "./fixtures";
import { get, location, type SignedIn, signIn, uniqueEmail } from "./helpers";
import { act, createVia, DEBTOR_MSG, type Fields, ORG_MSG, VISITOR_REDIRECT, ZONE } from "./schedule-helpers";

/**
 * Who may touch which schedule: user B and a visitor against every intent of
 * the schedule actions route and GET /schedules/:id of user A's schedule, and the Origin check.
 */

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
    expect(await schedulesOfDebtor(aDebtor.id)).toHaveLength(1);
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
    expect(await schedulesOfDebtor(aDebtor.id)).toHaveLength(1);
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
