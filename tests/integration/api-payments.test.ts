import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { addDebtor, apiJson, formAction, replyErrors } from "./data-helpers";
import { alarmAt, stubOf } from "./engine-helpers";
import { debtorRow, makeDebtor, makeSchedule, scheduleRow } from "./fixtures";
import { DAY, signIn, uniqueEmail } from "./helpers";

/**
 * The JSON API of payments: GET /api/debtors/:id/payments, POST
 * /api/payments/add, PUT /api/payments/edit, DELETE /api/payments/del; and the debtor's time zone
 * in the API and the debtor form.
 */

const today = () => new Date().toISOString().slice(0, 10);
const future = () => new Date(Date.now() + 3 * DAY).toISOString().slice(0, 10);

async function paymentCount(debtorId: number) {
  return (await env.DB.prepare("SELECT count(*) AS n FROM payments WHERE debtor_id = ?")
    .bind(debtorId)
    .first<{ n: number }>())!.n;
}

describe("payments through the JSON API", () => {
  it("add, list, edit and delete a payment; the debtor's balance answers along", async () => {
    const { cookie, userId } = await signIn(uniqueEmail("api-pay"));
    const debtor = await makeDebtor(userId, { debtCents: 10000 });

    const added = await apiJson("POST", "/payments/add", {
      cookie,
      json: { debtor_id: debtor.id, amount: "40.25", paid_on: "2026-03-01", note: "  Cheque  ", fb_uuid: userId },
    });
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    expect(added.body).toMatchObject({
      success: true,
      error: null,
      data: { debtor_id: debtor.id, amount: 40.25, paid_on: "2026-03-01", note: "Cheque" },
      debtor: { id: debtor.id, debt: 100, paid: 40.25, owed: 59.75, status: "active", resumable_schedules: 0 },
    });
    const id = added.body.data.id as number;
    // A note may be left out or null.
    const second = await apiJson("POST", "/payments/add", {
      cookie,
      json: { debtor_id: String(debtor.id), amount: 9.75, paid_on: "2026-04-01", note: null },
    });
    expect(second.status).toBe(200);
    expect(second.body.data.note).toBe("");

    const list = await apiJson("GET", `/debtors/${debtor.id}/payments`, { cookie });
    expect(list.status).toBe(200);
    expect(list.body).toEqual([
      expect.objectContaining({ debtor_id: debtor.id, amount: 9.75, paid_on: "2026-04-01", note: "" }),
      {
        id,
        debtor_id: debtor.id,
        amount: 40.25,
        currency: "USD",
        invoice_id: null,
        paid_on: "2026-03-01",
        note: "Cheque",
        created_at: expect.any(Number),
      },
    ]);
    expect((await apiJson("GET", `/debtors/${debtor.id}`, { cookie })).body).toMatchObject({ paid: 50 });

    const edited = await apiJson("PUT", "/payments/edit", {
      cookie,
      json: { id, amount: 90.25, paid_on: "2026-03-02", note: "Whole rest" },
    });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    expect(edited.body.debtor).toMatchObject({ paid: 100, owed: 0, status: "paid" });
    expect(await debtorRow(debtor.id)).toMatchObject({ paid_cents: 10000, status: "paid" });

    const deleted = await apiJson("DELETE", "/payments/del", { cookie, json: { id } });
    expect(deleted.status).toBe(200);
    expect(deleted.body.debtor).toMatchObject({ paid: 9.75, owed: 90.25, status: "active" });
    expect(await paymentCount(debtor.id)).toBe(1);
    const again = await apiJson("DELETE", "/payments/del", { cookie, json: { id } });
    expect(again.status).toBe(404);
    expect(again.body).toEqual({ success: false, error: "Payment not found" });
  });

  it("paid in full through the API: schedules complete and their alarms go", async () => {
    const { cookie, userId } = await signIn(uniqueEmail("api-full"));
    const debtor = await makeDebtor(userId, { debtCents: 2000 });
    const schedule = await makeSchedule(userId, debtor.id);
    await stubOf(schedule).arm(schedule, Date.now() + 60 * 60_000, { force: true });
    const { status, body } = await apiJson("POST", "/payments/add", {
      cookie,
      json: { debtor_id: debtor.id, amount: 20, paid_on: today() },
    });
    expect(status).toBe(200);
    expect(body.debtor).toMatchObject({ status: "paid", owed: 0 });
    expect(await scheduleRow(schedule)).toMatchObject({
      state: "COMPLETED",
      stopped_reason: "paid",
      next_run_at: null,
    });
    expect(await alarmAt(schedule)).toBeNull();

    // Deleted again: owed, and one schedule to resume.
    const del = await apiJson("DELETE", "/payments/del", { cookie, json: { id: body.data.id } });
    expect(del.body.debtor).toMatchObject({ status: "active", resumable_schedules: 1 });
    expect(await scheduleRow(schedule)).toMatchObject({ state: "COMPLETED", stopped_reason: "paid" });
  });

  it("bad payloads answer 400 with field errors and store nothing", async () => {
    const { cookie, userId } = await signIn(uniqueEmail("api-bad"));
    const debtor = await makeDebtor(userId, { debtCents: 1250 });
    const cases: [Record<string, unknown>, Record<string, string[]>][] = [
      [{ amount: 12.51 }, { amount: ["The payment can be at most $12.50, the amount still owed."] }],
      [{ amount: 1.005 }, { amount: ["Please enter an amount with at most two decimals"] }],
      [{ amount: "1.005" }, { amount: ["Please enter an amount with at most two decimals"] }],
      [{ amount: 0 }, { amount: ["Please enter a number greater than 0"] }],
      [{ amount: "abc" }, { amount: ["Please enter a number greater than 0"] }],
      [{ amount: undefined }, { amount: ["Please enter a number greater than 0"] }],
      [{ paid_on: future() }, { paid_on: ["The payment date cannot be in the future"] }],
      [{ paid_on: "2026-13-01" }, { paid_on: ["Please enter a valid date"] }],
      [{ paid_on: 20260101 }, { paid_on: ["Please enter a valid date"] }],
      [{ note: "x".repeat(501) }, { note: ["Please use at most 500 characters"] }],
      [{ debtor_id: "nope" }, { debtor_id: ["Missing debtor id"] }],
    ];
    for (const [change, errors] of cases) {
      const json = { debtor_id: debtor.id, amount: 5, paid_on: today(), ...change };
      const { status, body } = await apiJson("POST", "/payments/add", { cookie, json });
      expect(status, JSON.stringify(change)).toBe(400);
      expect(body, JSON.stringify(change)).toEqual({ success: false, error: "Invalid payment", errors });
    }
    const notJson = await apiJson("POST", "/payments/add", { cookie, raw: "not json" });
    expect(notJson.status).toBe(400);
    const edit = await apiJson("PUT", "/payments/edit", { cookie, json: { amount: 1, paid_on: today() } });
    expect(edit.body).toEqual({ success: false, error: "Invalid payment", errors: { id: ["Missing payment id"] } });
    expect(await paymentCount(debtor.id)).toBe(0);
    expect(await debtorRow(debtor.id)).toMatchObject({ paid_cents: 0 });
  });

  it("another user's debtor or payment answers 404 and nothing changes", async () => {
    const owner = await signIn(uniqueEmail("api-owner"));
    const debtor = await makeDebtor(owner.userId, { debtCents: 5000 });
    const added = await apiJson("POST", "/payments/add", {
      cookie: owner.cookie,
      json: { debtor_id: debtor.id, amount: 10, paid_on: today(), note: "Owner's" },
    });
    const id = added.body.data.id as number;
    const before = await debtorRow(debtor.id);

    const stranger = await signIn(uniqueEmail("api-stranger"));
    const calls = [
      await apiJson("GET", `/debtors/${debtor.id}/payments`, { cookie: stranger.cookie }),
      await apiJson("POST", "/payments/add", {
        cookie: stranger.cookie,
        json: { debtor_id: debtor.id, amount: 10, paid_on: today() },
      }),
      await apiJson("PUT", "/payments/edit", {
        cookie: stranger.cookie,
        json: { id, amount: 40, paid_on: today(), note: "Stranger's" },
      }),
      await apiJson("DELETE", "/payments/del", { cookie: stranger.cookie, json: { id } }),
    ];
    expect(calls.map((c) => c.status)).toEqual([404, 404, 404, 404]);
    expect(calls.map((c) => c.body.error)).toEqual([
      "Debtor not found",
      "Debtor not found",
      "Payment not found",
      "Payment not found",
    ]);
    // Someone else's fb_uuid is refused outright.
    const foreignOwner = await apiJson("POST", "/payments/add", {
      cookie: stranger.cookie,
      json: { debtor_id: debtor.id, amount: 10, paid_on: today(), fb_uuid: owner.userId },
    });
    expect(foreignOwner.status).toBe(403);

    expect(await debtorRow(debtor.id)).toEqual(before);
    const list = await apiJson("GET", `/debtors/${debtor.id}/payments`, { cookie: owner.cookie });
    expect(list.body).toEqual([expect.objectContaining({ id, amount: 10, note: "Owner's" })]);
    // Not signed in: 401.
    expect((await apiJson("GET", `/debtors/${debtor.id}/payments`)).status).toBe(401);
  });
});

describe("the debtor's time zone", () => {
  it("the API answers it; without one a new debtor gets the caller's zone (tz cookie), else UTC", async () => {
    const { cookie } = await signIn(uniqueEmail("tz-api"));
    expect((await addDebtor(cookie)).time_zone).toBe("UTC");
    const withCookie = await apiJson("POST", "/debtors/add", {
      cookie: `${cookie}; tz=${encodeURIComponent("America/New_York")}`,
      json: { full_name: "Zoned", email: "zoned@example.com", debt: 10 },
    });
    expect(withCookie.body.data.time_zone).toBe("America/New_York");
    const given = await addDebtor(cookie, { time_zone: "asia/tokyo" });
    // Stored as Intl spells it.
    expect(given.time_zone).toBe("Asia/Tokyo");
    expect((await debtorRow(given.id))!.time_zone).toBe("Asia/Tokyo");

    // An edit without a zone keeps the debtor's.
    const edited = await apiJson("PUT", "/debtors/edit", {
      cookie,
      json: { id: given.id, full_name: "Renamed", email: "zoned@example.com", debt: 10 },
    });
    expect(edited.status).toBe(200);
    expect(edited.body.data).toMatchObject({ full_name: "Renamed", time_zone: "Asia/Tokyo" });
    const moved = await apiJson("PUT", "/debtors/edit", {
      cookie,
      json: { id: given.id, full_name: "Renamed", email: "zoned@example.com", debt: 10, time_zone: "Europe/Berlin" },
    });
    expect(moved.body.data.time_zone).toBe("Europe/Berlin");

    const bad = await apiJson("POST", "/debtors/add", {
      cookie,
      json: { full_name: "Nowhere", email: "nowhere@example.com", debt: 10, time_zone: "Mars/Olympus" },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual({ time_zone: ["Please choose a valid time zone"] });
  });

  it("the debtor form stores the zone, refuses an unknown one with what was typed, and an edit keeps it when blank", async () => {
    const { cookie, userId } = await signIn(uniqueEmail("tz-form"));
    const fields = {
      intent: "debtor-add",
      full_name: "Form Zone",
      email: "fz@example.com",
      debt: "10",
      kind: "person",
    };
    const bad = await formAction("/debtors-list", { ...fields, time_zone: "Not/AZone" }, cookie);
    expect(bad.status).toBe(400);
    expect(replyErrors(bad.data)).toEqual({ time_zone: ["Please choose a valid time zone"] });
    expect(bad.data.result.initialValue).toMatchObject({ full_name: "Form Zone", time_zone: "Not/AZone" });

    const ok = await formAction("/debtors-list", { ...fields, time_zone: "Australia/Sydney" }, cookie);
    expect(ok.status).toBe(200);
    const row = await env.DB.prepare("SELECT id, time_zone FROM debtors WHERE owner_id = ?")
      .bind(userId)
      .first<{ id: number; time_zone: string }>();
    expect(row!.time_zone).toBe("Australia/Sydney");

    const edit = await formAction(
      "/debtors-list",
      { ...fields, intent: "debtor-edit", id: String(row!.id), debt: "12", time_zone: "" },
      cookie,
    );
    expect(edit.status).toBe(200);
    expect(await debtorRow(row!.id)).toMatchObject({ debt_cents: 1200, time_zone: "Australia/Sydney" });
  });

  it("a debt edited down to what was paid makes the debtor 'paid'; raised again, 'active'", async () => {
    const { cookie, userId } = await signIn(uniqueEmail("debt-edit"));
    const debtor = await makeDebtor(userId, { debtCents: 5000 });
    const schedule = await makeSchedule(userId, debtor.id);
    await apiJson("POST", "/payments/add", { cookie, json: { debtor_id: debtor.id, amount: 30, paid_on: today() } });
    const base = { id: debtor.id, full_name: "Dan Debtor", email: debtor.email };
    const lowered = await apiJson("PUT", "/debtors/edit", { cookie, json: { ...base, debt: 30 } });
    expect(lowered.body.data).toMatchObject({ debt: 30, paid: 30, status: "paid" });
    expect(await scheduleRow(schedule)).toMatchObject({ state: "COMPLETED", stopped_reason: "paid" });
    const raised = await apiJson("PUT", "/debtors/edit", { cookie, json: { ...base, debt: 40 } });
    expect(raised.body.data).toMatchObject({ debt: 40, status: "active" });
    expect(await scheduleRow(schedule)).toMatchObject({ state: "COMPLETED", stopped_reason: "paid" });
  });
});
