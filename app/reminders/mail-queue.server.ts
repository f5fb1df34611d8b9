import type { Db } from "~/db/client.server";
import { halves, inBatchesWithin, retryDelaySeconds } from "~/domain/mail-batch";
import { advancePast } from "~/domain/occurrence";
import type { Pacer } from "~/domain/pacer";
import { INVALID_IDEMPOTENT, mail } from "~/mail/index.server";
import type { DataScope } from "~/platform/scope.server";
import { abandonOccurrence } from "~/reminders/deliveries.server";
import {
  createBatch,
  deleteBatch,
  type MailBatch,
  postponeBatch,
  renewLease,
  replaceBatch,
  takeBatch,
} from "~/reminders/mail-batch.server";
import { followAlarms } from "./alarms.server";
import { STRANDED_MESSAGE } from "./deliveries.server";
import { type MailJob, type ReadyJob, repeatsAfter, STOPPED_MESSAGES, stopReason } from "./engine.server";
import { queuedReminders, queuedStates } from "./firing.server";
import { completeSchedule, type Settlement, settleOccurrences } from "./occurrences.server";
import { buildReminder } from "./reminder-job.server";
import {
  holdForAllowance,
  sendCompanionText,
  sendTextJob,
  type TextItem,
  textBlockedNow,
  textReachNow,
  turnIntoEmail,
} from "./text-jobs.server";

/** A Retry-After up to this long is waited out here; a longer one leaves the batch to its retry. */
export const MAX_INLINE_WAIT_MS = 30_000;

/**
 * What the mail queue carries: a due reminder (from its alarm, or put back by the watchdog), or the
 * key of a batch whose retry is due (docs/decisions/021-batch-sending.md).
 */
export type MailQueueMessage = MailJob | { batchKey: string };

/** The part of a queue message the consumer uses (Cloudflare's Message, or a test's stand-in). */
export interface JobMessage {
  readonly body: MailQueueMessage;
  ack(): void;
  retry(options?: { delaySeconds?: number }): void;
}

export interface ConsumeOptions {
  pacer: Pacer;
  now?: () => number;
  /**
   * The queue handler's ctx.waitUntil: the call returns once every batch has its request slot,
   * while the requests and their settling go on (a slow or unanswered request then holds up no
   * other batch). Without it (tests), the call waits for everything.
   */
  waitUntil?: (promise: Promise<unknown>) => void;
}

/**
 * The mail queue's consumer (docs/decisions/021): sends the queued
 * reminders in batches of up to 100 through the provider's batch endpoint, one request per slot of
 * the pacer, and records how each e-mail ended. One D1 read per call (queuedReminders) says where
 * each job stands and what its message is built from: a delivery no longer 'sending', or already in
 * a batch, is dropped; one whose debtor paid or opted out meanwhile is given up and its schedule
 * completed; the others' messages are built here, from the debtor as they are now (docs/decisions/024),
 * and one that cannot be (no signing secret) fails with the reason. Each batch is written to D1 with its key, its
 * deliveries pinned to it, before its first request: from then on only that identical batch may
 * send them, so a request that was accepted but never answered is retried without a duplicate,
 * even after a restart (the watchdog puts back a batch whose consumer died). A queue message is
 * acknowledged once its job is in a batch; a failure to load or write retries it.
 */
export async function consumeMail(
  scope: DataScope,
  messages: readonly JobMessage[],
  options: ConsumeOptions,
): Promise<void> {
  const { pacer, now = Date.now, waitUntil } = options;
  // One database handle for the whole call, made by the entry and passed down with the bindings.
  const { env, db } = scope;

  // One copy per delivery: the alarm's net or the watchdog may have queued the same job twice.
  const unique = new Map<number, JobMessage & { body: MailJob }>();
  const retries = new Map<string, JobMessage>();
  for (const m of messages) {
    const body = m.body;
    if ("batchKey" in body) {
      if (retries.has(body.batchKey)) m.ack();
      else retries.set(body.batchKey, m);
    } else if (unique.has(body.deliveryId)) m.ack();
    else unique.set(body.deliveryId, m as JobMessage & { body: MailJob });
  }

  const batches: MailBatch[] = [];
  const texts: { m: JobMessage; item: TextItem; template: string }[] = [];
  const companions: { item: TextItem; blocked: string | null; template: string }[] = [];
  try {
    const states = await queuedReminders(db, [...unique.keys()]);
    // The texts' debtors as they are now (decisions/070): one read for the call.
    const textual = [...unique.values()].flatMap((m) => {
      const debtor = m.body.text ? states.get(m.body.deliveryId)?.parts?.debtor : undefined;
      return debtor ? [{ ownerId: debtor.ownerId, phone: debtor.phone }] : [];
    });
    const reach = textual.length > 0 ? await textReachNow(db, textual) : null;
    const ready: { m: JobMessage; job: ReadyJob }[] = [];
    const unbuildable: { job: MailJob; error: string }[] = [];
    for (const m of unique.values()) {
      // A job queued before messages were built here still carries one: it is built again, as now.
      const { message: _old, ...job } = m.body as MailJob & { message?: unknown };
      const state = states.get(job.deliveryId);
      // Gone (its owner was deleted), no longer waiting to be sent, or its batch's to send.
      if (state?.status !== "sending" || state.batchKey !== null) {
        m.ack();
        continue;
      }
      // The same check as every attempt of a batch (stopOf): paid, opted out, bouncing, paused or
      // held, or its schedule, debtor or account gone: skipped with why, never sent.
      const stop = stopOf(state);
      if (stop || !state.parts) {
        await skipAll(scope, [{ job, ...(stop ?? { reason: STRANDED_MESSAGE }) }], now);
        m.ack();
        continue;
      }
      // A step with a text: a text-only one goes as a text (or, when its debtor can no longer be
      // texted, as its e-mail); a step that sends both also sends its companion text.
      let mailJob: MailJob = job;
      if (job.text && reach) {
        const item: TextItem = { job: { ...job, text: job.text }, parts: state.parts };
        const blocked = textBlockedNow(env, reach, item);
        const template = reach.settingsOf(state.parts.debtor.ownerId).template;
        if (job.text.mode === "text" && !blocked) {
          texts.push({ m, item, template });
          continue;
        }
        if (job.text.mode === "text") await turnIntoEmail(db, job, state.parts.debtor.email);
        else companions.push({ item, blocked, template });
        const { text: _text, ...emailOnly } = job;
        mailJob = emailOnly;
      }
      const { cadence } = job.progress;
      const progress = cadence ? { ...job.progress, cadence: { ...cadence, invoices: state.invoices } } : job.progress;
      const at = now();
      try {
        const message = await buildReminder(env, db, state.parts, repeatsAfter(progress, job.scheduledAt, at), at);
        ready.push({ m, job: { ...mailJob, message } });
      } catch (error) {
        unbuildable.push({ job, error: `Not sent: ${error instanceof Error ? error.message : String(error)}` });
        m.ack();
      }
    }
    // No opt-out link can be made: never a reminder without one. It fails, and its schedule goes on.
    if (unbuildable.length > 0) {
      const errors = new Map(unbuildable.map((u) => [u.job.deliveryId, u.error]));
      await settleAll(
        scope,
        unbuildable.map((u) => u.job),
        (job) => ({ status: "failed", error: errors.get(job.deliveryId) ?? "Not sent" }),
        now,
      );
    }
    // At most 100 e-mails a batch, and no more bytes than its row may hold (messages with long
    // statements and their charges' bases are large: decisions/067).
    const encoder = new TextEncoder();
    for (const group of inBatchesWithin(ready, (r) => encoder.encode(JSON.stringify(r.job)).length)) {
      const batch = await createBatch(
        db,
        group.map((r) => r.job),
        now(),
      );
      if (batch) batches.push(batch);
      // In a batch (or already in another's): the batch row carries it from here.
      for (const r of group) r.m.ack();
    }
  } catch (error) {
    console.error("[dunly] mail queue: could not load or batch the jobs; the queue retries them", error);
    for (const m of unique.values()) m.retry({ delaySeconds: 30 });
    // Retried whole: no text of this call goes now.
    texts.length = 0;
    companions.length = 0;
  }

  for (const [key, m] of retries) {
    try {
      const batch = await takeBatch(db, key, now());
      // Null: settled already, not due, or another consumer holds it (it retries it itself).
      if (batch) batches.push(batch);
      m.ack();
    } catch (error) {
      console.error(`[dunly] mail queue: could not take batch ${key}; the queue retries it`, error);
      m.retry({ delaySeconds: 30 });
    }
  }

  // Texts go one by one, each in a slot of the same pacer, before the call returns (their queue
  // messages are acknowledged or retried here).
  for (const { m, item, template } of texts) {
    try {
      const outcome = await sendTextJob(scope, item, template, { pacer, now });
      if (outcome.kind === "retry") {
        m.retry({ delaySeconds: Math.min(43_200, Math.max(1, Math.ceil(outcome.delayMs / 1000))) });
        continue;
      }
      if (outcome.kind === "sent")
        await settleAll(scope, [item.job], () => ({ status: "sent", providerId: outcome.providerId }), now);
      else if (outcome.kind === "failed")
        await settleAll(scope, [item.job], () => ({ status: "failed", error: outcome.error }), now);
      else if (outcome.kind === "skipped") await skipAll(scope, [{ job: item.job, reason: outcome.reason }], now);
      else await holdForAllowance(db, item, now());
      m.ack();
    } catch (error) {
      console.error(
        `[dunly] mail queue: text ${item.job.occurrenceKey} failed to process; the queue retries it`,
        error,
      );
      m.retry({ delaySeconds: 30 });
    }
  }
  for (const { item, blocked, template } of companions) {
    await sendCompanionText(scope, item, blocked, template, { pacer, now });
  }

  const sending: Promise<void>[] = [];
  for (const batch of batches) {
    // Each request waits for its slot here, so the queue hands over no more than the pace can send.
    await pacer.take();
    sending.push(sendBatch(scope, batch, { pacer, now }));
  }
  const all = Promise.all(sending).then(() => undefined);
  if (waitUntil) waitUntil(all);
  else await all;
}

/** Last looks in a row that may say no before the batch waits HELD_BACK_WAIT_MS. */
const MAX_HELD_BACK = 3;
const HELD_BACK_WAIT_MS = 5_000;

/**
 * One batch's request and what follows from its answer. Never throws: a failure to record is
 * logged, and the batch, still leased, is put back by the watchdog once its lease runs out.
 */
async function sendBatch(
  scope: DataScope,
  batch: MailBatch,
  options: { pacer: Pacer; now: () => number },
): Promise<void> {
  const { pacer, now } = options;
  const { env, db } = scope;
  let heldBack = 0;
  try {
    for (;;) {
      // Every attempt, the first and each retry, first looks again at each e-mail's debtor,
      // schedule and account: what must not go now is never sent (recheckBatch).
      const check = await recheckBatch(scope, batch, now);
      if (check.kind === "settled") return;
      if (check.kind === "rebatched") {
        batch = check.batch;
        continue;
      }
      const { send, stopped } = check;
      const items = send.map((j) => ({ message: j.message, key: j.occurrenceKey }));
      // Making a hundred e-mails takes a while: the mail Worker looks once more, through
      // stillSendable, just before its request, and sends nothing if one was stopped meanwhile.
      const result = await mail.reminders(env, items, batch.key, () => stillSendable(scope, batch, send));
      if (!result.ok && result.lastLook === false) {
        // Nothing was sent. Look again, where the stopped are settled; a look that keeps saying no
        // with nothing stopped (it could not be answered) waits a little, without counting an attempt.
        heldBack += 1;
        if (heldBack < MAX_HELD_BACK) continue;
        await postponeBatch(db, batch.key, batch.attempts, now() + HELD_BACK_WAIT_MS, "Held back at the last look");
        await requeueBatch(env, batch.key, HELD_BACK_WAIT_MS);
        return;
      }
      if (result.ok) {
        // Sent now, so nothing had been sent under this key: the stopped ones never went.
        await settleAll(scope, send, (_, i) => ({ status: "sent", providerId: result.ids[i] ?? null }), now);
        await skipAll(scope, stopped, now);
        await deleteBatch(db, batch.key);
        return;
      }
      if (result.invalid) {
        // Nothing was sent: the e-mails that cannot be made fail, the others go as a new batch.
        const bad = new Map(result.invalid.map((x) => [x.index, x.error]));
        const failing = send.filter((_, i) => bad.has(i));
        const [rest] = await replaceBatch(db, batch, [send.filter((_, i) => !bad.has(i))], now());
        await settleAll(scope, failing, (j) => ({ status: "failed", error: bad.get(send.indexOf(j)) ?? "" }), now);
        await skipAll(scope, mayHaveGone(batch, stopped), now);
        if (!rest) return;
        batch = rest;
        await pacer.take();
        continue;
      }
      if (result.status === 409 && result.code === INVALID_IDEMPOTENT) {
        // The key already sent a batch, with the body it was first sent with: an earlier attempt
        // whose answer was lost went out whole, before anything was stopped. Nothing was sent now.
        await settleAll(scope, batch.jobs, () => ({ status: "sent", providerId: null }), now);
        await deleteBatch(db, batch.key);
        return;
      }
      if (result.status === 429) {
        // The provider's rate limit: every request waits; nothing was sent, and it is not a failure.
        const wait = result.retryAfterMs ?? 1000;
        pacer.pause(wait);
        if (wait > MAX_INLINE_WAIT_MS) {
          await postponeBatch(db, batch.key, batch.attempts, now() + wait, result.error);
          await requeueBatch(env, batch.key, wait);
          return;
        }
        await renewLease(db, batch.key, now());
        await pacer.take();
        continue;
      }
      if (result.split) {
        // Refused as a whole (strict validation): nothing was sent. Halves, down to one e-mail,
        // so that one bad message neither fails nor holds back the others.
        await skipAll(scope, mayHaveGone(batch, stopped), now);
        if (send.length === 1) {
          await settleAll(scope, send, () => ({ status: "failed", error: result.error }), now);
          await deleteBatch(db, batch.key);
          return;
        }
        const parts = await replaceBatch(db, batch, halves(send), now());
        await Promise.all(
          parts.map(async (part) => {
            await pacer.take();
            await sendBatch(scope, part, options);
          }),
        );
        return;
      }
      const attempts = batch.attempts + 1;
      const delay = result.retryable ? retryDelaySeconds(attempts) : null;
      if (delay !== null) {
        // No definite answer (timeout, reset, 5xx): the provider may have sent it. This batch goes
        // again under its key after a wait, re-checked first; its e-mails stay 'sending'.
        await postponeBatch(db, batch.key, attempts, now() + delay * 1000, result.error);
        await requeueBatch(env, batch.key, delay * 1000);
        return;
      }
      const error = result.retryable ? `Gave up after ${attempts} attempts. ${result.error}` : result.error;
      await settleAll(scope, send, () => ({ status: "failed", error }), now);
      await skipAll(scope, mayHaveGone(batch, stopped), now);
      await deleteBatch(db, batch.key);
      return;
    }
  } catch (error) {
    console.error(`[dunly] mail queue: batch ${batch.key} failed to process; the watchdog retries it`, error);
  }
}

type Recheck =
  /** Send `send` under the batch's key; `stopped` are settled skipped once that is known to be right. */
  | { kind: "send"; send: ReadyJob[]; stopped: Stopped[] }
  /** Nothing was ever sent under the old key: what may still go is a new batch under its own key. */
  | { kind: "rebatched"; batch: MailBatch }
  /** Nothing is left to send: every e-mail is settled and the batch is gone. */
  | { kind: "settled" };

interface Stopped {
  job: MailJob;
  reason: string;
  /** Paid or opted out: the schedule is finished too (as when the engine meets it). */
  stop?: "paid" | "opted_out";
}

/**
 * What may go in this attempt of `batch`: each e-mail is looked at again as things are now. It is
 * not sent when its delivery is no longer this batch's to send, its account, schedule or debtor is
 * gone, its debtor paid, opted out or bounces, or its schedule was paused or held.
 *
 * When all may go, the batch goes as it is: the identical body under its key. When some may not:
 * - No attempt of it can have reached the provider (`attempts` counts only attempts left without
 *   an answer): the stopped ones are skipped and the rest become a new batch under its own key.
 * - An earlier attempt may have been sent and its answer lost. The rest are sent under the old key.
 *   Resend sends them if that key never sent anything; if it did, it answers 409
 *   invalid_idempotent_request and sends nothing: that earlier attempt sent the whole batch, before
 *   anything was stopped. Either way no one gets a reminder twice, and no one gets one after they
 *   paid or opted out (docs/decisions/045). The stopped ones are skipped only once the rest went.
 */
async function recheckBatch(scope: DataScope, batch: MailBatch, now: () => number): Promise<Recheck> {
  const { db } = scope;
  const states = await queuedReminders(
    db,
    batch.jobs.map((j) => j.deliveryId),
  );
  const send: ReadyJob[] = [];
  const stopped: Stopped[] = [];
  const gone: ReadyJob[] = [];
  for (const job of batch.jobs) {
    const state = states.get(job.deliveryId);
    // Deleted (with its account) or settled by someone else: nothing of it is this batch's any more.
    if (state?.status !== "sending" || state.batchKey !== batch.key) gone.push(job);
    else {
      const stop = stopOf(state);
      if (stop) stopped.push({ job, ...stop });
      // A copied contact that opted out, bounced or was taken off since the message was built gets
      // no copy (decisions/057); the reminder to the debtor still goes.
      else send.push(withCopies(job, state.copies));
    }
  }
  if (stopped.length === 0 && gone.length === 0) return { kind: "send", send, stopped };
  if (send.length === 0 || batch.attempts === 0) {
    // Nothing left, or nothing ever reached the provider under this key: the stopped are skipped
    // (an e-mail of an ambiguous batch with nothing left to send says it may have gone earlier).
    const [rest] = await replaceBatch(db, batch, send.length > 0 ? [send] : [], now());
    await skipAll(scope, mayHaveGone(batch, stopped), now);
    return rest ? { kind: "rebatched", batch: rest } : { kind: "settled" };
  }
  return { kind: "send", send, stopped };
}

/**
 * Settles stranded reminders whose schedule stopped or moved on before the watchdog could send them
 * again: 'skipped', each with what stopped it (the debtor paid, opted out, bounced; the schedule
 * held), or, with nothing more specific, that its schedule was paused, changed or deleted.
 */
export async function abandonStranded(
  db: Db,
  stranded: readonly { id: number; occurrenceKey: string }[],
): Promise<void> {
  if (stranded.length === 0) return;
  const states = await queuedReminders(
    db,
    stranded.map((d) => d.id),
  );
  for (const d of stranded) {
    const state = states.get(d.id);
    await abandonOccurrence(db, d.occurrenceKey, (state && stopOf(state)?.reason) || STRANDED_MESSAGE);
  }
}

/** Whether every e-mail of `send` may still go: none was stopped or taken from the batch since the re-check. */
async function stillSendable(scope: DataScope, batch: MailBatch, send: readonly ReadyJob[]): Promise<boolean> {
  const states = await queuedReminders(
    scope.db,
    send.map((j) => j.deliveryId),
  );
  return send.every((job) => {
    const state = states.get(job.deliveryId);
    return (
      state?.status === "sending" &&
      state.batchKey === batch.key &&
      stopOf(state) === null &&
      withCopies(job, state.copies) === job
    );
  });
}

/**
 * The job with only the copies that may still go (`allowed`, as the re-check read them): the same
 * job when none was taken off. Copies are only ever taken off, never added, so an attempt's body
 * changes only where an address must not get it (under the batch's key, a changed body after a
 * lost answer is the provider's 409: that earlier attempt went, before the change).
 */
function withCopies(job: ReadyJob, allowed: readonly string[]): ReadyJob {
  const cc = job.message.cc;
  if (!cc || cc.length === 0) return job;
  const keep = cc.filter((address) => allowed.includes(address));
  if (keep.length === cc.length) return job;
  const { cc: _dropped, ...message } = job.message;
  return { ...job, message: keep.length > 0 ? { ...message, cc: keep } : message };
}

type QueuedReminder = Awaited<ReturnType<typeof queuedReminders>> extends Map<number, infer S> ? S : never;

/** Why an e-mail of a batch must not go now, or null. */
function stopOf(state: QueuedReminder): Omit<Stopped, "job"> | null {
  if (!state.debtor) return { reason: STRANDED_MESSAGE };
  // The debtor's own reason first (paid, opted out, bouncing), then the schedule's, so the skip
  // says what really stopped it (a paid debtor's completed schedule is not "deleted").
  const stop = stopReason(state.debtor, state.optedOut);
  if (stop) return { reason: STOPPED_MESSAGES[stop], stop };
  if (state.debtor.status === "bouncing") return { reason: STOPPED_MESSAGES.bounced };
  // Its schedule or account gone; then one paused or held.
  if (!state.parts) return { reason: STRANDED_MESSAGE };
  if (!state.scheduleEnabled) return { reason: STOPPED_MESSAGES.held };
  return null;
}

/**
 * The stopped e-mails of a batch whose earlier attempt went unanswered, when nothing now tells
 * whether that attempt was sent: each says it may have gone then, before it was stopped.
 */
function mayHaveGone(batch: MailBatch, stopped: readonly Stopped[]): readonly Stopped[] {
  if (batch.attempts === 0) return stopped;
  const note =
    "An earlier attempt to send it got no answer from the provider, so it may have been sent then, before it was stopped.";
  return stopped.map((s) => ({ ...s, reason: `${s.reason} ${note}` }));
}

/** Settles stopped e-mails 'skipped' with their reasons; a paid or opted-out debtor's schedule completes (as the engine's stop). */
async function skipAll({ env, db }: DataScope, stopped: readonly Stopped[], now: () => number) {
  const disarm: string[] = [];
  for (const { job, reason, stop } of stopped) {
    await abandonOccurrence(db, job.occurrenceKey, reason);
    if (stop && (await completeSchedule(db, job.scheduleId, job.scheduledAt, now(), stop))) disarm.push(job.scheduleId);
  }
  if (disarm.length > 0) await followAlarms({ env, db }, { disarm });
}

/** The batch's retry on the queue (the watchdog puts it back too, should this message be lost). */
async function requeueBatch(env: Env, batchKey: string, delayMs: number) {
  const delaySeconds = Math.min(43_200, Math.max(1, Math.ceil(delayMs / 1000)));
  await env.MAIL_QUEUE.send({ batchKey } satisfies MailQueueMessage, { delaySeconds });
}

/**
 * Records how each e-mail ended and moves its schedule on (and its alarm with it): 50 e-mails a D1
 * batch (settleOccurrences). A due-date schedule's next step follows its debtor's open invoices as
 * they are now.
 */
async function settleAll<J extends MailJob>(
  scope: DataScope,
  jobs: readonly J[],
  settlementOf: (job: J, index: number) => Settlement,
  now: () => number,
) {
  if (jobs.length === 0) return;
  const states = await queuedStates(
    scope.db,
    jobs.map((j) => j.deliveryId),
  );
  const at = now();
  await settleOccurrences(
    scope,
    jobs.map((job, index) => {
      const { cadence } = job.progress;
      const invoices = states.get(job.deliveryId)?.invoices ?? [];
      const progress = cadence ? { ...job.progress, cadence: { ...cadence, invoices } } : job.progress;
      const settlement = settlementOf(job, index);
      return { occurrence: job, next: advancePast(progress, job.scheduledAt, settlement.status, at), settlement };
    }),
    at,
  );
}
