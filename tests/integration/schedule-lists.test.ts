import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import type { Json } from "./data-helpers";
import { MINUTE } from "./engine-helpers";
import { insertDelivery, makeDebtor, setSchedule } from "./fixtures";
import { DAY, get, pageText, type SignedIn, signIn, uniqueEmail } from "./helpers";
import { createVia, loaderData, utcDayStart, ZONE } from "./schedule-helpers";

/**
 * What /schedules-list, the /dashboard schedules card and /report show: the user's own
 * rows only, and the debtor and period filters.
 */

// Lists, dashboard, report --------------------------------------------------------------------

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

const NO_TEXTS = { all: 0, sent: 0, sending: 0, failed: 0, bounced: 0, skipped: 0 };

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
    expect(data.totals).toEqual({ all: 7, sent: 4, sending: 1, failed: 1, bounced: 1, skipped: 0, texts: NO_TEXTS });
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
    expect((await report(`?debtor=${d1.id}`)).totals).toEqual({
      all: 4,
      sent: 3,
      sending: 0,
      failed: 1,
      bounced: 0,
      skipped: 0,
      texts: NO_TEXTS,
    });
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
      skipped: 0,
      texts: NO_TEXTS,
    });
    const html = await pageText(await get(`/report?debtor=${dB.id}`, { cookie: a.cookie }));
    expect(html).toContain("No reminders found");
  });

  it("counts the text messages apart, and says which channel each delivery took", async () => {
    const owner = await signIn(uniqueEmail("report-texts"));
    const debtor = await makeDebtor(owner.userId, { fullName: "Report Texted" });
    await insertDelivery(owner.userId, debtor.id, "sent");
    await env.DB.prepare(
      "INSERT INTO deliveries (owner_id, debtor_id, occurrence_key, template, tone, status, channel, recipient) VALUES (?1, ?2, ?1 || ':t1:text', 'follow-up', 1, 'sent', 'text', '+447700900123'), (?1, ?2, ?1 || ':t2:text', 'follow-up', 1, 'failed', 'text', '+447700900123')",
    )
      .bind(owner.userId, debtor.id)
      .run();
    const texts = { ...NO_TEXTS, all: 2, sent: 1, failed: 1 };
    const data = await loaderData("/report", "routes/report", owner.cookie);
    expect(data.totals).toEqual({ all: 3, sent: 2, sending: 0, failed: 1, bounced: 0, skipped: 0, texts });
    expect(data.deliveries.map((x: Json) => x.channel).sort()).toEqual(["email", "text", "text"]);
    // The same with a filter (grouped over the rows, not the kept counts).
    const filtered = await loaderData(`/report?debtor=${debtor.id}`, "routes/report", owner.cookie);
    expect(filtered.totals.texts).toEqual(texts);
    const html = await pageText(await get("/report", { cookie: owner.cookie }));
    expect(html).toContain("Text messages among them: 2 (1 sent, 1 failed, 0 sending, 0 not sent); e-mails: 1.");
    expect(html).toMatch(/data-label="Channel"[^>]*>Text</);
    expect(html).toMatch(/data-label="Channel"[^>]*>E-mail</);
    // No text, no line about texts.
    expect(await pageText(await get("/report", { cookie: a.cookie }))).not.toContain("Text messages among them");
  });

  it("a visitor is redirected to /404?redirectTo=%2Freport", async () => {
    const res = await get("/report");
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/404?redirectTo=%2Freport");
  });
});
