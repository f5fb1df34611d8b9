import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { getDb } from "~/db/client.server";
import { batchKeyOf } from "~/domain/mail-batch";
import { Pacer } from "~/domain/pacer";
import { fireSchedule, type MailJob } from "~/reminders/engine.server";
import { consumeMail, type MailQueueMessage } from "~/reminders/mail-queue.server";
import { runMailRecovery, STRANDED_AFTER_MS } from "~/watchdog/index.server";
import { eventually } from "./data-helpers";
import {
  consumeJobs,
  jobMessage,
  MINUTE,
  programResend,
  queuedJob,
  resendDelivered,
  resendRequests,
} from "./engine-helpers";
import { deliveriesOf, makeDebtor, makeSchedule, makeUser, setSchedule } from "./fixtures";

/**
 * Faults in the mail path (docs/decisions/021): a provider that answers 500, hangs past the mail
 * Worker's timeout (RESEND_TIMEOUT_SECONDS, 3 s in the tests), resets the connection, answers 429,
 * or sends and never answers; and a process killed with reminders on its queue. Every reminder is
 * sent exactly once, counted in the provider's own log.
 */

async function oneReady(domain = "faults.example") {
  const user = await makeUser();
  const debtor = await makeDebtor(user.id, { email: `f-${crypto.randomUUID().slice(0, 8)}@${domain}` });
  const id = await makeSchedule(user.id, debtor.id, { timeZone: "UTC" });
  await setSchedule(id, { next_run_at: Date.now() - MINUTE });
  return { id, email: debtor.email, job: queuedJob(await fireSchedule(env, id, Date.now())) };
}

describe("provider faults", () => {
  it.each([
    ["500", { status: 500 }],
    ["a hang past the client's timeout", { fault: "hang" as const }],
    ["a reset connection", { fault: "reset" as const }],
    ["a send that is never answered", { fault: "accept-hang" as const }],
  ])("%s: the batch is retried identically under its key and delivered once", async (_name, fault) => {
    const { id, email, job } = await oneReady();
    await programResend(email, [fault]);
    const started = Date.now();
    const first = await consumeJobs([job]);
    // Given up on within the timeout (3 s here), never waited on for minutes.
    expect(Date.now() - started).toBeLessThan(10_000);
    const key = await batchKeyOf([job.occurrenceKey]);
    expect(first.requeued).toEqual([{ body: { batchKey: key }, delaySeconds: 5 }]);
    expect(await deliveriesOf(id)).toMatchObject([{ status: "sending", batch_key: key }]);

    await consumeJobs([first.requeued[0]!.body], { now: Date.now() + 6000 });
    const requests = await resendRequests(email);
    expect(requests).toHaveLength(2);
    expect(new Set(requests.map((r) => r.idempotencyKey))).toEqual(new Set([key]));
    expect(await resendDelivered(email)).toHaveLength(1);
    expect(await deliveriesOf(id)).toMatchObject([{ status: "sent", error: null }]);
  });

  it("a burst of 429s: each waits out its Retry-After; nothing fails and nothing is sent twice", async () => {
    const { id, email, job } = await oneReady();
    await programResend(
      email,
      [429, 429, 429].map((status) => ({ status, headers: { "retry-after": "1" } })),
    );
    await consumeJobs([job]);
    expect((await resendRequests(email)).map((r) => r.status)).toEqual([429, 429, 429, 200]);
    expect(await resendDelivered(email)).toHaveLength(1);
    expect(await deliveriesOf(id)).toMatchObject([{ status: "sent", error: null }]);
  });

  it("a request that hangs holds up no other: its call returns at once (the rest in waitUntil), and the next call's batch is sent meanwhile", async () => {
    const slow = await oneReady();
    const quick = await oneReady();
    await programResend(slow.email, [{ fault: "hang" }]);
    const pending: Promise<unknown>[] = [];
    const options = { pacer: new Pacer(50), waitUntil: (p: Promise<unknown>) => void pending.push(p) };
    const queue = { async send() {} } as unknown as Queue;
    const asQueue = (job: MailJob) => [jobMessage(job as MailQueueMessage)];

    const started = Date.now();
    const scope = { env: { ...env, MAIL_QUEUE: queue } as Env, db: getDb(env.DB) };
    await consumeMail(scope, asQueue(slow.job), options);
    await consumeMail(scope, asQueue(quick.job), options);
    // Both calls returned at once; the quick one is sent while the slow one still waits on the provider.
    expect(Date.now() - started).toBeLessThan(3000);
    expect(await eventually(async () => (await deliveriesOf(quick.id))[0]?.status === "sent", 4000)).toBe(true);
    expect((await deliveriesOf(slow.id))[0]).toMatchObject({ status: "sending", error: null });
    await Promise.all(pending);
    expect((await deliveriesOf(slow.id))[0]!.error).toMatch(/no answer within 3 s/);
  });
});

describe("a restart", () => {
  it("100 reminders, the process killed once: what its queue held and the batch it had in flight go out once", async () => {
    const domain = "restart.example";
    const ready: { id: string; email: string; job: MailJob }[] = [];
    let owner = "";
    for (let i = 0; i < 100; i++) {
      if (i % 25 === 0) {
        owner = (await makeUser()).id;
        await env.DB.prepare("UPDATE users SET plan = 'aggressive', subscription_status = 'active' WHERE id = ?")
          .bind(owner)
          .run();
      }
      const debtor = await makeDebtor(owner, { email: `r${i}-${crypto.randomUUID().slice(0, 8)}@${domain}` });
      const id = await makeSchedule(owner, debtor.id, { timeZone: "UTC" });
      await setSchedule(id, { next_run_at: Date.now() - MINUTE });
      ready.push({ id, email: debtor.email, job: queuedJob(await fireSchedule(env, id, Date.now())) });
    }
    // Before the kill: the alarms had queued all 100. The consumer sent the first 40 as one batch,
    // which the provider took and never answered; the process died before anything was recorded
    // (its retry message, on the in-memory queue, is lost with the other 60 jobs).
    await programResend(ready[0]!.email, [{ fault: "accept-hang" }]);
    const lost = await consumeJobs(ready.slice(0, 40).map((r) => r.job));
    expect(lost.requeued).toHaveLength(1);
    const stuckKey = await batchKeyOf(ready.slice(0, 40).map((r) => r.job.occurrenceKey));
    // As a kill leaves it once its lease has run out (BATCH_LEASE_MS): held by no one, its e-mails 'sending'.
    await env.DB.prepare("UPDATE mail_batches SET lease_until = ?, next_attempt_at = ? WHERE key = ?")
      .bind(Date.now() - 1, Date.now(), stuckKey)
      .run();

    // After the restart, the watchdog's next run (the cron, every 5 minutes) finds both: the batch
    // whose lease ran out, and the 60 reminders 'sending' in no batch. The real queue takes them.
    const recovered = await runMailRecovery(env, Date.now() + STRANDED_AFTER_MS + 60_000);
    expect(recovered.batches).toBeGreaterThanOrEqual(1);
    expect(recovered.reminders).toBeGreaterThanOrEqual(60);

    const allSent = async () => {
      const marks = ready.map(() => "?").join(", ");
      const row = await env.DB.prepare(
        `SELECT count(*) AS n FROM deliveries WHERE status = 'sent' AND schedule_id IN (${marks})`,
      )
        .bind(...ready.map((r) => r.id))
        .first<{ n: number }>();
      return row?.n === 100;
    };
    expect(await eventually(allSent, 45_000)).toBe(true);
    for (const r of ready) expect(await resendDelivered(r.email), r.email).toHaveLength(1);
    // The stuck batch was sent again identically: its 40 e-mails went out in its first request only.
    const first = await resendRequests(ready[0]!.email);
    expect(first.map((r) => r.idempotencyKey)).toEqual([stuckKey, stuckKey]);
  }, 90_000);

  it("a stranded reminder whose debtor paid meanwhile is given up with that reason, not as a deleted schedule", async () => {
    const owner = (await makeUser()).id;
    const debtor = await makeDebtor(owner, { email: `stranded-${crypto.randomUUID().slice(0, 8)}@example.com` });
    const id = await makeSchedule(owner, debtor.id, { timeZone: "UTC" });
    await setSchedule(id, { next_run_at: Date.now() - MINUTE });
    // Claimed and queued by its alarm; the queue lost the job (a kill), then the debtor paid in full
    // and the schedule completed.
    queuedJob(await fireSchedule(env, id, Date.now()));
    await env.DB.prepare("UPDATE debtors SET paid_cents = debt_cents, status = 'paid' WHERE id = ?")
      .bind(debtor.id)
      .run();
    await env.DB.prepare("UPDATE schedules SET state = 'COMPLETED', stopped_reason = 'paid' WHERE id = ?")
      .bind(id)
      .run();
    const recovered = await runMailRecovery(env, Date.now() + STRANDED_AFTER_MS + 60_000);
    expect(recovered.abandoned).toBeGreaterThanOrEqual(1);
    expect(await deliveriesOf(id)).toMatchObject([
      { status: "skipped", error: "Not sent: the debt was paid in full before this reminder went out." },
    ]);
    expect(await resendRequests(debtor.email)).toEqual([]);
  });
});
