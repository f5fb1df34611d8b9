import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { addDebtor, addOrg, apiJson, formAction } from "./data-helpers";
import { makeDebtor, schedulesOfDebtor } from "./fixtures";
import { DAY, location, markup, postForm, type SignedIn, signIn, uniqueEmail } from "./helpers";
import { act, RESCHEDULED, SCHEDULED, ZONE } from "./schedule-helpers";

/**
 * Per-account caps: the committed ACCOUNT_MAX_* (wrangler.toml) are
 * reached with rows seeded straight into D1, and the next add through each way in is refused,
 * with nothing stored. The caps and messages are spelled out so that a change fails here.
 */

const CAP = { debtors: 2000, organizations: 50, schedules: 2000 } as const;

const FULL = {
  debtors: "This account has reached its limit of 2,000 debtors. Delete debtors you no longer need to add new ones.",
  organizations:
    "This account has reached its limit of 50 organizations. Delete organizations you no longer need to add new ones.",
  schedules:
    "This account has reached its limit of 2,000 active schedules. Disable schedules you no longer need to create new ones.",
} as const;

// Seeding: one INSERT … SELECT over a counter, so thousands of rows take one statement and no
// bound parameters beyond the few below (D1 allows at most 100 per statement).

const COUNTER = "WITH RECURSIVE seq(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM seq WHERE n < ?1)";

async function seedDebtors(ownerId: string, rows: number) {
  await env.DB.prepare(
    `${COUNTER} INSERT INTO debtors (owner_id, full_name, email, debt_cents)
     SELECT ?2, 'Seeded Debtor ' || n, 'seeded-' || n || '@example.com', 1000 FROM seq`,
  )
    .bind(rows, ownerId)
    .run();
}

/** An Aggressive subscriber: its plan has no debtors limit of its own, so the account cap is what counts (docs/decisions/019). */
async function aggressive(userId: string) {
  await env.DB.prepare("UPDATE users SET plan = 'aggressive', subscription_status = 'active' WHERE id = ?")
    .bind(userId)
    .run();
}

async function seedOrgs(ownerId: string, rows: number) {
  await env.DB.prepare(
    `${COUNTER} INSERT INTO organizations (owner_id, name, address) SELECT ?2, 'Seeded Org ' || n, n || ' Seed St' FROM seq`,
  )
    .bind(rows, ownerId)
    .run();
}

/**
 * Live schedules of one debtor, in both live states: odd ones DISABLED, even ones ENABLED with a
 * next run a month away and no alarm armed (so nothing fires, and the watchdog leaves them be).
 */
async function seedSchedules(ownerId: string, debtorId: number, rows: number) {
  await env.DB.prepare(
    `${COUNTER} INSERT INTO schedules (id, owner_id, debtor_id, preset, frequency, time_zone, state, next_run_at)
     SELECT ?2 || '-seeded-' || n, ?2, ?3, 'SINGLE_REMINDER', 'daily', 'UTC',
       CASE n % 2 WHEN 0 THEN 'ENABLED' ELSE 'DISABLED' END, CASE n % 2 WHEN 0 THEN ?4 END FROM seq`,
  )
    .bind(rows, ownerId, debtorId, Date.now() + 30 * DAY)
    .run();
}

async function count(query: string, ...binds: unknown[]) {
  return (await env.DB.prepare(query)
    .bind(...binds)
    .first<{ n: number }>())!.n;
}

const debtorCount = (ownerId: string) => count("SELECT count(*) AS n FROM debtors WHERE owner_id = ?", ownerId);
const orgCount = (ownerId: string) => count("SELECT count(*) AS n FROM organizations WHERE owner_id = ?", ownerId);
const scheduleCount = (ownerId: string) => count("SELECT count(*) AS n FROM schedules WHERE owner_id = ?", ownerId);
const liveScheduleCount = (ownerId: string) =>
  count("SELECT count(*) AS n FROM schedules WHERE owner_id = ? AND state <> 'COMPLETED'", ownerId);

async function firstSeededId(table: "debtors" | "organizations", ownerId: string) {
  return count(`SELECT min(id) AS n FROM ${table} WHERE owner_id = ?`, ownerId);
}

describe("debtors: at most 2,000 per account", () => {
  const typed = {
    intent: "debtor-add",
    kind: "person",
    full_name: "One Too Many",
    email: "one-too-many@example.com",
    debt: "42.5",
  };
  const json = { full_name: "One Too Many", email: "one-too-many@example.com", debt: 42.5, active_strategy: 1 };

  it("the 2,001st is refused by the form on both pages and by the API, what was typed is kept and nothing is stored", async () => {
    const a = await signIn(uniqueEmail("cap-debtors"));
    await aggressive(a.userId);
    await seedDebtors(a.userId, CAP.debtors);
    expect(await debtorCount(a.userId)).toBe(CAP.debtors);

    // The dashboard as the browser shows it: with a debtor selected (its loader redirects to that).
    const dashboard = `/dashboard?debtor=${await firstSeededId("debtors", a.userId)}`;
    for (const page of [dashboard, "/debtors-list"]) {
      const { status, data } = await formAction(page, typed, a.cookie);
      expect(status, page).toBe(403);
      expect(data).toMatchObject({ intent: "debtor-add", ok: false, result: { error: { "": [FULL.debtors] } } });
      expect(data.result.initialValue).toMatchObject({
        full_name: "One Too Many",
        email: "one-too-many@example.com",
        debt: "42.5",
      });

      // A document post (no JavaScript) gets the same refusal.
      const doc = await postForm(page, typed, { cookie: a.cookie });
      expect(doc.status, page).toBe(403);
      expect(doc.headers.get("Location")).toBeNull();
      // (The add-debtor form lives in a dialog, which needs JavaScript; with it, the form shows the
      // error itself, as for organizations and schedules below.)
    }

    const api = await apiJson("POST", "/debtors/add", { cookie: a.cookie, json });
    expect(api.status).toBe(403);
    expect(api.body).toEqual({ success: false, error: FULL.debtors });

    expect(await debtorCount(a.userId)).toBe(CAP.debtors);
    expect(await count("SELECT count(*) AS n FROM debtors WHERE full_name = 'One Too Many'")).toBe(0);
  });

  it("another account still adds; deleting one debtor makes room for exactly one more", async () => {
    const a = await signIn(uniqueEmail("cap-debtors-room"));
    await aggressive(a.userId);
    await seedDebtors(a.userId, CAP.debtors);

    const small = await signIn(uniqueEmail("cap-debtors-small"));
    await addDebtor(small.cookie);
    expect((await formAction("/debtors-list", typed, small.cookie)).status).toBe(200);
    expect(await debtorCount(small.userId)).toBe(2);

    const del = await apiJson("DELETE", "/debtors/del", {
      cookie: a.cookie,
      json: { id: await firstSeededId("debtors", a.userId) },
    });
    expect(del.status).toBe(200);
    expect(await debtorCount(a.userId)).toBe(CAP.debtors - 1);

    const { status, data } = await formAction("/debtors-list", typed, a.cookie);
    expect(status).toBe(200);
    expect(data).toMatchObject({ intent: "debtor-add", ok: true, message: "Debtor added" });
    expect(await debtorCount(a.userId)).toBe(CAP.debtors);

    // Full again (another address: the same one would be offered the debtor just added instead).
    const another = { ...json, email: "one-more@example.com" };
    expect((await apiJson("POST", "/debtors/add", { cookie: a.cookie, json: another })).status).toBe(403);
    expect(await debtorCount(a.userId)).toBe(CAP.debtors);
  });

  it("two adds at once for the last place: one is accepted, the other refused, and the account ends at the cap", async () => {
    const a = await signIn(uniqueEmail("cap-debtors-race"));
    await aggressive(a.userId);
    await seedDebtors(a.userId, CAP.debtors - 1);

    const [form, api] = await Promise.all([
      // Two addresses: with one, whichever comes second would be refused as a duplicate (409), not by the cap.
      formAction("/debtors-list", { ...typed, full_name: "Racer Form", email: "racer-form@example.com" }, a.cookie),
      apiJson("POST", "/debtors/add", {
        cookie: a.cookie,
        json: { ...json, full_name: "Racer Api", email: "racer-api@example.com" },
      }),
    ]);

    expect([form.status, api.status].sort()).toEqual([200, 403]);
    const winner = form.status === 200 ? "Racer Form" : "Racer Api";
    if (form.status === 403) expect(form.data).toMatchObject({ ok: false, result: { error: { "": [FULL.debtors] } } });
    else expect(api.body).toEqual({ success: false, error: FULL.debtors });

    expect(await debtorCount(a.userId)).toBe(CAP.debtors);
    const racers = await env.DB.prepare("SELECT full_name FROM debtors WHERE owner_id = ? AND full_name LIKE 'Racer %'")
      .bind(a.userId)
      .all<{ full_name: string }>();
    expect(racers.results.map((r) => r.full_name)).toEqual([winner]);
  });
});

describe("organizations: at most 50 per account", () => {
  const typed = { intent: "org-add", name: "Fifty First Ltd", address: "51 Cap Street" };
  const json = { name: "Fifty First Ltd", address: "51 Cap Street" };

  it("the 51st is refused by the form on /iam/orgs and by the API, what was typed is kept and nothing is stored", async () => {
    const a = await signIn(uniqueEmail("cap-orgs"));
    await seedOrgs(a.userId, CAP.organizations);

    const { status, data } = await formAction("/iam/orgs", typed, a.cookie);
    expect(status).toBe(403);
    expect(data).toMatchObject({ intent: "org-add", ok: false, result: { error: { "": [FULL.organizations] } } });
    expect(data.result.initialValue).toMatchObject({ name: "Fifty First Ltd", address: "51 Cap Street" });

    const doc = await postForm("/iam/orgs", typed, { cookie: a.cookie });
    expect(doc.status).toBe(403);
    // In the markup itself: a user without JavaScript sees why.
    expect(await markup(doc)).toContain(FULL.organizations);

    const api = await apiJson("POST", "/org/add", { cookie: a.cookie, json });
    expect(api.status).toBe(403);
    expect(api.body).toEqual({ success: false, error: FULL.organizations });

    expect(await orgCount(a.userId)).toBe(CAP.organizations);
    expect(await count("SELECT count(*) AS n FROM organizations WHERE name = 'Fifty First Ltd'")).toBe(0);
  });

  it("another account still adds; deleting one organization makes room for exactly one more", async () => {
    const a = await signIn(uniqueEmail("cap-orgs-room"));
    await seedOrgs(a.userId, CAP.organizations);

    const small = await signIn(uniqueEmail("cap-orgs-small"));
    await addOrg(small.cookie, json);
    expect(await orgCount(small.userId)).toBe(1);

    const del = await formAction(
      "/iam/orgs",
      { intent: "org-delete", id: String(await firstSeededId("organizations", a.userId)) },
      a.cookie,
    );
    expect(del.status).toBe(200);
    expect(await orgCount(a.userId)).toBe(CAP.organizations - 1);

    const api = await apiJson("POST", "/org/add", { cookie: a.cookie, json });
    expect(api.status, JSON.stringify(api.body)).toBe(200);
    expect(api.body).toMatchObject({ success: true, data: { name: "Fifty First Ltd" } });
    expect(await orgCount(a.userId)).toBe(CAP.organizations);

    expect((await formAction("/iam/orgs", typed, a.cookie)).status).toBe(403);
    expect(await orgCount(a.userId)).toBe(CAP.organizations);
  });
});

describe("schedules: at most 2,000 live (not completed) per account", () => {
  /** An account with one debtor and `live` seeded live schedules of that debtor. */
  async function accountWith(live: number, prefix: string) {
    const user = await signIn(uniqueEmail(prefix));
    const debtor = await makeDebtor(user.userId);
    await seedSchedules(user.userId, debtor.id, live);
    return { user, debtor };
  }

  const typedFor = (debtorId: number) => ({
    intent: "schedule-create",
    kind: "person",
    debtor_id: String(debtorId),
    preset: "FRIENDLY_REMINDER",
    frequency: "weekly",
    time_zone: "Europe/Berlin",
    due_date: "2027-03-05",
  });

  async function expectFull(user: SignedIn) {
    expect(await liveScheduleCount(user.userId)).toBe(CAP.schedules);
    expect(
      await count(
        "SELECT count(*) AS n FROM schedules WHERE owner_id = ? AND preset <> 'SINGLE_REMINDER'",
        user.userId,
      ),
    ).toBe(0);
  }

  it("at 2,000 live ones (enabled or disabled) a new schedule is refused on /schedule and by the lists' actions route, keeping what was typed", async () => {
    const { user, debtor } = await accountWith(CAP.schedules, "cap-schedules");
    const typed = typedFor(debtor.id);

    const { status, data } = await formAction("/schedule", { ...typed, redirectTo: "/schedules-list" }, user.cookie);
    expect(status).toBe(403);
    expect(data).toMatchObject({ intent: "schedule-create", ok: false, result: { error: { "": [FULL.schedules] } } });
    expect(data.result.initialValue).toMatchObject({
      debtor_id: String(debtor.id),
      preset: "FRIENDLY_REMINDER",
      frequency: "weekly",
      time_zone: "Europe/Berlin",
      due_date: "2027-03-05",
    });

    // The page's document post: answered in place, not redirected to the list.
    const doc = await postForm("/schedule", { ...typed, redirectTo: "/schedules-list" }, { cookie: user.cookie });
    expect(doc.status).toBe(403);
    expect(location(doc)).toBeNull();
    // In the markup itself: a user without JavaScript sees why.
    expect(await markup(doc)).toContain(FULL.schedules);

    const res = await act(typed, { cookie: user.cookie });
    expect(res.status, res.text).toBe(403);
    expect(res.body).toMatchObject({
      intent: "schedule-create",
      ok: false,
      result: { error: { "": [FULL.schedules] } },
    });

    await expectFull(user);
    expect(await scheduleCount(user.userId)).toBe(CAP.schedules);
  });

  it("completed schedules do not count: completing one makes room for exactly one", async () => {
    const { user, debtor } = await accountWith(CAP.schedules, "cap-schedules-completed");
    await env.DB.prepare("UPDATE schedules SET state = 'COMPLETED', next_run_at = NULL WHERE id = ?")
      .bind(`${user.userId}-seeded-1`)
      .run();
    expect(await liveScheduleCount(user.userId)).toBe(CAP.schedules - 1);

    const created = await act({ ...typedFor(debtor.id), time_zone: ZONE }, { cookie: user.cookie });
    expect(created.status, created.text).toBe(200);
    expect(created.body).toMatchObject({ intent: "schedule-create", ok: true, message: SCHEDULED });
    expect(await liveScheduleCount(user.userId)).toBe(CAP.schedules);
    expect(await scheduleCount(user.userId)).toBe(CAP.schedules + 1);

    const refused = await act(typedFor(debtor.id), { cookie: user.cookie });
    expect(refused.status, refused.text).toBe(403);
    expect(await scheduleCount(user.userId)).toBe(CAP.schedules + 1);
  });

  it("an edit cannot bring a completed schedule back past the cap; with room it can", async () => {
    const { user, debtor } = await accountWith(CAP.schedules, "cap-schedules-revive");
    const completedId = `${user.userId}-completed`;
    await env.DB.prepare(
      `INSERT INTO schedules (id, owner_id, debtor_id, preset, template_step, frequency, time_zone, state, created_at, updated_at)
       SELECT ?, owner_id, debtor_id, preset, template_step, frequency, time_zone, 'COMPLETED', created_at, updated_at
       FROM schedules WHERE id = ?`,
    )
      .bind(completedId, `${user.userId}-seeded-1`)
      .run();
    expect(await liveScheduleCount(user.userId)).toBe(CAP.schedules);

    const edit = { ...typedFor(debtor.id), intent: "schedule-update", id: completedId };
    const refused = await act(edit, { cookie: user.cookie });
    expect(refused.status, refused.text).toBe(403);
    expect(refused.body).toMatchObject({
      intent: "schedule-update",
      ok: false,
      result: { error: { "": [FULL.schedules] } },
    });
    expect(await liveScheduleCount(user.userId)).toBe(CAP.schedules);
    const row = await env.DB.prepare("SELECT state FROM schedules WHERE id = ?")
      .bind(completedId)
      .first<{ state: string }>();
    expect(row?.state).toBe("COMPLETED");

    // An edit of a live schedule at the cap is fine: it does not add one.
    const live = await act({ ...edit, id: `${user.userId}-seeded-2` }, { cookie: user.cookie });
    expect(live.status, live.text).toBe(200);

    await act({ intent: "schedule-delete", id: `${user.userId}-seeded-3` }, { cookie: user.cookie });
    const revived = await act(edit, { cookie: user.cookie });
    expect(revived.status, revived.text).toBe(200);
    expect(await liveScheduleCount(user.userId)).toBe(CAP.schedules);
  });

  it("the Configure modal's Disable (schedule-delete) makes room; another account still creates", async () => {
    const { user, debtor } = await accountWith(CAP.schedules, "cap-schedules-disable");
    const disabled = await act({ intent: "schedule-delete", id: `${user.userId}-seeded-2` }, { cookie: user.cookie });
    expect(disabled.status, disabled.text).toBe(200);
    expect(await liveScheduleCount(user.userId)).toBe(CAP.schedules - 1);

    const created = await act({ ...typedFor(debtor.id), time_zone: ZONE }, { cookie: user.cookie });
    expect(created.status, created.text).toBe(200);
    expect(await liveScheduleCount(user.userId)).toBe(CAP.schedules);

    const small = await signIn(uniqueEmail("cap-schedules-small"));
    const own = await makeDebtor(small.userId);
    const theirs = await act({ ...typedFor(own.id), time_zone: ZONE }, { cookie: small.cookie });
    expect(theirs.status, theirs.text).toBe(200);
    expect(await scheduleCount(small.userId)).toBe(1);
  });

  it("a re-send that would go past the cap creates nothing; one that just fits is accepted", async () => {
    // Fresh debtors without deliveries or schedules: no sending limit stands in the way.
    const { user } = await accountWith(CAP.schedules - 2, "cap-schedules-resend");
    const fresh = [await makeDebtor(user.userId), await makeDebtor(user.userId), await makeDebtor(user.userId)];
    const ids = fresh.map((d) => String(d.id));

    const refused = await act({ intent: "debtor-resend", ids }, { cookie: user.cookie, tz: ZONE });
    expect(refused.status, refused.text).toBe(403);
    expect(refused.body).toMatchObject({ intent: "debtor-resend", ok: false, message: FULL.schedules });
    expect(await scheduleCount(user.userId)).toBe(CAP.schedules - 2);
    for (const d of fresh) expect(await schedulesOfDebtor(d.id)).toHaveLength(0);

    const accepted = await act({ intent: "debtor-resend", ids: ids.slice(0, 2) }, { cookie: user.cookie, tz: ZONE });
    expect(accepted.status, accepted.text).toBe(200);
    expect(accepted.body).toMatchObject({ intent: "debtor-resend", ok: true, message: RESCHEDULED, count: 2 });
    // Counted with completed ones: the two one-time schedules may already have fired.
    expect(await scheduleCount(user.userId)).toBe(CAP.schedules);
    expect(await schedulesOfDebtor(fresh[2]!.id)).toHaveLength(0);
  });
});
