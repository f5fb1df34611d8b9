import { applyD1Migrations } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { and, asc, eq, lt } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { deliveries } from "~/db/schema";
import { archiveCutoff, archiveObjectKey, monthOf } from "~/domain/archive-months";
import { archiveOldDeliveries } from "~/reminders/delivery-archive.server";
import { listSchedules } from "~/reminders/schedules.server";
import { decodeTurbo } from "./data-helpers";
import { db, FIXTURE_SCHEDULE_ID, makeDebtor, makeSchedule } from "./fixtures";
import { DAY, get, signIn, uniqueEmail } from "./helpers";

/**
 * Bounded deliveries (docs/decisions/022): deliveries older than 13 months
 * move to one file per account and month in the ARCHIVE bucket and are counted in
 * delivery_rollups. Nothing is lost: every moved row is in its file, the report's totals (all, and
 * per debtor), the dashboard's chart and the debtor's sent count are the same before and after,
 * and another account's rows are untouched. The timeline says where older history went and links
 * each month's file, which only its owner can download.
 */

const MONTH_MS = 30 * DAY;

/** `count` deliveries of the owner's debtors, made from `from` on, `step` ms apart, in one statement. */
async function seedDeliveries(ownerId: string, debtorIds: number[], count: number, from: number, step: number) {
  const tag = crypto.randomUUID();
  const [a, b = a, c = a] = debtorIds;
  await env.DB.prepare(
    `WITH RECURSIVE seq(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM seq WHERE i < ?1)
     INSERT INTO deliveries (owner_id, schedule_id, debtor_id, occurrence_key, template, tone, status, recipient, provider_id, error, created_at, sent_at)
     SELECT ?2, ?3,
            CASE WHEN i % 53 = 0 THEN 999999999 ELSE CASE i % 3 WHEN 0 THEN ?4 WHEN 1 THEN ?5 ELSE ?6 END END,
            CASE WHEN i % 41 = 0 THEN 'test:' || ?7 || ':' || i ELSE ?7 || ':' || i END,
            'friendly-reminder', 1 + i % 3,
            CASE i % 5 WHEN 0 THEN 'failed' WHEN 1 THEN 'bounced' WHEN 2 THEN 'deferred' ELSE 'sent' END,
            'r' || i || '@example.com',
            CASE WHEN i % 5 >= 3 THEN 'msg_' || i END,
            CASE WHEN i % 5 = 0 THEN 'Refused, "bad" address' END,
            ?8 + i * ?9,
            CASE WHEN i % 5 >= 3 THEN ?8 + i * ?9 + 1500 END
     FROM seq`,
  )
    .bind(count, ownerId, FIXTURE_SCHEDULE_ID, a, b, c, tag, from, step)
    .run();
}

const rowsOf = (ownerId: string) =>
  db().select().from(deliveries).where(eq(deliveries.ownerId, ownerId)).orderBy(asc(deliveries.id));

async function loaderData(path: string, route: string, cookie: string) {
  const url = new URL(path, "http://localhost");
  const res = await get(`${url.pathname}.data${url.search}`, { cookie });
  expect(res.status, path).toBe(200);
  return (await decodeTurbo(res))[route]?.data;
}

describe("migration 0021", () => {
  it("adds the rollups, the archive list and the time index, and changes no delivery or count", async () => {
    const migrationDb = env.MIGRATION_DB!;
    const all = env.TEST_MIGRATIONS ?? [];
    await applyD1Migrations(
      migrationDb,
      all.filter((m) => m.name < "0021"),
    );
    await migrationDb.batch([
      migrationDb.prepare("INSERT INTO users (id, email) VALUES ('m1', 'm1@example.com'), ('m2', 'm2@example.com')"),
      ...[1, 2, 3, 4].map((i) =>
        migrationDb
          .prepare(
            "INSERT INTO deliveries (owner_id, debtor_id, occurrence_key, template, tone, status, created_at) VALUES (?, ?, ?, 'friendly-reminder', 1, ?, ?)",
          )
          .bind(i % 2 ? "m1" : "m2", i, `m:${i}`, i === 3 ? "failed" : "sent", Date.UTC(2024, i, 1)),
      ),
    ]);
    const read = async () => ({
      deliveries: (await migrationDb.prepare("SELECT * FROM deliveries ORDER BY id").all()).results,
      counts: (await migrationDb.prepare("SELECT * FROM delivery_status_counts ORDER BY owner_id, status").all())
        .results,
    });
    const before = await read();
    await applyD1Migrations(
      migrationDb,
      all.filter((m) => m.name.startsWith("0021")),
    );
    expect(await read()).toEqual(before);
    expect(before.deliveries).toHaveLength(4);
    for (const table of ["delivery_rollups", "delivery_archives"]) {
      const n = await migrationDb.prepare(`SELECT count(*) AS n FROM ${table}`).first<{ n: number }>();
      expect(n?.n, table).toBe(0);
    }
    const index = await migrationDb
      .prepare("SELECT sql FROM sqlite_master WHERE type = 'index' AND name = 'deliveries_created_idx'")
      .first<{ sql: string }>();
    expect(index?.sql).toContain("`created_at`");
    // The archive's "oldest delivery" read walks that index.
    const plan = await migrationDb
      .prepare(
        "EXPLAIN QUERY PLAN SELECT owner_id, created_at FROM deliveries WHERE created_at < ? ORDER BY created_at LIMIT 1",
      )
      .bind(Date.UTC(2025, 0, 1))
      .all<{ detail: string }>();
    expect(plan.results.map((r) => r.detail).join(" ")).toContain("deliveries_created_idx");
  });
});

describe("the delivery archive", () => {
  it("moves deliveries older than 13 months to a file per account and month, losing nothing", async () => {
    const now = Date.now();
    const cutoff = archiveCutoff(now);
    const owner = await signIn(uniqueEmail("archive"));
    const other = await signIn(uniqueEmail("archive-other"));
    const ada = await makeDebtor(owner.userId, { fullName: "Ada Archive" });
    const bo = await makeDebtor(owner.userId, { fullName: "Bo Archive" });
    const cy = await makeDebtor(owner.userId, { fullName: "Cy Archive" });
    const theirs = await makeDebtor(other.userId, { fullName: "Their Archive" });
    // Old: 2,400 over the seven months before the cut-off (the last one past a page of 1,000 rows);
    // recent: 300 over the last five months (the chart's). The other account: old and recent.
    await seedDeliveries(
      owner.userId,
      [ada.id, bo.id, cy.id],
      1_800,
      cutoff - 40 * DAY,
      Math.floor((40 * DAY - 1) / 1_800),
    );
    await seedDeliveries(
      owner.userId,
      [ada.id, bo.id, cy.id],
      600,
      cutoff - 7 * MONTH_MS,
      Math.floor((5 * MONTH_MS) / 600),
    );
    await seedDeliveries(
      owner.userId,
      [ada.id, bo.id, cy.id],
      300,
      now - 5 * MONTH_MS,
      Math.floor((5 * MONTH_MS) / 301),
    );
    await seedDeliveries(other.userId, [theirs.id], 120, cutoff - 3 * MONTH_MS, Math.floor((6 * MONTH_MS) / 121));

    // Ada's reminders came from a schedule of hers: the schedules list counts them.
    const adaSchedule = await makeSchedule(owner.userId, ada.id);
    await env.DB.prepare(
      "UPDATE deliveries SET schedule_id = ? WHERE debtor_id = ? AND NOT (occurrence_key >= 'test:' AND occurrence_key < 'test;')",
    )
      .bind(adaSchedule, ada.id)
      .run();
    const scheduleSent = async () =>
      (await listSchedules(db(), owner.userId)).find((r) => r.id === adaSchedule)?.emailsSent;

    const report = async (query = "") => (await loaderData(`/report${query}`, "routes/report", owner.cookie)).totals;
    const chart = async (debtorId: number) =>
      (await loaderData(`/dashboard?debtor=${debtorId}`, "routes/dashboard", owner.cookie)).chart;
    const sentCount = async (debtorId: number) =>
      (await loaderData(`/dashboard?debtor=${debtorId}`, "routes/dashboard", owner.cookie)).selected.emailsSent;
    const seen = async () => ({
      all: await report(),
      ada: await report(`?debtor=${ada.id}`),
      bo: await report(`?debtor=${bo.id}`),
      recent: await report("?period=90d"),
      chart: await chart(ada.id),
      adaSent: await sentCount(ada.id),
      scheduleSent: await scheduleSent(),
    });

    const before = await seen();
    const ownerRows = await rowsOf(owner.userId);
    const otherRowsBefore = await rowsOf(other.userId);
    const moving = ownerRows.filter((r) => r.createdAt < cutoff);
    expect(moving).toHaveLength(2_400);
    expect(before.all.all).toBe(2_700);
    expect(before.scheduleSent).toBeGreaterThan(300);

    // Bounded: a run stops once about maxRows moved (a month's file is always finished).
    const first = await archiveOldDeliveries(db(), env.ARCHIVE, now, 1);
    expect(first.files).toBe(1);
    expect(first.rows).toBeGreaterThan(0);
    expect(first.rows).toBeLessThan(2_400 + 120);
    let total = first;
    for (let run = 0; run < 20; run++) {
      const next = await archiveOldDeliveries(db(), env.ARCHIVE, now);
      total = { files: total.files + next.files, rows: total.rows + next.rows };
      if (next.rows === 0) break;
    }
    const otherMoving = otherRowsBefore.filter((r) => r.createdAt < cutoff);
    expect(total.rows).toBe(2_400 + otherMoving.length);

    // Only the recent rows are live; the other account's recent rows are exactly as they were.
    const live = await rowsOf(owner.userId);
    expect(live).toEqual(ownerRows.filter((r) => r.createdAt >= cutoff));
    expect(await rowsOf(other.userId)).toEqual(otherRowsBefore.filter((r) => r.createdAt >= cutoff));
    const oldLeft = await db().select().from(deliveries).where(lt(deliveries.createdAt, cutoff));
    expect(oldLeft).toEqual([]);

    // Every moved row is in its month's file, whole, and nothing else is.
    const months = [...new Set(moving.map((r) => monthOf(r.createdAt)))].sort();
    expect(months.length).toBeGreaterThanOrEqual(6);
    const archivedRows: unknown[] = [];
    for (const month of months) {
      const object = await env.ARCHIVE.get(archiveObjectKey(owner.userId, month));
      expect(object, month).not.toBeNull();
      const lines = (await object!.text()).split("\n").filter(Boolean);
      const rows = lines.map((l) => JSON.parse(l));
      for (const r of rows) expect(monthOf(r.createdAt)).toBe(month);
      archivedRows.push(...rows);
    }
    const byId = (a: { id: number }, b: { id: number }) => a.id - b.id;
    expect((archivedRows as { id: number }[]).sort(byId)).toEqual([...moving].sort(byId));
    // The other account's old rows went to its own files.
    const otherMonths = [...new Set(otherMoving.map((r) => monthOf(r.createdAt)))];
    let otherArchived = 0;
    for (const month of otherMonths) {
      const text = await (await env.ARCHIVE.get(archiveObjectKey(other.userId, month)))!.text();
      for (const line of text.split("\n").filter(Boolean)) {
        expect(JSON.parse(line).ownerId).toBe(other.userId);
        otherArchived++;
      }
    }
    expect(otherArchived).toBe(otherMoving.length);

    // The report's totals, the chart and the debtor's sent count did not change.
    expect(await seen()).toEqual(before);
    // The report pages through the live rows only and lists the archived months for download.
    const reportPage = await loaderData("/report", "routes/report", owner.cookie);
    expect(reportPage.pages).toBe(Math.ceil(live.length / 25));
    expect(reportPage.archived.map((m: { month: string }) => m.month)).toEqual([...months].reverse());
    expect(reportPage.archived.reduce((sum: number, m: { rows: number }) => sum + m.rows, 0)).toBe(2_400);
    const adaLive = live.filter((r) => r.debtorId === ada.id).length;
    expect((await loaderData(`/report?debtor=${ada.id}`, "routes/report", owner.cookie)).pages).toBe(
      Math.ceil(adaLive / 25),
    );
    const reportHtml = await (await get("/report", { cookie: owner.cookie })).text();
    expect(reportHtml).toContain(`href="/report/archive/${months[0]}"`);
    // Running again moves nothing and changes nothing.
    expect(await archiveOldDeliveries(db(), env.ARCHIVE, now)).toEqual({ files: 0, rows: 0 });
    expect(await seen()).toEqual(before);

    // The timeline says where older history went, month by month, and links each file.
    const timeline = (await loaderData(`/debtors/${ada.id}`, "routes/debtor-timeline", owner.cookie)).timeline;
    const adaMoved = moving.filter((r) => r.debtorId === ada.id);
    expect(timeline.archived.reduce((s: number, m: { n: number }) => s + m.n, 0)).toBe(adaMoved.length);
    expect(timeline.archived.map((m: { month: string }) => m.month)).toEqual([
      ...new Set(adaMoved.map((r) => monthOf(r.createdAt)).sort()),
    ]);
    const page = await (await get(`/debtors/${ada.id}`, { cookie: owner.cookie })).text();
    expect(page).toContain("moved to the archive");
    expect(page).toContain(`href="/report/archive/${months[0]}"`);

    // The owner downloads a month's file; another account, a bad month or a visitor cannot.
    const download = await get(`/report/archive/${months[0]}`, { cookie: owner.cookie });
    expect(download.status).toBe(200);
    expect(download.headers.get("Content-Type")).toBe("application/x-ndjson; charset=utf-8");
    expect(download.headers.get("Cache-Control")).toBe("private, no-store");
    const downloaded = (await download.text()).split("\n").filter(Boolean);
    expect(downloaded.length).toBe(moving.filter((r) => monthOf(r.createdAt) === months[0]).length);
    expect((await get(`/report/archive/${months[0]}`, { cookie: other.cookie })).status).toBe(404);
    for (const bad of ["2025-13", "..%2F..%2Fx", "latest"]) {
      expect((await get(`/report/archive/${bad}`, { cookie: owner.cookie })).status, bad).toBe(404);
    }
    expect((await get(`/report/archive/${months[0]}`)).status).toBe(302);
  });

  it("writes rows archived later after those already in the month's file", async () => {
    const now = Date.now();
    const cutoff = archiveCutoff(now);
    const owner = await signIn(uniqueEmail("archive-again"));
    const debtor = await makeDebtor(owner.userId, { fullName: "Late Import" });
    const monthStart = cutoff - 20 * DAY;
    await seedDeliveries(owner.userId, [debtor.id], 30, monthStart, 60_000);
    await archiveOldDeliveries(db(), env.ARCHIVE, now);
    // Rows with an old time made after their month was archived (an import, a restored backup).
    await seedDeliveries(owner.userId, [debtor.id], 12, monthStart + DAY, 60_000);
    const late = await db()
      .select()
      .from(deliveries)
      .where(and(eq(deliveries.ownerId, owner.userId), lt(deliveries.createdAt, cutoff)));
    expect(late).toHaveLength(12);
    await archiveOldDeliveries(db(), env.ARCHIVE, now);
    const month = monthOf(monthStart);
    const lines = (await (await env.ARCHIVE.get(archiveObjectKey(owner.userId, month)))!.text())
      .split("\n")
      .filter(Boolean);
    expect(lines).toHaveLength(42);
    expect(lines.slice(30).map((l) => JSON.parse(l).id)).toEqual(late.map((r) => r.id));
    const listed = await env.DB.prepare("SELECT rows FROM delivery_archives WHERE owner_id = ? AND month = ?")
      .bind(owner.userId, month)
      .first<{ rows: number }>();
    expect(listed?.rows).toBe(42);
    const totals = (await loaderData(`/report?debtor=${debtor.id}`, "routes/report", owner.cookie)).totals;
    expect(totals.all).toBe(42);
  });

  it("keeps the texts' own counts when their month moves to the archive (text_status_counts)", async () => {
    const now = Date.now();
    const cutoff = archiveCutoff(now);
    const owner = await signIn(uniqueEmail("archive-texts"));
    const debtor = await makeDebtor(owner.userId, { fullName: "Texted Long Ago" });
    const monthStart = cutoff - 20 * DAY;
    await seedDeliveries(owner.userId, [debtor.id], 10, monthStart, 60_000);
    // Three of them were texts: one sent, one failed, one deferred.
    await env.DB.prepare(
      `UPDATE deliveries SET channel = 'text' WHERE id IN
         (SELECT id FROM deliveries WHERE owner_id = ? AND occurrence_key NOT LIKE 'test:%' ORDER BY id LIMIT 3)`,
    )
      .bind(owner.userId)
      .run();
    const textCounts = () =>
      env.DB.prepare("SELECT status, n FROM text_status_counts WHERE owner_id = ? AND n <> 0 ORDER BY status")
        .bind(owner.userId)
        .all()
        .then((r) => r.results);
    const before = await textCounts();
    expect(before.reduce((sum, r) => sum + Number(r.n), 0)).toBe(3);
    const reportBefore = (await loaderData("/report", "routes/report", owner.cookie)).totals;
    expect(reportBefore.texts.all).toBe(3);

    await archiveOldDeliveries(db(), env.ARCHIVE, now);
    expect(await rowsOf(owner.userId)).toEqual([]);
    // The delete trigger took them off; the archive put them back: the all-time report is unchanged.
    expect(await textCounts()).toEqual(before);
    expect((await loaderData("/report", "routes/report", owner.cookie)).totals).toEqual(reportBefore);
  });
});
