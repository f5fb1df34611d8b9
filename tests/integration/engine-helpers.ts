import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { expect } from "vitest";
import { getDb } from "~/db/client.server";
import { Pacer } from "~/domain/pacer";
import { type FireOutcome, fireSchedule, type MailJob, QUEUED_RECHECK_MS } from "~/reminders/engine.server";
import { MAIL_HANDOFF_NAME } from "~/reminders/handoff.server";
import { consumeMail, type MailQueueMessage } from "~/reminders/mail-queue.server";
import { setSchedule } from "./fixtures";

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const FROM_ADDRESS = "reminders@dunly.test";

/** An occurrence that is due: whole seconds, a minute ago. */
export const dueNow = () => Math.floor((Date.now() - MINUTE) / 1000) * 1000;

// The fake Resend server's control API (tests/support/fake-resend.ts) -----------------------------

export interface ResendAttempt {
  idempotencyKey: string | null;
  authorization: string | null;
  body: Record<string, unknown>;
  status: number;
  at: number;
}

const fakeUrl = () => {
  const url = env.FAKE_RESEND_URL;
  if (!url) throw new Error("FAKE_RESEND_URL is not bound");
  return url;
};

/** The next answers of the fake provider for mail to `to` (then it answers 200 again). */
export async function programResend(
  to: string,
  statuses: (
    | number
    | { status: number; body?: unknown; headers?: Record<string, string> }
    // tests/support/fake-resend.ts: never answers / drops the connection / sends, then never answers.
    | { fault: "hang" | "reset" | "accept-hang" }
  )[],
) {
  const responses = statuses.map((s) => (typeof s === "number" ? { status: s } : s));
  const res = await fetch(`${fakeUrl()}/__program`, { method: "POST", body: JSON.stringify({ to, responses }) });
  expect(res.status).toBe(200);
}

/** Every request the provider got for `to`, answered or failed, oldest first. */
export async function resendRequests(to: string): Promise<ResendAttempt[]> {
  return (await fetch(`${fakeUrl()}/__requests?to=${encodeURIComponent(to.toLowerCase())}`)).json();
}

/** What the provider actually delivered to `to` (one per Idempotency-Key), with its ids. */
export async function resendDelivered(
  to: string,
): Promise<{ id: string; idempotencyKey: string | null; body: Record<string, unknown> }[]> {
  return (await fetch(`${fakeUrl()}/__delivered?to=${encodeURIComponent(to.toLowerCase())}`)).json();
}

// The schedule's Durable Object -------------------------------------------------------------------

export const stubOf = (scheduleId: string) => env.SCHEDULES.get(env.SCHEDULES.idFromName(scheduleId));

export const alarmAt = (scheduleId: string) => stubOf(scheduleId).alarmAt();

/** What the object keeps in storage (scheduleId, retry state). */
export async function doStorage(scheduleId: string) {
  return runInDurableObject(stubOf(scheduleId), async (_instance, state) =>
    Object.fromEntries(await state.storage.list()),
  );
}

/**
 * Makes the occurrence at `scheduledAt` due and fires it through the Durable Object's alarm: D1's
 * next_run_at is set to `scheduledAt` (in the past), the object is armed an hour ahead (so the
 * runtime cannot fire it by itself meanwhile) and the alarm is run now. A reminder it put on the
 * mail queue is then waited for (settled).
 */
export async function fireAt(scheduleId: string, scheduledAt: number) {
  await setSchedule(scheduleId, { next_run_at: scheduledAt });
  await stubOf(scheduleId).arm(scheduleId, Date.now() + HOUR, { force: true });
  const before = await occurrenceRow(scheduleId, scheduledAt);
  const ranFrom = Date.now();
  expect(await runDurableObjectAlarm(stubOf(scheduleId)), "the alarm ran").toBe(true);
  await settled(scheduleId, scheduledAt, { before, ranFrom, ranTo: Date.now() });
}

async function occurrenceRow(scheduleId: string, scheduledAt: number) {
  return env.DB.prepare("SELECT status, error FROM deliveries WHERE occurrence_key = ?")
    .bind(`${scheduleId}:${scheduledAt}`)
    .first<{ status: string; error: string | null }>();
}

/**
 * Waits until the mail handoff object has claimed and queued what the alarm handed it, and the mail
 * queue's consumer (the built Worker's queue handler, as in production) has handled the occurrence: its delivery is no longer 'sending' as it was queued, and the schedule's
 * alarm no longer the net the alarm left (QUEUED_RECHECK_MS ahead) once it was sent.
 */
export async function settled(
  scheduleId: string,
  scheduledAt: number,
  alarm: { before: { status: string; error: string | null } | null; ranFrom: number; ranTo: number },
  timeoutMs = 15_000,
) {
  const { before } = alarm;
  const deadline = Date.now() + timeoutMs;
  // The alarm fired through the handoff object: the job it stored goes on the queue (its own alarm).
  const handoff = env.MAIL_HANDOFF.get(env.MAIL_HANDOFF.idFromName(MAIL_HANDOFF_NAME));
  while ((await handoff.waiting()) > 0) {
    if (Date.now() > deadline) throw new Error(`the handoff did not claim ${scheduleId}:${scheduledAt} in time`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  const waiting = (row: { status: string; error: string | null } | null) =>
    row?.status === "sending" && (row.error === null || row.error === (before?.error ?? null));
  let row = await occurrenceRow(scheduleId, scheduledAt);
  while (waiting(row)) {
    if (Date.now() > deadline) throw new Error(`${scheduleId}:${scheduledAt} was not sent within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 25));
    row = await occurrenceRow(scheduleId, scheduledAt);
  }
  if (row?.status !== "sent" && row?.status !== "failed") return;
  // The consumer re-arms the object right after it records the send: wait for the net to go.
  const isNet = (at: number) => at >= alarm.ranFrom + QUEUED_RECHECK_MS && at <= alarm.ranTo + QUEUED_RECHECK_MS;
  for (;;) {
    const at = await alarmAt(scheduleId);
    if (at === null || !isNet(at) || Date.now() > deadline) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

// Wall-clock checks, independent of app/domain/schedule-time.ts -------------------------------------

export function wallClock(ms: number, timeZone: string) {
  const parts = new Intl.DateTimeFormat("en-US", {
    timeZone,
    hourCycle: "h23",
    weekday: "short",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
  }).formatToParts(ms);
  const get = (type: string) => parts.find((p) => p.type === type)!.value;
  return {
    hour: Number(get("hour")) % 24,
    minute: Number(get("minute")),
    second: Number(get("second")),
    weekday: get("weekday"),
    ms: ms % 1000,
  };
}

/** `at` is the first 10:00:00.000 in `timeZone` after `after` (zones without DST: a day is 24 h). */
export function expectNextTenOClock(at: number | null | undefined, after: number, timeZone: string) {
  expect(at, "a next run").toEqual(expect.any(Number));
  const w = wallClock(at!, timeZone);
  expect(
    { hour: w.hour, minute: w.minute, second: w.second, ms: w.ms },
    `${new Date(at!).toISOString()} in ${timeZone}`,
  ).toEqual({
    hour: 10,
    minute: 0,
    second: 0,
    ms: 0,
  });
  expect(at!).toBeGreaterThan(after);
  // The 10:00 a day earlier is not after `after`: no other 10:00 lies in between.
  expect(at! - 24 * HOUR).toBeLessThanOrEqual(after);
}

// The mail queue's consumer, called directly ------------------------------------------------------

/** A queue message as the consumer sees it, recording what the consumer did with it. */
export function jobMessage(body: MailQueueMessage) {
  const message = {
    body,
    acked: false,
    retried: null as null | { delaySeconds?: number },
    ack() {
      message.acked = true;
    },
    retry(options: { delaySeconds?: number } = {}) {
      message.retried = options;
    },
  };
  return message;
}

/**
 * Runs the mail queue's consumer on `jobs` (as from fireSchedule's 'queued' outcome) with a queue
 * that only records what is put back on it, so a retry's delay can be seen without waiting for it.
 */
export async function consumeJobs(jobs: MailQueueMessage[], options: { perSecond?: number; now?: number } = {}) {
  const requeued: { body: MailQueueMessage; delaySeconds: number | undefined }[] = [];
  const queue = {
    async send(body: MailQueueMessage, opts?: { delaySeconds?: number }) {
      requeued.push({ body, delaySeconds: opts?.delaySeconds });
    },
  };
  const messages = jobs.map(jobMessage);
  const scope = { env: { ...env, MAIL_QUEUE: queue as unknown as Queue } as Env, db: getDb(env.DB) };
  await consumeMail(scope, messages, {
    pacer: new Pacer(options.perSecond ?? 1000),
    now: options.now === undefined ? undefined : () => options.now as number,
  });
  return { messages, requeued };
}

/**
 * Fires the schedule at `now` (fireSchedule, as its alarm does) and, when that queued a reminder,
 * runs the mail queue's consumer on it at the same `now`: the outcome, with a queued one reported
 * as 'done' with the delivery's status ('sent', or 'sending' when it was put back for a retry).
 */
export async function fireAndSend(scheduleId: string, now: number): Promise<FireOutcome | SentOutcome> {
  const outcome = await fireSchedule(env, scheduleId, now);
  if (outcome.kind !== "queued") return outcome;
  const { requeued } = await consumeJobs([outcome.job], { now });
  const row = await env.DB.prepare("SELECT status FROM deliveries WHERE id = ?")
    .bind(outcome.job.deliveryId)
    .first<{ status: string }>();
  return { kind: "done", status: row?.status ?? "gone", job: outcome.job, requeued: requeued.map((r) => r.body) };
}

export interface SentOutcome {
  kind: "done";
  status: string;
  job: MailJob;
  requeued: MailQueueMessage[];
}

/** fireSchedule's job, which must have been queued. */
export function queuedJob(outcome: FireOutcome): MailJob {
  if (outcome.kind !== "queued") throw new Error(`expected a queued reminder, got ${JSON.stringify(outcome)}`);
  return outcome.job;
}
