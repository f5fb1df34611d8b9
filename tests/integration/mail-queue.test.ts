import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it } from "vitest";
import { batchKeyOf } from "~/domain/mail-batch";
import { fireSchedule } from "~/reminders/engine.server";
import { runWatchdog } from "~/watchdog/index.server";
import { eventually } from "./data-helpers";
import {
  alarmAt,
  consumeJobs,
  HOUR,
  MINUTE,
  programResend,
  queuedJob,
  type ResendAttempt,
  resendDelivered,
  resendRequests,
} from "./engine-helpers";
import { deliveriesOf, makeDebtor, makeSchedule, makeUser, scheduleRow, setSchedule } from "./fixtures";

/**
 * The mail queue between the alarms and the provider: however many
 * reminders fall due together, each is delivered once and none fails because of the provider's
 * rate limit; the watchdog re-arms every overdue schedule in one run.
 */

const fake = (path: string, init?: RequestInit) => fetch(`${env.FAKE_RESEND_URL}${path}`, init);

/** Limits the fake provider for mail to `domain` only (other test files share it). */
async function limitProvider(perSecond: number | null, domain: string) {
  const res = await fake("/__limit", { method: "POST", body: JSON.stringify({ perSecond, domain }) });
  expect(res.status).toBe(200);
}

afterEach(async () => {
  await limitProvider(null, "rate-limited.example");
});

/** `count` schedules of `owners` users, each to its own debtor at `domain`, all due at `dueAt`. */
async function dueTogether(count: number, domain: string, dueAt: number, options: { paid?: boolean } = {}) {
  const perOwner = 25;
  const ids: string[] = [];
  const emails: string[] = [];
  const owners: string[] = [];
  for (let made = 0; made < count; ) {
    const user = await makeUser();
    owners.push(user.id);
    // The largest plan's daily quota (50) has room for this owner's share.
    await env.DB.prepare("UPDATE users SET plan = 'aggressive', subscription_status = 'active' WHERE id = ?")
      .bind(user.id)
      .run();
    const share = Math.min(perOwner, count - made);
    for (let i = 0; i < share; i++, made++) {
      const email = `q${made}-${crypto.randomUUID().slice(0, 8)}@${domain}`;
      const debtor = await makeDebtor(user.id, { email });
      ids.push(await makeSchedule(user.id, debtor.id, { timeZone: "UTC" }));
      // Paid after the schedule was made (none is made for a debtor who has paid).
      if (options.paid) {
        await env.DB.prepare("UPDATE debtors SET paid_cents = debt_cents, status = 'paid' WHERE id = ?")
          .bind(debtor.id)
          .run();
      }
      emails.push(email);
    }
  }
  // All due at the same instant, their alarms lost (more than five minutes late).
  for (const owner of owners) {
    await env.DB.prepare("UPDATE schedules SET next_run_at = ? WHERE owner_id = ?").bind(dueAt, owner).run();
  }
  return { ids, emails, owners };
}

async function statusCounts(owners: string[]) {
  const marks = owners.map(() => "?").join(", ");
  const { results } = await env.DB.prepare(
    `SELECT status, count(*) AS n FROM deliveries WHERE owner_id IN (${marks}) GROUP BY status`,
  )
    .bind(...owners)
    .all<{ status: string; n: number }>();
  return Object.fromEntries(results.map((r) => [r.status, r.n]));
}

describe("the mail queue", () => {
  it("delivers every one of 200 reminders due together exactly once through a rate-limited provider, none failed", async () => {
    const domain = "rate-limited.example";
    // The provider lets 1 request a second through; the consumer is configured for 50
    // (MAIL_SENDS_PER_SECOND in vitest.config.ts), so it must honour any 429 to get there.
    await limitProvider(1, domain);
    const dueAt = Date.now() - 10 * MINUTE;
    const { ids, emails, owners } = await dueTogether(200, domain, dueAt);

    const rearmed = await runWatchdog(env);
    expect(rearmed).toEqual(expect.arrayContaining(ids));

    const done = await eventually(async () => (await statusCounts(owners)).sent === 200, 90_000);
    expect(await statusCounts(owners), "every delivery sent, none failed or left").toEqual({ sent: 200 });
    expect(done).toBe(true);

    const delivered = (await resendDelivered("")).filter((d) => String((d.body.to as string[])[0]).endsWith(domain));
    const perRecipient = new Map<string, number>();
    for (const d of delivered) {
      const to = String((d.body.to as string[])[0]);
      perRecipient.set(to, (perRecipient.get(to) ?? 0) + 1);
    }
    expect(perRecipient.size).toBe(200);
    expect([...perRecipient.values()].every((n) => n === 1)).toBe(true);
    expect(new Set(perRecipient.keys())).toEqual(new Set(emails.map((e) => e.toLowerCase())));

    // A batch sent again after a 429 carried the same key (one key per recipient across its
    // requests). Whether a 429 comes depends on how the queue groups the 200 jobs and how long
    // each batch takes to render; tests/integration/mail-batch.test.ts answers one for certain.
    const requests = ((await resendRequests("")) as ResendAttempt[]).filter((r) =>
      String((r.body.to as string[])[0]).endsWith(domain),
    );
    const keysOf = new Map<string, Set<string | null>>();
    for (const r of requests) {
      const to = String((r.body.to as string[])[0]);
      keysOf.set(to, (keysOf.get(to) ?? new Set()).add(r.idempotencyKey));
    }
    expect([...keysOf.values()].every((keys) => keys.size === 1)).toBe(true);
    for (const id of ids.slice(0, 20)) {
      const s = await scheduleRow(id);
      expect(s).toMatchObject({ last_run_at: dueAt, template_step: 1, state: "ENABLED" });
      expect(await alarmAt(id)).toBe(s!.next_run_at);
    }
  }, 120_000);

  it("a 429 holds the job for its Retry-After and sends it again under the same key, not counted as a failure", async () => {
    const user = await makeUser();
    const debtor = await makeDebtor(user.id);
    const id = await makeSchedule(user.id, debtor.id, { timeZone: "UTC" });
    const due = Date.now() - MINUTE;
    await setSchedule(id, { next_run_at: due });
    const job = queuedJob(await fireSchedule(env, id, Date.now()));
    await programResend(debtor.email, [{ status: 429, headers: { "retry-after": "1" } }]);

    const started = Date.now();
    const { messages, requeued } = await consumeJobs([job]);
    const requests = await resendRequests(debtor.email);
    expect(requests.map((r) => r.status)).toEqual([429, 200]);
    expect(requests[1]!.at - requests[0]!.at).toBeGreaterThanOrEqual(950);
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(new Set(requests.map((r) => r.idempotencyKey))).toEqual(new Set([await batchKeyOf([`${id}:${due}`])]));
    expect(messages[0]!.acked).toBe(true);
    expect(requeued).toEqual([]);
    expect(await deliveriesOf(id)).toMatchObject([{ status: "sent", error: null }]);
  });

  it("a Retry-After longer than the consumer waits puts the batch back with that delay, its attempts unchanged", async () => {
    const user = await makeUser();
    const debtor = await makeDebtor(user.id);
    const id = await makeSchedule(user.id, debtor.id, { timeZone: "UTC" });
    await setSchedule(id, { next_run_at: Date.now() - MINUTE });
    const job = queuedJob(await fireSchedule(env, id, Date.now()));
    await programResend(debtor.email, [{ status: 429, headers: { "retry-after": "120" } }]);

    const { requeued } = await consumeJobs([job]);
    const key = await batchKeyOf([job.occurrenceKey]);
    expect(requeued).toEqual([{ body: { batchKey: key }, delaySeconds: 120 }]);
    expect(await deliveriesOf(id)).toMatchObject([{ status: "sending", batch_key: key }]);
    expect(
      await env.DB.prepare("SELECT attempts, lease_until FROM mail_batches WHERE key = ?").bind(key).first(),
    ).toEqual({ attempts: 0, lease_until: 0 });
    expect(await resendDelivered(debtor.email)).toEqual([]);
  });

  it("a debtor who paid while the reminder waited on the queue gets nothing, and the schedule completes", async () => {
    const user = await makeUser();
    const debtor = await makeDebtor(user.id);
    const id = await makeSchedule(user.id, debtor.id, { timeZone: "UTC" });
    await setSchedule(id, { next_run_at: Date.now() - MINUTE });
    const job = queuedJob(await fireSchedule(env, id, Date.now()));
    await env.DB.prepare("UPDATE debtors SET paid_cents = debt_cents, status = 'paid' WHERE id = ?")
      .bind(debtor.id)
      .run();

    await consumeJobs([job]);
    expect(await resendRequests(debtor.email)).toEqual([]);
    expect(await deliveriesOf(id)).toMatchObject([
      { status: "skipped", error: "Not sent: the debt was paid in full before this reminder went out." },
    ]);
    expect(await scheduleRow(id)).toMatchObject({ state: "COMPLETED", stopped_reason: "paid", next_run_at: null });
  });

  // The watchdog reads the overdue schedules 500 a page (OVERDUE_PAGE): 600 take two pages.
  it("the watchdog re-arms 600 overdue schedules, more than one page of them, in one run", async () => {
    const user = await makeUser();
    // Paid in full: each re-armed alarm fires and completes its schedule without sending anything.
    const debtor = await makeDebtor(user.id, { paidCents: 123450, status: "paid" });
    const overdue = Date.now() - HOUR;
    await env.DB.prepare(
      `INSERT INTO schedules (id, owner_id, debtor_id, preset, frequency, time_zone, state, next_run_at)
       WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 600)
       SELECT ?1 || '-wd-' || printf('%04d', i), ?1, ?2, 'SINGLE_REMINDER', 'daily', 'UTC', 'ENABLED', ?3 FROM n`,
    )
      .bind(user.id, debtor.id, overdue)
      .run();

    const rearmed = (await runWatchdog(env)).filter((id) => id.startsWith(`${user.id}-wd-`));
    expect(rearmed).toHaveLength(600);
    expect(new Set(rearmed).size).toBe(600);

    // Each alarm fired by itself: every schedule found the debt paid and completed.
    const completed = async () =>
      (
        await env.DB.prepare("SELECT count(*) AS n FROM schedules WHERE owner_id = ? AND state = 'COMPLETED'")
          .bind(user.id)
          .first<{ n: number }>()
      )?.n;
    expect(await eventually(async () => (await completed()) === 600, 90_000)).toBe(true);
  }, 120_000);
});
