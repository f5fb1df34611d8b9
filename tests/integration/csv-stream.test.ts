import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { listDeliveries } from "~/reminders/deliveries.server";
import { db, FIXTURE_SCHEDULE_ID, makeDebtor, makeInvoice } from "./fixtures";
import { get, sha256Hex, signIn, uniqueEmail } from "./helpers";

/**
 * The streamed exports: /report.csv and /debtors.csv are written
 * page by page as they are read, and what they write is byte for byte what the builders that made
 * the whole file in memory wrote. The digests below are of those builders' output for this very
 * seed, taken from the build before the exports streamed; every value in the seed is fixed
 * (names, addresses, times, zones) so the files are the same on every run. The seed crosses the
 * exports' pages of 1,000 rows several times, with ties on the time (the id breaks them).
 */

// 2026-01-01T00:00:00Z: the seed's deliveries are spread over the following days.
const BASE = Date.UTC(2026, 0, 1);
const DELIVERIES = 2_600;
const DEBTORS = 2_150;

// The report gained its last column, "Channel" (decisions/070): ",E-mail" on each of the seed's
// 2,600 rows and ",Channel" in the header, 18,208 bytes.
const REPORT_DIGEST = "7aa208634300aab4e0f0cbb2953a88ee5a2c3e7e4a686b427c195e8c345453ef";
const REPORT_BYTES = 300_776;
// The debtors' file gained its three late-payment charge columns (decisions/067): empty in this seed.
const DEBTORS_DIGEST = "750686041ee654eb63287542d3bd6e34ff5da3d166cfe950b68516169ee8e015";
const DEBTORS_BYTES = 257_327;
const INVOICES_DIGEST = "3545545b49b478409f17f5225891c6ba3bdea0cdd487372f69e80aefbdc3d221";
const REPORT_BERLIN_DIGEST = "b64ae73199cb332b39e508dafb8fb7200e9723fa815314c852af72d6d88455f2";

async function seed(ownerId: string) {
  const names = ["Ada Stream", '=HYPERLINK("x")', 'Comma, Quote "Q"', "Zoë Ünicode"];
  const debtorIds: number[] = [];
  for (const [i, fullName] of names.entries()) {
    const d = await makeDebtor(ownerId, {
      fullName,
      email: `stream-${i}@example.com`,
      timeZone: "Europe/Berlin",
      debtCents: 10_000 + i * 1234,
      paidCents: i * 500,
      currency: i === 3 ? "EUR" : "USD",
    });
    debtorIds.push(d.id);
    await env.DB.prepare("UPDATE invoices SET number = ? WHERE id = ?").bind(`S-${i}`, d.invoiceId).run();
    if (i === 1) await makeInvoice(ownerId, d.id, { number: "S-1-b", amountCents: 700 });
  }
  await env.DB.prepare("UPDATE debtors SET created_at = ? + id % 7 * 1000 WHERE owner_id = ?")
    .bind(BASE, ownerId)
    .run();
  // More debtors than a page holds, no invoice, made in one statement.
  await env.DB.prepare(
    `WITH RECURSIVE seq(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM seq WHERE i < ?)
     INSERT INTO debtors (owner_id, full_name, email, debt_cents, paid_cents, currency, active_strategy, status, time_zone, created_at)
     SELECT ?, 'Bulk ' || i, 'bulk-' || i || '@example.com', i * 100, 0, 'USD', 1 + i % 3,
            CASE WHEN i % 11 = 0 THEN 'paused' ELSE 'active' END, 'America/New_York', ? + i * 60000 FROM seq`,
  )
    .bind(DEBTORS - names.length, ownerId, BASE)
    .run();
  // The deliveries: every status, errors to quote or neutralize, a deleted debtor, test sends, and
  // pairs made at the same millisecond.
  await env.DB.prepare(
    `WITH RECURSIVE seq(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM seq WHERE i < ?1)
     INSERT INTO deliveries (owner_id, schedule_id, debtor_id, occurrence_key, template, tone, status, recipient, provider_id, error, created_at, sent_at)
     SELECT ?2, ?3,
            CASE WHEN i % 97 = 0 THEN 999999999 ELSE CASE i % 4 WHEN 0 THEN ?4 WHEN 1 THEN ?5 WHEN 2 THEN ?6 ELSE ?7 END END,
            CASE WHEN i % 89 = 0 THEN 'test:' || ?2 || ':' || i ELSE 'stream:' || ?2 || ':' || i END,
            CASE i % 3 WHEN 0 THEN 'final-notice' WHEN 1 THEN 'friendly-reminder' ELSE 'payment-due' END,
            1 + i % 3,
            CASE i % 6 WHEN 0 THEN 'failed' WHEN 1 THEN 'bounced' WHEN 2 THEN 'deferred' WHEN 3 THEN 'complained' ELSE 'sent' END,
            'r' || i || '@example.com',
            CASE WHEN i % 6 IN (4, 5) THEN 'msg_' || i END,
            CASE WHEN i % 6 = 0 THEN CASE WHEN i % 12 = 0 THEN '=cmd|'' /C calc''!A0' ELSE 'Refused, "bad" address' END END,
            ?8 + (i / 2) * 3600000,
            CASE WHEN i % 6 IN (4, 5) THEN ?8 + (i / 2) * 3600000 + 1500 END
     FROM seq`,
  )
    .bind(DELIVERIES, ownerId, FIXTURE_SCHEDULE_ID, ...debtorIds, BASE)
    .run();
}

async function download(path: string, cookie: string) {
  const res = await get(path, { cookie });
  expect(res.status, path).toBe(200);
  expect(res.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
  const bytes = new Uint8Array(await res.arrayBuffer());
  const text = new TextDecoder().decode(bytes);
  return { bytes: bytes.length, digest: await sha256Hex(text), text };
}

describe("streamed CSV exports", () => {
  it("write byte for byte what the in-memory builders wrote, across several pages", async () => {
    const owner = await signIn(uniqueEmail("stream"));
    const stranger = await signIn(uniqueEmail("stream-other"));
    await seed(owner.userId);
    await makeDebtor(stranger.userId, { fullName: "Their Stream Debtor" });

    const report = await download("/report.csv", owner.cookie);
    const berlin = await download("/report.csv", `${owner.cookie}; tz=Europe/Berlin`);
    const debtors = await download("/debtors.csv", owner.cookie);
    const invoices = await download("/invoices.csv", owner.cookie);
    // Every row is there: the header and one line per row (a quoted error holds no line break).
    expect(report.text.split("\r\n")).toHaveLength(DELIVERIES + 1);
    expect(debtors.text.split("\r\n")).toHaveLength(DEBTORS + 1);
    expect(debtors.text).not.toContain("Their Stream Debtor");
    expect([report.digest, report.bytes]).toEqual([REPORT_DIGEST, REPORT_BYTES]);
    expect(berlin.digest).toBe(REPORT_BERLIN_DIGEST);
    expect([debtors.digest, debtors.bytes]).toEqual([DEBTORS_DIGEST, DEBTORS_BYTES]);
    expect([invoices.digest, invoices.bytes]).toEqual([INVOICES_DIGEST, 706]);
  });

  it("reads each later page as one index range after the last row, the owner's or the debtor's", async () => {
    const plan = async (filter: Parameters<typeof listDeliveries>[2]) => {
      const query = listDeliveries(db(), "someone", {
        ...filter,
        limit: 1000,
        after: { createdAt: BASE, id: 5 },
      }).toSQL();
      const rows = await env.DB.prepare(`EXPLAIN QUERY PLAN ${query.sql}`)
        .bind(...query.params)
        .all<{ detail: string }>();
      return rows.results.map((r) => r.detail).join(" | ");
    };
    const all = await plan({});
    expect(all).toMatch(
      /SEARCH deliveries USING (COVERING )?INDEX deliveries_owner_idx \(owner_id=\? AND created_at<\?\)/,
    );
    const ofDebtor = await plan({ debtorId: 7 });
    expect(ofDebtor).toMatch(/SEARCH deliveries USING INDEX deliveries_debtor_idx \(debtor_id=\? AND created_at<\?\)/);
    // Newest first straight from the index: no sort of the rows read.
    for (const p of [all, ofDebtor]) expect(p).not.toContain("TEMP B-TREE");
  });
});
