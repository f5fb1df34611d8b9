import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { getDb } from "~/db/client.server";
import { batchKeyOf } from "~/domain/mail-batch";
import { Pacer } from "~/domain/pacer";
import { STRANDED_MESSAGE } from "~/reminders/deliveries.server";
import { fireSchedule, type MailJob } from "~/reminders/engine.server";
import { consumeMail } from "~/reminders/mail-queue.server";
import {
  consumeJobs,
  jobMessage,
  MINUTE,
  programResend,
  queuedJob,
  resendDelivered,
  resendRequests,
} from "./engine-helpers";
import { deliveriesOf, makeDebtor, makeSchedule, makeUser, scheduleRow, setSchedule } from "./fixtures";

/**
 * The mail queue's consumer sends through the provider's batch endpoint (docs/decisions/021): up
 * to 100 e-mails a request under a key derived from exactly what the request carries, each
 * e-mail's outcome on its own delivery.
 */

const fake = (path: string, body: unknown) =>
  fetch(`${env.FAKE_RESEND_URL}${path}`, { method: "POST", body: JSON.stringify(body) });

interface Ready {
  job: MailJob;
  id: string;
  email: string;
  debtorId: number;
  ownerId: string;
}

/** `count` reminders claimed and ready for the queue (fired as their alarms do), 25 per account. */
async function readyJobs(count: number): Promise<Ready[]> {
  const out: Ready[] = [];
  let owner = "";
  for (let i = 0; i < count; i++) {
    if (i % 25 === 0) {
      owner = (await makeUser()).id;
      await env.DB.prepare("UPDATE users SET plan = 'aggressive', subscription_status = 'active' WHERE id = ?")
        .bind(owner)
        .run();
    }
    const email = `b${i}-${crypto.randomUUID().slice(0, 8)}@batch.example`;
    const debtor = await makeDebtor(owner, { email });
    const id = await makeSchedule(owner, debtor.id, { timeZone: "UTC" });
    await setSchedule(id, { next_run_at: Date.now() - MINUTE });
    out.push({
      job: queuedJob(await fireSchedule(env, id, Date.now())),
      id,
      email,
      debtorId: debtor.id,
      ownerId: owner,
    });
  }
  return out;
}

/** Every request the provider got for these recipients, one entry per request (its key and size). */
async function requestsFor(ready: readonly Ready[]) {
  const byRequest = new Map<string, { key: string | null; status: number; at: number; recipients: string[] }>();
  for (const r of ready) {
    for (const a of await resendRequests(r.email)) {
      const id = `${a.idempotencyKey}@${a.at}:${a.status}`;
      const entry = byRequest.get(id) ?? { key: a.idempotencyKey, status: a.status, at: a.at, recipients: [] };
      entry.recipients.push(r.email.toLowerCase());
      byRequest.set(id, entry);
    }
  }
  return [...byRequest.values()].sort((a, b) => a.at - b.at);
}

/** Each recipient got exactly one e-mail, and each delivery is 'sent' with that e-mail's id. */
async function expectSentOnce(ready: readonly Ready[]) {
  for (const r of ready) {
    const delivered = await resendDelivered(r.email);
    expect(delivered, r.email).toHaveLength(1);
    expect(await deliveriesOf(r.id)).toMatchObject([{ status: "sent", error: null, provider_id: delivered[0]!.id }]);
  }
}

/** The debtor of `r` pays everything owed (as the ledger leaves a debtor paid in full). */
const payInFull = (r: Ready) =>
  env.DB.prepare("UPDATE debtors SET paid_cents = debt_cents, status = 'paid' WHERE id = ?").bind(r.debtorId).run();

/** The address of `r` opts out of its owner's reminders. */
const optOut = (r: Ready) =>
  env.DB.prepare("INSERT INTO opt_outs (owner_id, email, created_at) VALUES (?, ?, ?)")
    .bind(r.ownerId, r.email.toLowerCase(), Date.now())
    .run();

const keyOf = (ready: readonly Ready[]) => batchKeyOf(ready.map((r) => r.job.occurrenceKey));

describe("the batch path", () => {
  it("100 reminders go in one request under the key of what it carries, each recorded with its own id", async () => {
    const ready = await readyJobs(100);
    const { messages, requeued } = await consumeJobs(ready.map((r) => r.job));
    expect(messages.every((m) => m.acked)).toBe(true);
    expect(requeued).toEqual([]);

    const requests = await requestsFor(ready);
    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatchObject({ status: 200, key: await keyOf(ready) });
    expect(requests[0]!.recipients).toHaveLength(100);
    await expectSentOnce(ready);
    // Every schedule moved on, and the batch row is gone.
    for (const r of ready.slice(0, 10)) expect(await scheduleRow(r.id)).toMatchObject({ template_step: 1 });
    expect(
      await env.DB.prepare("SELECT count(*) AS n FROM mail_batches WHERE key = ?")
        .bind(await keyOf(ready))
        .first("n"),
    ).toBe(0);
  }, 120_000);

  it("130 reminders: a batch of the first 100 and a partial last batch of 30", async () => {
    const ready = await readyJobs(130);
    await consumeJobs(ready.map((r) => r.job));
    // The two requests go side by side (either may arrive first).
    const requests = (await requestsFor(ready)).sort((a, b) => b.recipients.length - a.recipients.length);
    expect(requests.map((r) => r.recipients.length)).toEqual([100, 30]);
    expect(requests.map((r) => r.key)).toEqual([await keyOf(ready.slice(0, 100)), await keyOf(ready.slice(100))]);
    await expectSentOnce(ready);
  }, 120_000);

  it("a batch refused as a whole (one invalid address) is split down to that one, which fails; the others are sent once", async () => {
    const ready = await readyJobs(10);
    const bad = ready[6]!;
    await fake("/__invalid", { to: bad.email });
    await consumeJobs(ready.map((r) => r.job));

    const requests = await requestsFor(ready);
    // 10 refused, then halves: 5 sent; 5 refused; 3 refused, 2 sent; 2 refused, 1 sent; 1 sent, the bad one alone refused.
    expect(requests.filter((r) => r.status === 422).map((r) => r.recipients.length)).toEqual([10, 5, 3, 2, 1]);
    expect(
      requests
        .filter((r) => r.status === 200)
        .map((r) => r.recipients.length)
        .sort(),
    ).toEqual([1, 1, 2, 5]);
    // Every request's key is derived from what it carried; no key carried two different batches.
    for (const r of requests) {
      const carried = ready.filter((x) => r.recipients.includes(x.email.toLowerCase()));
      expect(r.key).toBe(await keyOf(carried));
    }
    const [failed] = await deliveriesOf(bad.id);
    expect(failed).toMatchObject({ status: "failed" });
    expect(failed!.error).toMatch(/422.*Invalid `to` field/);
    expect(await resendDelivered(bad.email)).toEqual([]);
    await expectSentOnce(ready.filter((r) => r !== bad));
    // The failed one's schedule went on (the template was not delivered: tried again next time).
    expect(await scheduleRow(bad.id)).toMatchObject({ state: "ENABLED", template_step: 0 });
  }, 60_000);

  it("a 429 in the middle: that batch waits out the Retry-After and is sent again under its key; none is lost or sent twice", async () => {
    const ready = await readyJobs(130);
    // The second batch's first recipient: its request is answered 429 once.
    await programResend(ready[100]!.email, [{ status: 429, headers: { "retry-after": "1" } }]);
    const started = Date.now();
    await consumeJobs(ready.map((r) => r.job));
    // The two batches' requests go side by side; the second's is refused once, then sent again.
    const requests = await requestsFor(ready);
    expect(requests.map((r) => `${r.recipients.length} ${r.status}`).sort()).toEqual(["100 200", "30 200", "30 429"]);
    const [refused, again] = requests.filter((r) => r.recipients.length === 30);
    expect(refused!.status).toBe(429);
    expect(again!.key).toBe(refused!.key);
    expect(again!.at - refused!.at).toBeGreaterThanOrEqual(950);
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    await expectSentOnce(ready);
  }, 120_000);

  it("a debtor who paid and one who opted out while waiting on the queue are left out of the batch and get nothing", async () => {
    const ready = await readyJobs(4);
    const [paid, optedOut] = ready;
    await payInFull(paid!);
    await optOut(optedOut!);
    await consumeJobs(ready.map((r) => r.job));

    const requests = await requestsFor(ready);
    expect(requests).toHaveLength(1);
    expect(requests[0]!.key).toBe(await keyOf(ready.slice(2)));
    expect(await resendRequests(paid!.email)).toEqual([]);
    expect(await resendRequests(optedOut!.email)).toEqual([]);
    expect(await deliveriesOf(paid!.id)).toMatchObject([
      { status: "skipped", error: "Not sent: the debt was paid in full before this reminder went out." },
    ]);
    expect(await deliveriesOf(optedOut!.id)).toMatchObject([
      { status: "skipped", error: "Not sent: the debtor opted out of reminders before this one went out." },
    ]);
    expect(await scheduleRow(paid!.id)).toMatchObject({ state: "COMPLETED", stopped_reason: "paid" });
    expect(await scheduleRow(optedOut!.id)).toMatchObject({ state: "COMPLETED", stopped_reason: "opted_out" });
    await expectSentOnce(ready.slice(2));
  });
});

/**
 * The consumer builds each message just before its batch is written (docs/decisions/024): the alarm
 * queues only the claim, so what the e-mail says is the debtor as they are when it is sent.
 */
describe("messages built by the consumer", () => {
  it("the job on the queue carries no message, and the e-mail shows the debtor and statement as they are when it is sent", async () => {
    const [r] = await readyJobs(1);
    expect(r!.job).not.toHaveProperty("message");
    expect(JSON.stringify(r!.job).length).toBeLessThan(400);
    // While the job waited: the debtor was renamed and an invoice was added.
    await env.DB.prepare("UPDATE debtors SET full_name = 'Renamed Debtor', debt_cents = debt_cents + 5000 WHERE id = ?")
      .bind(r!.debtorId)
      .run();
    await env.DB.prepare(
      "INSERT INTO invoices (owner_id, debtor_id, number, amount_cents, currency, issued_on, due_on, created_at, updated_at) VALUES (?, ?, 'INV-LATE-7', 5000, 'USD', '2026-01-20', '2026-01-20', ?, ?)",
    )
      .bind(r!.ownerId, r!.debtorId, Date.now(), Date.now())
      .run();

    await consumeJobs([r!.job]);

    await expectSentOnce([r!]);
    const [delivered] = await resendDelivered(r!.email);
    const text = String(delivered!.body.text);
    expect(text).toContain("Renamed Debtor");
    expect(text).toContain("INV-LATE-7");
    // The signed opt-out link and its one-click headers, made here.
    expect(delivered!.body.headers).toMatchObject({ "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" });
    expect(String((delivered!.body.headers as Record<string, string>)["List-Unsubscribe"])).toMatch(
      /^<https?:\/\/.+\/u\/.+>$/,
    );
  });

  it("a reminder whose opt-out link cannot be made (no signing secret) fails with the reason, is never sent, and its schedule goes on", async () => {
    const [bad, good] = await readyJobs(2);
    const before = await scheduleRow(bad!.id);
    const requeued: unknown[] = [];
    const queue = { send: async (body: unknown) => void requeued.push(body) };
    await consumeMail(
      { env: { ...env, OPT_OUT_SECRET: "", MAIL_QUEUE: queue as unknown as Queue } as Env, db: getDb(env.DB) },
      [jobMessage(bad!.job)],
      { pacer: new Pacer(1000) },
    );
    expect(await resendRequests(bad!.email)).toEqual([]);
    expect(await deliveriesOf(bad!.id)).toMatchObject([
      { status: "failed", error: expect.stringMatching(/^Not sent: /) },
    ]);
    const after = await scheduleRow(bad!.id);
    expect(after).toMatchObject({ state: "ENABLED" });
    expect(Number(after!.next_run_at)).toBeGreaterThan(Number(before!.next_run_at));
    expect(requeued).toEqual([]);
    // The other reminder, consumed with the secret, is unaffected.
    await consumeJobs([good!.job]);
    await expectSentOnce([good!]);
  });

  it("a reminder whose schedule was deleted while it waited is not sent, and says so", async () => {
    const [gone, kept] = await readyJobs(2);
    await env.DB.prepare("DELETE FROM schedules WHERE id = ?").bind(gone!.id).run();
    await consumeJobs([gone!.job, kept!.job]);
    expect(await resendRequests(gone!.email)).toEqual([]);
    expect(await deliveriesOf(gone!.id)).toMatchObject([{ status: "skipped", error: STRANDED_MESSAGE }]);
    await expectSentOnce([kept!]);
  });

  it("a job queued with its message (before messages were built here) is built again and sent once", async () => {
    const [r] = await readyJobs(1);
    const stale = { ...r!.job, message: { to: "someone-else@example.com", subject: "old" } } as MailJob;
    await consumeJobs([stale, r!.job]);
    await expectSentOnce([r!]);
    expect(await resendRequests("someone-else@example.com")).toEqual([]);
  });
});

/**
 * Every attempt of a batch, the first and each retry, looks again at each e-mail's debtor,
 * schedule and account (docs/decisions/045): what must not go is settled 'skipped' with its reason
 * and never sent, and what still may go is never sent twice.
 */
describe("every attempt re-checks", () => {
  /** Marks what happens to the debtors of ready[1..5] while their batch waits for its retry. */
  async function stopSome(ready: readonly Ready[]) {
    const [, paid, optedOut, paused, bouncing] = ready;
    await payInFull(paid!);
    await optOut(optedOut!);
    await env.DB.prepare("UPDATE schedules SET state = 'DISABLED' WHERE id = ?").bind(paused!.id).run();
    await env.DB.prepare("UPDATE debtors SET status = 'bouncing' WHERE id = ?").bind(bouncing!.debtorId).run();
    return { paid: paid!, optedOut: optedOut!, paused: paused!, bouncing: bouncing! };
  }

  /** The batch's retry, run as the queue hands it over once its wait is over. */
  async function retry(requeued: { body: unknown }[], after = 10 * 60_000) {
    expect(requeued).toHaveLength(1);
    return consumeJobs([requeued[0]!.body as { batchKey: string }], { now: Date.now() + after });
  }

  it("a debtor who pays, opts out, bounces or is paused, and an account deleted, while the batch waits for its retry get nothing; the rest go once", async () => {
    // 25 reminders of one account and 3 of another, in one batch whose first request fails (500).
    const ready = await readyJobs(28);
    await programResend(ready[0]!.email, [500]);
    const first = await consumeJobs(ready.map((r) => r.job));
    expect(await deliveriesOf(ready[0]!.id)).toMatchObject([{ status: "sending" }]);

    const stopped = await stopSome(ready);
    const deleted = ready.slice(25);
    await env.DB.prepare("DELETE FROM users WHERE id = ?").bind(deleted[0]!.ownerId).run();
    const again = await retry(first.requeued);
    expect(again.requeued).toEqual([]);

    const requests = await requestsFor(ready);
    expect(requests.map((r) => [r.status, r.recipients.length])).toEqual([
      [500, 28],
      [200, 21],
    ]);
    // The retry goes under the batch's own key: had the first request been sent after all, the
    // provider would have answered 409 and sent nothing.
    expect(requests[1]!.key).toBe(requests[0]!.key);
    const expected = {
      paid: "Not sent: the debt was paid in full before this reminder went out.",
      optedOut: "Not sent: the debtor opted out of reminders before this one went out.",
      paused: "Not sent: its schedule was paused or held before this reminder went out.",
      bouncing: "Not sent: the debtor's address bounced before this reminder went out.",
    } as const;
    for (const [name, error] of Object.entries(expected)) {
      const r = stopped[name as keyof typeof expected];
      expect(await resendDelivered(r.email), name).toEqual([]);
      expect(await deliveriesOf(r.id), name).toMatchObject([{ status: "skipped", error }]);
    }
    expect(await scheduleRow(stopped.paid.id)).toMatchObject({ state: "COMPLETED", stopped_reason: "paid" });
    for (const r of deleted) {
      expect(await resendDelivered(r.email)).toEqual([]);
      expect(await deliveriesOf(r.id)).toEqual([]);
    }
    const rest = ready.filter((_, i) => i === 0 || (i > 4 && i < 25));
    await expectSentOnce(rest);
  }, 60_000);

  it("a debtor who pays and one who opts out while the mail Worker makes the e-mails, after the re-check: the last look before the request holds the batch, they get nothing, the rest go once", async () => {
    const ready = await readyJobs(6);
    const [, paid, optedOut] = ready;
    // The mail Worker as it is, but the two stops land once the consumer has re-checked and
    // handed the batch over: while its e-mails are being made.
    const calls: number[] = [];
    const mailer = {
      sendReminderBatch: async (...args: Parameters<Env["MAILER"]["sendReminderBatch"]>) => {
        calls.push(args[0].length);
        if (calls.length === 1) {
          await payInFull(paid!);
          await optOut(optedOut!);
        }
        return env.MAILER.sendReminderBatch(...args);
      },
    };
    const queue = { send: async () => undefined };
    await consumeMail(
      { env: { ...env, MAILER: mailer, MAIL_QUEUE: queue } as unknown as Env, db: getDb(env.DB) },
      ready.map((r) => jobMessage(r.job)),
      { pacer: new Pacer(1000) },
    );
    // First the six, held back at the last look; then the four, under a new key (nothing had gone).
    expect(calls).toEqual([6, 4]);
    for (const r of [paid!, optedOut!]) {
      expect(await resendRequests(r.email)).toEqual([]);
      expect((await deliveriesOf(r.id))[0]).toMatchObject({ status: "skipped" });
    }
    expect((await deliveriesOf(paid!.id))[0]?.error).toBe(
      "Not sent: the debt was paid in full before this reminder went out.",
    );
    expect((await deliveriesOf(optedOut!.id))[0]?.error).toBe(
      "Not sent: the debtor opted out of reminders before this one went out.",
    );
    await expectSentOnce(ready.filter((r) => r !== paid && r !== optedOut));
  });

  it("a first request sent but never answered, then a payment: the retry is answered 409 invalid_idempotent_request, and every e-mail is recorded sent once, none failed", async () => {
    const ready = await readyJobs(6);
    await programResend(ready[0]!.email, [{ fault: "accept-hang" }]);
    const first = await consumeJobs(ready.map((r) => r.job));
    // The provider sent all six; Dunly got no answer.
    for (const r of ready) expect(await resendDelivered(r.email)).toHaveLength(1);
    await stopSome(ready);

    await retry(first.requeued);
    const requests = await requestsFor(ready);
    expect(requests.map((r) => [r.status, r.recipients.length])).toEqual([
      [0, 6],
      [409, 2],
    ]);
    for (const r of ready) {
      // Sent with the first request, before anything was stopped: sent, once, never failed or skipped.
      expect(await resendDelivered(r.email)).toHaveLength(1);
      expect(await deliveriesOf(r.id)).toMatchObject([{ status: "sent", error: null, provider_id: null }]);
    }
    expect(
      await env.DB.prepare("SELECT count(*) AS n FROM mail_batches WHERE key = ?").bind(requests[0]!.key).first("n"),
    ).toBe(0);
  }, 60_000);

  it("when no attempt reached the provider (a long 429), a payment meanwhile leaves that debtor out and the rest go under a new key", async () => {
    const ready = await readyJobs(3);
    await programResend(ready[0]!.email, [{ status: 429, headers: { "retry-after": "120" } }]);
    const first = await consumeJobs(ready.map((r) => r.job));
    const [, paid] = ready;
    await payInFull(paid!);
    await retry(first.requeued, 3 * 60_000);
    const requests = await requestsFor(ready);
    expect(requests.map((r) => [r.status, r.recipients.length])).toEqual([
      [429, 3],
      [200, 2],
    ]);
    expect(requests[0]!.key).toBe(await keyOf(ready));
    expect(requests[1]!.key).toBe(await keyOf([ready[0]!, ready[2]!]));
    expect(await deliveriesOf(paid!.id)).toMatchObject([
      { status: "skipped", error: "Not sent: the debt was paid in full before this reminder went out." },
    ]);
    await expectSentOnce([ready[0]!, ready[2]!]);
  }, 60_000);
});
