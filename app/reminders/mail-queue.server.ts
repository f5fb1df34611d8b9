import { getDb } from "~/db/client.server";
import { advancePast } from "~/domain/occurrence";
import { abandonOccurrence, recordDeliveryError } from "~/models/delivery.server";
import { type MailJob, STOPPED_MESSAGES, stopReason } from "./engine.server";
import { queuedStates } from "./firing.server";
import { completeSchedule, followAlarms, type Settlement, settleOccurrence } from "./lifecycle.server";
import { sendReminder } from "./mail.server";
import type { Pacer } from "./pacer";

/** A send that fails for another reason than the rate limit is tried this many times before it is 'failed'. */
export const MAX_SEND_ATTEMPTS = 5;
/** Waits before retry 2, 3, 4 and 5 of one occurrence (the mail Worker already retried quickly). */
export const RETRY_BACKOFF_SECONDS = [60, 5 * 60, 15 * 60, 30 * 60] as const;
/** A Retry-After up to this long is waited out here; a longer one puts the job back with that delay. */
export const MAX_INLINE_WAIT_MS = 30_000;
/** One consumer call stops taking new sends after this long (a queue consumer may run 15 minutes). */
export const MAX_CALL_MS = 10 * 60_000;
/** Sends of one batch in flight at once (the pace still decides when each starts). */
const MAX_IN_FLIGHT = 8;

/** The part of a queue message the consumer uses (Cloudflare's Message, or a test's stand-in). */
export interface JobMessage {
  readonly body: MailJob;
  ack(): void;
  retry(options?: { delaySeconds?: number }): void;
}

export interface ConsumeOptions {
  pacer: Pacer;
  now?: () => number;
}

/**
 * The mail queue's consumer (docs/architecture.md §4): sends each queued reminder once, at the
 * pacer's rate, and records how it ended. A delivery no longer 'sending' (sent by an earlier copy,
 * failed, given up) is dropped; one whose debtor paid or opted out meanwhile is given up and its
 * schedule completed. A 429 pauses every send for its Retry-After and the job is tried again under
 * the same Idempotency-Key, never counted as a failure. Other retryable failures go back on the
 * queue with a growing delay, up to MAX_SEND_ATTEMPTS, and then the delivery is 'failed', visibly.
 * A job whose handling throws (D1 unavailable) is retried by the queue.
 */
export async function consumeMail(env: Env, messages: readonly JobMessage[], options: ConsumeOptions): Promise<void> {
  const { pacer, now = Date.now } = options;
  const started = now();
  const db = getDb(env.DB);

  // One copy per delivery: the alarm's safety net may have queued the same job twice.
  const unique = new Map<number, JobMessage>();
  for (const m of messages) {
    if (unique.has(m.body.deliveryId)) m.ack();
    else unique.set(m.body.deliveryId, m);
  }
  let states: Awaited<ReturnType<typeof queuedStates>>;
  try {
    states = await queuedStates(db, [...unique.keys()]);
  } catch (error) {
    console.error("[dunly] mail queue: could not load the batch; the queue retries it", error);
    for (const m of unique.values()) m.retry({ delaySeconds: 30 });
    return;
  }

  /** Puts the job back on the queue for later (the message itself is done). */
  const requeue = async (m: JobMessage, job: MailJob, delayMs: number) => {
    await env.MAIL_QUEUE.send(job, { delaySeconds: Math.min(43_200, Math.max(1, Math.ceil(delayMs / 1000))) });
    m.ack();
  };

  const settle = async (job: MailJob, settlement: Settlement, dueDates: string[]) => {
    const at = now();
    // A due-date schedule's next step follows the open invoices as they were just read, not as queued.
    const { cadence } = job.progress;
    const progress = cadence ? { ...job.progress, cadence: { ...cadence, dueDates } } : job.progress;
    const next = advancePast(progress, job.scheduledAt, settlement.status, at);
    // The schedule moves on and its alarm with it (else the queued net does it later).
    await settleOccurrence(env, job, next, settlement, at);
  };

  const handle = async (m: JobMessage) => {
    const job = m.body;
    const state = states.get(job.deliveryId);
    // Gone (its owner was deleted) or no longer waiting to be sent: nothing to do.
    if (state?.status !== "sending") return m.ack();
    const stop = state.debtor ? stopReason(state.debtor, state.optedOut) : null;
    if (stop) {
      await abandonOccurrence(db, job.occurrenceKey, STOPPED_MESSAGES[stop]);
      if (await completeSchedule(db, job.scheduleId, job.scheduledAt, now(), stop)) {
        await followAlarms(env, { disarm: [job.scheduleId] });
      }
      return m.ack();
    }
    for (;;) {
      // Out of time for this call: the job waits on the queue instead (same key, nothing lost).
      if (now() - started > MAX_CALL_MS) return requeue(m, job, Math.max(1000, pacer.pausedFor()));
      await pacer.take();
      const result = await sendReminder(env, job.message, job.occurrenceKey);
      if (result.ok) {
        await settle(job, { status: "sent", providerId: result.id }, state.dueDates);
        return m.ack();
      }
      if (result.status === 429) {
        // The provider's rate limit: everyone waits; this job is tried again, not counted as failed.
        const wait = retryAfterMs(result);
        pacer.pause(wait);
        if (wait > MAX_INLINE_WAIT_MS) return requeue(m, job, wait);
        continue;
      }
      const failures = job.failures + 1;
      if (result.retryable && failures < MAX_SEND_ATTEMPTS) {
        // Still 'sending': the error is visible in the report until a later attempt succeeds.
        await recordDeliveryError(db, job.deliveryId, result.error);
        const delay = RETRY_BACKOFF_SECONDS[failures - 1] ?? RETRY_BACKOFF_SECONDS[RETRY_BACKOFF_SECONDS.length - 1];
        return requeue(m, { ...job, failures }, delay * 1000);
      }
      const error = result.retryable ? `Gave up after ${failures} attempts. ${result.error}` : result.error;
      await settle(job, { status: "failed", error }, state.dueDates);
      return m.ack();
    }
  };

  const pending = [...unique.values()];
  const worker = async () => {
    for (let m = pending.shift(); m; m = pending.shift()) {
      try {
        await handle(m);
      } catch (error) {
        console.error(`[dunly] mail queue: delivery ${m.body.deliveryId} failed to process; retried`, error);
        m.retry({ delaySeconds: 30 });
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(MAX_IN_FLIGHT, pending.length) }, worker));
}

/** How long the provider asked us to wait (the mail Worker reads Retry-After); a second if it did not say. */
function retryAfterMs(result: { retryAfterMs?: unknown }): number {
  const ms = result.retryAfterMs;
  return typeof ms === "number" && Number.isFinite(ms) && ms >= 0 ? ms : 1000;
}
