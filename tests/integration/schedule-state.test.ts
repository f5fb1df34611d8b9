import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { optOutAddress } from "~/responses/opt-outs.server";
import { formAction, replyErrors } from "./data-helpers";
import { db, makeDebtor, makeSchedule, scheduleRow, schedulesOf } from "./fixtures";
import { get, pageText, signIn, uniqueEmail } from "./helpers";
import { act } from "./schedule-helpers";

/**
 * Every screen shows a schedule's true state, and nothing is created or resumed that cannot send
 *.
 */

const typesOf = async (debtorId: number) =>
  (
    await env.DB.prepare("SELECT type FROM debtor_events WHERE debtor_id = ? ORDER BY id")
      .bind(debtorId)
      .all<{ type: string }>()
  ).results.map((r) => r.type);

/** A page's visible text (tags dropped). */
const textOf = async (path: string, cookie: string) =>
  (await pageText(await get(path, { cookie }))).replace(/<[^>]+>/g, "");

const create = (cookie: string, debtorId: number) =>
  act(
    { intent: "schedule-create", debtor_id: String(debtorId), preset: "SINGLE_REMINDER", frequency: "daily" },
    { cookie },
  );

describe("a schedule that cannot send is refused, with the reason", () => {
  it("for a debtor who opted out: the debtor field says so, nothing is created or recorded", async () => {
    const user = await signIn(uniqueEmail("state"));
    const debtor = await makeDebtor(user.userId, { fullName: "Mara Lind", debtCents: 64_000 });
    await optOutAddress({ env, db: db() }, user.userId, debtor.email);
    const res = await create(user.cookie, debtor.id);
    expect(res.status).toBe(409);
    expect(replyErrors(res.body).debtor_id).toEqual([
      "Mara Lind opted out of your reminders: Dunly sends them nothing until you record that they agreed to reminders again.",
    ]);
    expect(await schedulesOf(user.userId)).toEqual([]);
    expect(await typesOf(debtor.id)).toEqual(["opted_out"]);
  });

  it("for another debtor with an opted-out address (added after the opt-out)", async () => {
    const user = await signIn(uniqueEmail("state"));
    const first = await makeDebtor(user.userId, { debtCents: 1000 });
    await optOutAddress({ env, db: db() }, user.userId, first.email);
    const twin = await makeDebtor(user.userId, { email: first.email.toUpperCase(), debtCents: 1000 });
    expect((await create(user.cookie, twin.id)).status).toBe(409);
    expect(await schedulesOf(user.userId)).toEqual([]);
  });

  it("for a debtor who has paid or owes nothing", async () => {
    const user = await signIn(uniqueEmail("state"));
    const paid = await makeDebtor(user.userId, {
      fullName: "Pat Paid",
      debtCents: 1000,
      paidCents: 1000,
      status: "paid",
    });
    const zero = await makeDebtor(user.userId, { fullName: "Zed Zero", debtCents: 0 });
    const refusedPaid = await create(user.cookie, paid.id);
    expect(replyErrors(refusedPaid.body).debtor_id).toEqual([
      "Pat Paid has paid: there is nothing left to remind them of.",
    ]);
    const refusedZero = await create(user.cookie, zero.id);
    expect(replyErrors(refusedZero.body).debtor_id).toEqual([
      "Zed Zero owes nothing: there is nothing to remind them of.",
    ]);
    expect(await schedulesOf(user.userId)).toEqual([]);
  });

  it("a re-send: said as the debtor's reason, not as a sending limit; the others still get theirs", async () => {
    const user = await signIn(uniqueEmail("state"));
    const out = await makeDebtor(user.userId, { fullName: "Ola Out", debtCents: 1000 });
    const ok = await makeDebtor(user.userId, { fullName: "Kim Keen", debtCents: 1000 });
    await optOutAddress({ env, db: db() }, user.userId, out.email);
    const alone = await act({ intent: "debtor-resend", ids: [String(out.id)] }, { cookie: user.cookie });
    expect(alone.status).toBe(409);
    expect(alone.body).toMatchObject({
      ok: false,
      message:
        "Ola Out opted out of your reminders: Dunly sends them nothing until you record that they agreed to reminders again. Nothing was sent.",
    });
    expect(await schedulesOf(user.userId)).toEqual([]);
    const both = await act({ intent: "debtor-resend", ids: [String(out.id), String(ok.id)] }, { cookie: user.cookie });
    expect(both.status).toBe(200);
    expect(both.body).toMatchObject({ ok: true, count: 1 });
    expect(String((both.body as { message: string }).message)).toContain("Not to Ola Out: Ola Out opted out");
    expect((await schedulesOf(user.userId)).map((s) => s.debtor_id)).toEqual([ok.id]);
  });

  it("an edit into a debtor who opted out is refused and leaves the schedule as it was", async () => {
    const user = await signIn(uniqueEmail("state"));
    const ok = await makeDebtor(user.userId, { debtCents: 1000 });
    const gone = await makeDebtor(user.userId, { debtCents: 1000 });
    const id = await makeSchedule(user.userId, ok.id);
    await optOutAddress({ env, db: db() }, user.userId, gone.email);
    const before = await scheduleRow(id);
    const res = await act(
      { intent: "schedule-update", id, debtor_id: String(gone.id), preset: "SINGLE_REMINDER", frequency: "weekly" },
      { cookie: user.cookie },
    );
    expect(res.status).toBe(409);
    expect(await scheduleRow(id)).toEqual(before);
  });
});

describe("what the screens say", () => {
  it("the schedules list: Active with its next run; Held, Paused, Stopped with why", async () => {
    const user = await signIn(uniqueEmail("state"));
    const debtor = await makeDebtor(user.userId, { fullName: "Lena List", debtCents: 5000 });
    const active = await makeSchedule(user.userId, debtor.id, { preset: "SINGLE_REMINDER" });
    const held = await makeSchedule(user.userId, debtor.id, { preset: "FRIENDLY_REMINDER" });
    await env.DB.prepare(
      "UPDATE schedules SET state = 'DISABLED', stopped_reason = 'bounced', next_run_at = NULL WHERE id = ?",
    )
      .bind(held)
      .run();
    const page = await textOf("/schedules-list", user.cookie);
    expect(page).toContain("Active");
    expect(page).toContain("Next:");
    expect(page).toContain("Held: the debtor's address bounced. Correct it on the debtor, then resume.");

    await env.DB.prepare(
      "UPDATE schedules SET state = 'COMPLETED', stopped_reason = 'opted_out', next_run_at = NULL WHERE id = ?",
    )
      .bind(active)
      .run();
    const after = await textOf("/schedules-list", user.cookie);
    expect(after).toContain("Stopped: the debtor opted out of reminders.");
    expect(after).not.toContain("Next:");
  });

  it("the debtor page shows no next reminder for a debtor who opted out, even with a schedule still enabled", async () => {
    const user = await signIn(uniqueEmail("state"));
    const debtor = await makeDebtor(user.userId, { fullName: "Olga Out", debtCents: 5000 });
    await makeSchedule(user.userId, debtor.id, { frequency: "daily" });
    const before = await textOf(`/debtors/${debtor.id}`, user.cookie);
    expect(before).not.toContain("none scheduled");
    // The address was opted out after the schedule was armed (the engine would stop it when it fires).
    await env.DB.prepare("UPDATE debtors SET status = 'opted_out' WHERE id = ?").bind(debtor.id).run();
    const page = await textOf(`/debtors/${debtor.id}`, user.cookie);
    expect(page).toContain("Next reminder: none scheduled");
  });
});

describe("'Resume reminders' with nothing to resume", () => {
  it("says so and records nothing (the debtor modal's Resume reminders)", async () => {
    const user = await signIn(uniqueEmail("state"));
    const debtor = await makeDebtor(user.userId, { debtCents: 5000 });
    const res = await formAction("/dashboard", { intent: "debtor-resume", debtor_id: String(debtor.id) }, user.cookie);
    expect(res.status).toBe(409);
    expect(res.data).toMatchObject({ ok: false, message: "There are no stopped reminders to resume." });
    expect(await typesOf(debtor.id)).toEqual([]);
  });
});
