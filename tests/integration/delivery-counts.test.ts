import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { getDb } from "~/db/client.server";
import { deliveryTotals, totalsOf } from "~/reminders/deliveries.server";
import { insertDelivery } from "./fixtures";

// The report's all-time totals come from delivery_status_counts, kept by triggers on deliveries
//. Whatever happens to the deliveries, the kept counts must equal a
// count of the rows.

let n = 0;
async function makeOwner() {
  n += 1;
  const id = `cnt${Date.now().toString(36)}${n}${Math.random().toString(36).slice(2, 8)}`;
  await env.DB.prepare("INSERT INTO users (id, email, full_name) VALUES (?, ?, ?)")
    .bind(id, `${id}@example.com`, "Count Owner")
    .run();
  const debtor = await env.DB.prepare(
    "INSERT INTO debtors (owner_id, kind, full_name, email, debt_cents) VALUES (?, 'person', 'Cora Count', 'cora@example.com', 1000) RETURNING id",
  )
    .bind(id)
    .first<{ id: number }>();
  return { id, debtorId: debtor!.id };
}

/** The kept counts (zeros left out) and a GROUP BY of the owner's rows. */
async function keptAndCounted(ownerId: string) {
  const kept = await env.DB.prepare(
    "SELECT status, n FROM delivery_status_counts WHERE owner_id = ? AND n <> 0 ORDER BY status",
  )
    .bind(ownerId)
    .all();
  const counted = await env.DB.prepare(
    "SELECT status, count(*) AS n FROM deliveries WHERE owner_id = ? GROUP BY status ORDER BY status",
  )
    .bind(ownerId)
    .all();
  return { kept: kept.results, counted: counted.results };
}

describe("delivery_status_counts", () => {
  it("follows inserts, status changes, upserts and deletes", async () => {
    const a = await makeOwner();
    const b = await makeOwner();
    for (const status of ["sent", "sent", "failed", "sending", "bounced"] as const) {
      await insertDelivery(a.id, a.debtorId, status);
    }
    await insertDelivery(b.id, b.debtorId, "sent");
    let state = await keptAndCounted(a.id);
    expect(state.kept).toEqual(state.counted);
    expect(state.kept).toEqual([
      { status: "bounced", n: 1 },
      { status: "failed", n: 1 },
      { status: "sending", n: 1 },
      { status: "sent", n: 2 },
    ]);

    // A send recorded, a bounce reported, a change that keeps the status.
    await env.DB.prepare("UPDATE deliveries SET status = 'sent' WHERE owner_id = ? AND status = 'sending'")
      .bind(a.id)
      .run();
    await env.DB.prepare(
      "UPDATE deliveries SET status = 'bounced' WHERE id = (SELECT min(id) FROM deliveries WHERE owner_id = ? AND status = 'sent')",
    )
      .bind(a.id)
      .run();
    await env.DB.prepare("UPDATE deliveries SET error = 'x' WHERE owner_id = ?").bind(a.id).run();
    // The engine's claim: an upsert on the occurrence key that finds the row updates it.
    await env.DB.prepare(
      `INSERT INTO deliveries (owner_id, debtor_id, occurrence_key, template, tone, status) VALUES (?1, ?2, ?1 || ':occ', 'single', 1, 'sending')
       ON CONFLICT (occurrence_key) DO UPDATE SET status = 'deferred'`,
    )
      .bind(a.id, a.debtorId)
      .run();
    await env.DB.prepare(
      `INSERT INTO deliveries (owner_id, debtor_id, occurrence_key, template, tone, status) VALUES (?1, ?2, ?1 || ':occ', 'single', 1, 'sending')
       ON CONFLICT (occurrence_key) DO UPDATE SET status = 'deferred'`,
    )
      .bind(a.id, a.debtorId)
      .run();
    await env.DB.prepare(
      "DELETE FROM deliveries WHERE id = (SELECT max(id) FROM deliveries WHERE owner_id = ? AND status = 'failed')",
    )
      .bind(a.id)
      .run();
    state = await keptAndCounted(a.id);
    expect(state.kept).toEqual(state.counted);
    expect(state.kept).toEqual([
      { status: "bounced", n: 2 },
      { status: "deferred", n: 1 },
      { status: "sent", n: 2 },
    ]);
    // The other owner's count never moved.
    expect((await keptAndCounted(b.id)).kept).toEqual([{ status: "sent", n: 1 }]);

    // The report's totals: the kept counts unfiltered, the same as counting the rows of a
    // filter that covers them all.
    const db = getDb(env.DB);
    const all = totalsOf(await deliveryTotals(db, a.id));
    expect(all).toEqual({
      all: 5,
      sent: 2,
      sending: 1,
      failed: 0,
      bounced: 2,
      skipped: 0,
      texts: { all: 0, sent: 0, sending: 0, failed: 0, bounced: 0, skipped: 0 },
    });
    expect(totalsOf(await deliveryTotals(db, a.id, { from: 0 }))).toEqual(all);
  });

  it("counts the texts apart, through inserts, status changes, upserts and deletes (text_status_counts)", async () => {
    const a = await makeOwner();
    const insert = (key: string, channel: "email" | "text", status: string) =>
      env.DB.prepare(
        `INSERT INTO deliveries (owner_id, debtor_id, occurrence_key, template, tone, status, channel)
         VALUES (?1, ?2, ?1 || ?3, 'single', 1, ?4, ?5)
         ON CONFLICT (occurrence_key) DO UPDATE SET status = excluded.status`,
      )
        .bind(a.id, a.debtorId, key, status, channel)
        .run();
    await insert(":1", "email", "sent");
    await insert(":1:text", "text", "sending");
    await insert(":2:text", "text", "sending");
    await insert(":3:text", "text", "deferred");
    await insert(":4", "email", "failed");
    // Twilio's callbacks: one delivered, one failed; the deferred one claimed again.
    await env.DB.prepare("UPDATE deliveries SET status = 'sent' WHERE occurrence_key = ?").bind(`${a.id}:1:text`).run();
    await env.DB.prepare("UPDATE deliveries SET status = 'failed' WHERE occurrence_key = ?")
      .bind(`${a.id}:2:text`)
      .run();
    await insert(":3:text", "text", "sending");
    await env.DB.prepare("DELETE FROM deliveries WHERE occurrence_key = ?").bind(`${a.id}:2:text`).run();

    const kept = await env.DB.prepare(
      "SELECT status, n FROM text_status_counts WHERE owner_id = ? AND n <> 0 ORDER BY status",
    )
      .bind(a.id)
      .all();
    const counted = await env.DB.prepare(
      "SELECT status, count(*) AS n FROM deliveries WHERE owner_id = ? AND channel = 'text' GROUP BY status ORDER BY status",
    )
      .bind(a.id)
      .all();
    expect(kept.results).toEqual(counted.results);
    expect(kept.results).toEqual([
      { status: "sending", n: 1 },
      { status: "sent", n: 1 },
    ]);
    // Every delivery is still in the totals once; the texts are told apart, the same with a filter.
    expect((await keptAndCounted(a.id)).kept).toEqual((await keptAndCounted(a.id)).counted);
    const db = getDb(env.DB);
    const all = totalsOf(await deliveryTotals(db, a.id));
    expect(all).toEqual({
      all: 4,
      sent: 2,
      sending: 1,
      failed: 1,
      bounced: 0,
      skipped: 0,
      texts: { all: 2, sent: 1, sending: 1, failed: 0, bounced: 0, skipped: 0 },
    });
    expect(totalsOf(await deliveryTotals(db, a.id, { from: 0 }))).toEqual(all);
    expect(totalsOf(await deliveryTotals(db, a.id, { debtorId: a.debtorId }))).toEqual(all);
  });

  it("goes with its owner", async () => {
    const a = await makeOwner();
    await insertDelivery(a.id, a.debtorId, "sent");
    await env.DB.prepare("DELETE FROM users WHERE id = ?").bind(a.id).run();
    const left = await env.DB.prepare("SELECT count(*) AS n FROM delivery_status_counts WHERE owner_id = ?")
      .bind(a.id)
      .first<{ n: number }>();
    expect(left?.n).toBe(0);
  });
});
