import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { recordComplaint, recordHardBounce } from "~/responses/mail-events.server";
import { optOutAddress } from "~/responses/opt-outs.server";
import { apiJson, formAction, type Json } from "./data-helpers";
import { HOUR } from "./engine-helpers";
import { db, FIXTURE_SCHEDULE_ID, insertDelivery, makeDebtor, setSchedule } from "./fixtures";
import { DAY, get, NOT_FOUND_TEXT, pageText, signIn, uniqueEmail } from "./helpers";
import { act, createVia, loaderData } from "./schedule-helpers";

/**
 * The debtor timeline: e-mails, payments and events of one debtor, newest first,
 * recorded where they happen, and the next reminder with the time it really goes; another user's
 * debtor is a 404 and nothing of theirs ever shows.
 */

const ROUTE = "routes/debtors.timeline";
/** The page's text without tags (and React's text separators). */
const plain = (html: string) => html.replace(/<!-- -->/g, "").replace(/<[^>]+>/g, "");
const tick = () => new Promise((resolve) => setTimeout(resolve, 3));

/** The compact timeline as the modal loads it. */
async function compact(cookie: string, debtorId: number) {
  return (await loaderData(`/debtors/${debtorId}/timeline`, ROUTE, cookie)) as Json;
}

/** Each entry as "email:<status>", "payment" or "event:<type>", newest first. */
const kinds = (entries: Json[]) =>
  entries.map((e) => (e.kind === "email" ? `email:${e.status}` : e.kind === "event" ? `event:${e.type}` : e.kind));

/** A delivery the provider knows, as the engine records a sent reminder. */
async function sentWithProviderId(ownerId: string, debtorId: number, email: string) {
  const providerId = `re_${crypto.randomUUID()}`;
  await env.DB.prepare(
    "INSERT INTO deliveries (owner_id, schedule_id, debtor_id, occurrence_key, template, tone, status, recipient, provider_id, sent_at) VALUES (?, ?, ?, ?, 'initial', 2, 'sent', ?, ?, ?)",
  )
    .bind(
      ownerId,
      FIXTURE_SCHEDULE_ID,
      debtorId,
      `tl-${crypto.randomUUID()}`,
      email.toLowerCase(),
      providerId,
      Date.now(),
    )
    .run();
  return providerId;
}

describe("the debtor timeline", () => {
  it("lists one debtor's e-mails, payments and events in order, and nothing of other debtors or users", async () => {
    const owner = await signIn(uniqueEmail("tl"));
    const stranger = await signIn(uniqueEmail("tl-other"));
    const debtor = await makeDebtor(owner.userId, { fullName: "Tia Timeline", debtCents: 10000 });
    const sibling = await makeDebtor(owner.userId, { fullName: "Sib Ling" });
    const theirs = await makeDebtor(stranger.userId, { fullName: "Stan Stranger", email: debtor.email });

    const schedule = await createVia(owner, {
      debtor_id: String(debtor.id),
      preset: "SINGLE_REMINDER",
      frequency: "daily",
    });
    // Others' activity at the same times: another debtor of the owner's and another user's debtor.
    await createVia(owner, { debtor_id: String(sibling.id), preset: "SINGLE_REMINDER", frequency: "weekly" });
    await createVia(stranger, { debtor_id: String(theirs.id), preset: "SINGLE_REMINDER", frequency: "daily" });
    await insertDelivery(stranger.userId, theirs.id, "sent");
    await tick();
    await insertDelivery(owner.userId, debtor.id, "sent");
    await tick();
    const paid = await formAction(
      "/debtors-list",
      {
        intent: "payment-add",
        debtor_id: String(debtor.id),
        amount: "20",
        paid_on: new Date().toISOString().slice(0, 10),
        note: "Bank transfer",
      },
      owner.cookie,
    );
    expect(paid.status, JSON.stringify(paid.data)).toBe(200);
    await tick();
    expect((await act({ intent: "schedule-pause", ids: schedule.id }, { cookie: owner.cookie })).status).toBe(200);
    await tick();
    expect((await act({ intent: "schedule-resume", ids: schedule.id }, { cookie: owner.cookie })).status).toBe(200);
    await tick();
    // The stranger's debtor with the same address opts out of the stranger only.
    await optOutAddress({ env, db: db() }, stranger.userId, theirs.email);
    await optOutAddress({ env, db: db() }, owner.userId, debtor.email);
    await tick();
    const consent = await formAction(
      "/debtors-list",
      { intent: "debtor-consent", id: String(debtor.id), confirm: "renewed-consent" },
      owner.cookie,
    );
    expect(consent.status, JSON.stringify(consent.data)).toBe(200);
    await tick();
    const providerId = await sentWithProviderId(owner.userId, debtor.id, debtor.email);
    await tick();
    expect((await recordHardBounce({ env, db: db() }, providerId, "550 5.1.1 No such user")).matched).toBe(true);

    const { timeline, timeZone } = await compact(owner.cookie, debtor.id);
    expect(timeZone).toBe("UTC");
    expect(timeline.debtor).toMatchObject({ id: debtor.id, fullName: "Tia Timeline", paidCents: 2000 });
    // The compact view: the latest ten.
    expect(kinds(timeline.entries)).toEqual([
      "event:bounced",
      "email:bounced",
      "event:consent_renewed",
      "event:opted_out",
      "event:schedule_resumed",
      "event:schedule_paused",
      "payment",
      "email:sent",
      "event:schedule_created",
    ]);
    expect(timeline.entries[0]).toMatchObject({ detail: "550 5.1.1 No such user" });
    expect(timeline.entries.at(-1)).toMatchObject({ detail: "Daily · Single Reminder" });
    expect(timeline.entries[6]).toMatchObject({ amountCents: 2000, note: "Bank transfer" });
    const times = timeline.entries.map((e: Json) => e.at);
    expect(times).toEqual([...times].sort((a, b) => b - a));

    // The page: readable labels, in the same order.
    const res = await get(`/debtors/${debtor.id}`, { cookie: owner.cookie });
    expect(res.status).toBe(200);
    const html = await pageText(res);
    const labels = [
      "Address bounced: 550 5.1.1 No such user",
      "Reminder bounced · Initial Email · Middle Ground",
      "Consent to reminders renewed",
      "Opted out",
      "Schedule resumed · Daily · Single Reminder",
      "Schedule paused · Daily · Single Reminder",
      "Payment $20.00 · Bank transfer",
      "Reminder sent · Single Reminder · Polite",
      "Schedule created · Daily · Single Reminder",
    ];
    const at = labels.map((l) => html.indexOf(l));
    expect(
      at.every((i) => i >= 0),
      JSON.stringify(at),
    ).toBe(true);
    expect(at).toEqual([...at].sort((a, b) => a - b));
    expect(html).toContain("Tia Timeline");
    expect(plain(html)).toContain("Still owed: $80.00 of $100.00");
    for (const foreign of ["Sib Ling", "Stan Stranger", "Weekly · Single Reminder"])
      expect(html).not.toContain(foreign);

    // The stranger's own debtor has only their own events.
    const theirTimeline = (await compact(stranger.cookie, theirs.id)).timeline;
    expect(kinds(theirTimeline.entries)).toEqual(["event:opted_out", "email:sent", "event:schedule_created"]);
  });

  it("the balance names what is owed in every currency: never 'Paid in full' while an invoice in another is open", async () => {
    const owner = await signIn(uniqueEmail("tl-currencies"));
    const added = await apiJson("POST", "/debtors/add", {
      cookie: owner.cookie,
      json: { full_name: "Cora Currencies", email: uniqueEmail("cora"), debt: 100, due_on: "2026-01-10" },
    });
    expect(added.status).toBe(200);
    const id = added.body.data.id;
    const invoice = await apiJson("POST", "/invoices/add", {
      cookie: owner.cookie,
      json: { debtor_id: id, amount: 50, currency: "EUR", due_on: "2026-01-20" },
    });
    expect(invoice.status).toBe(200);
    const balance = async () => plain(await pageText(await get(`/debtors/${id}`, { cookie: owner.cookie })));
    expect(await balance()).toContain("Still owed: $100.00 + €50.00");

    // The dollars paid: the euros are still owed.
    const paid = await apiJson("POST", "/payments/add", {
      cookie: owner.cookie,
      json: { debtor_id: id, amount: 100, paid_on: "2026-02-01" },
    });
    expect(paid.status).toBe(200);
    const text = await balance();
    expect(text).toContain("Still owed: €50.00");
    expect(text).not.toContain("Paid in full");
  });

  it("another user's debtor, a missing one or a malformed id is a 404; a visitor is sent to sign in", async () => {
    const owner = await signIn(uniqueEmail("tl"));
    const stranger = await signIn(uniqueEmail("tl-other"));
    const debtor = await makeDebtor(owner.userId);
    for (const path of [`/debtors/${debtor.id}`, "/debtors/999999999", "/debtors/abc", "/debtors/-1"]) {
      const res = await get(path, { cookie: stranger.cookie });
      expect(res.status, path).toBe(404);
      const html = await pageText(res);
      expect(html).toContain(NOT_FOUND_TEXT);
      expect(html).not.toContain(debtor.email);
    }
    for (const path of [`/debtors/${debtor.id}/timeline.data`, "/debtors/abc/timeline.data"]) {
      const res = await get(path, { cookie: stranger.cookie });
      expect(res.status, path).toBe(404);
      expect(await res.text()).not.toContain(debtor.email);
    }
    const visitor = await get(`/debtors/${debtor.id}`);
    expect(visitor.status).toBe(302);
    expect(visitor.headers.get("Location")).toBe(`/404?redirectTo=${encodeURIComponent(`/debtors/${debtor.id}`)}`);
  });

  it("shows the next reminder at the time it really goes: after the debtor's night, or held back with its reason", async () => {
    const owner = await signIn(uniqueEmail("tl-next"));
    const debtor = await makeDebtor(owner.userId, { timeZone: "UTC" });
    const none = await compact(owner.cookie, debtor.id);
    expect(none.timeline.upcoming).toEqual([]);
    expect(plain(await pageText(await get(`/debtors/${debtor.id}`, { cookie: owner.cookie })))).toContain(
      "Next reminder: none scheduled",
    );

    const schedule = await createVia(owner, {
      debtor_id: String(debtor.id),
      preset: "FRIENDLY_REMINDER",
      frequency: "daily",
    });
    // Due at 03:00 UTC the day after tomorrow: the debtor's night, so it goes at 08:00 their time.
    const night = Math.floor(Date.now() / DAY) * DAY + 2 * DAY + 3 * HOUR;
    await setSchedule(schedule.id, { next_run_at: night });
    const quiet = (await compact(owner.cookie, debtor.id)).timeline.upcoming;
    expect(quiet).toEqual([
      {
        scheduleId: schedule.id,
        preset: "FRIENDLY_REMINDER",
        frequency: "daily",
        dueAt: night,
        goesAt: night + 5 * HOUR,
        heldBack: null,
        waitsFor: "quiet-hours",
        // A daily schedule: no cadence plan says what its next e-mail carries.
        what: null,
      },
    ]);
    const html = await pageText(await get(`/debtors/${debtor.id}`, { cookie: owner.cookie }));
    const when = new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" });
    expect(plain(html)).toContain(`Next reminder: ${when.format(night + 5 * HOUR)}`);
    expect(html).toContain("it waits for the debtor's daytime in their time zone");

    // The current occurrence is held back: its reason says when it really goes.
    const reason = "Waiting for the debtor's daytime (8:00–21:00 in their time zone): goes out Jan 2, 2030, 8:00 AM.";
    await env.DB.prepare(
      "INSERT INTO deliveries (owner_id, schedule_id, debtor_id, occurrence_key, template, tone, status, error) VALUES (?, ?, ?, ?, 'initial', 1, 'deferred', ?)",
    )
      .bind(owner.userId, schedule.id, debtor.id, `${schedule.id}:${night}`, reason)
      .run();
    const held = (await compact(owner.cookie, debtor.id)).timeline;
    expect(held.upcoming[0]).toMatchObject({ heldBack: reason, waitsFor: null });
    expect(held.entries[0]).toMatchObject({ kind: "email", status: "deferred", error: reason });
    const page = await pageText(await get(`/debtors/${debtor.id}`, { cookie: owner.cookie }));
    expect(page).toContain(`Held back: ${reason}`);

    // A paused schedule sends nothing: no next reminder.
    await act({ intent: "schedule-pause", ids: schedule.id }, { cookie: owner.cookie });
    expect((await compact(owner.cookie, debtor.id)).timeline.upcoming).toEqual([]);
  });

  it("records deletes, edits, complaints and resumed reminders; the page is bounded and says so", async () => {
    const owner = await signIn(uniqueEmail("tl-more"));
    const debtor = await makeDebtor(owner.userId);
    const schedule = await createVia(owner, {
      debtor_id: String(debtor.id),
      preset: "SINGLE_REMINDER",
      frequency: "daily",
    });
    await tick();
    const edited = await act(
      {
        intent: "schedule-update",
        id: schedule.id,
        debtor_id: String(debtor.id),
        preset: "FRIENDLY_REMINDER",
        frequency: "weekly",
      },
      { cookie: owner.cookie },
    );
    expect(edited.status, edited.text).toBe(200);
    await tick();
    expect((await act({ intent: "schedule-delete", id: schedule.id }, { cookie: owner.cookie })).status).toBe(200);
    await tick();
    const providerId = await sentWithProviderId(owner.userId, debtor.id, debtor.email);
    await tick();
    expect((await recordComplaint({ env, db: db() }, providerId, null)).matched).toBe(true);

    const { timeline } = await compact(owner.cookie, debtor.id);
    expect(kinds(timeline.entries)).toEqual([
      "event:complained",
      "event:opted_out",
      "email:complained",
      "event:schedule_deleted",
      "event:schedule_updated",
      "event:schedule_created",
    ]);
    expect(timeline.entries.slice(3).map((e: Json) => e.detail)).toEqual([
      "Weekly · Escalating Reminders",
      "Weekly · Escalating Reminders",
      "Daily · Single Reminder",
    ]);

    // Paid in full, then the payment deleted: "Resume reminders" is recorded.
    const again = await makeDebtor(owner.userId, { debtCents: 1000 });
    const s2 = await createVia(owner, { debtor_id: String(again.id), preset: "SINGLE_REMINDER", frequency: "daily" });
    expect(s2.state).toBe("ENABLED");
    const today = new Date().toISOString().slice(0, 10);
    await formAction(
      "/debtors-list",
      { intent: "payment-add", debtor_id: String(again.id), amount: "10", paid_on: today, note: "" },
      owner.cookie,
    );
    const payment = await env.DB.prepare("SELECT id FROM payments WHERE debtor_id = ?")
      .bind(again.id)
      .first<{ id: number }>();
    await formAction("/debtors-list", { intent: "payment-delete", id: String(payment!.id) }, owner.cookie);
    await tick();
    const resumed = await formAction(
      "/debtors-list",
      { intent: "debtor-resume", debtor_id: String(again.id) },
      owner.cookie,
    );
    expect(resumed.status, JSON.stringify(resumed.data)).toBe(200);
    expect((await compact(owner.cookie, again.id)).timeline.entries[0]).toMatchObject({
      kind: "event",
      type: "reminders_resumed",
      detail: "1 schedule",
    });

    // 210 more events: the page shows the latest 200 and says that older ones are left out.
    const rows = Array.from({ length: 210 }, (_, i) => i);
    const base = Date.now() - DAY;
    await env.DB.batch(
      rows.map((i) =>
        env.DB.prepare(
          "INSERT INTO debtor_events (owner_id, debtor_id, type, detail, created_at) VALUES (?, ?, 'schedule_paused', 'Old', ?)",
        ).bind(owner.userId, debtor.id, base + i),
      ),
    );
    const html = await pageText(await get(`/debtors/${debtor.id}`, { cookie: owner.cookie }));
    expect(html).toContain("Showing the latest 200 entries; older ones are not shown.");
    expect(html.match(/<li class="flex gap-3/g)?.length).toBe(200);
    const small = await pageText(await get(`/debtors/${again.id}`, { cookie: owner.cookie }));
    expect(small).not.toContain("Showing the latest");
  });
});
