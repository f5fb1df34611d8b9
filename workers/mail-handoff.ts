import { DurableObject } from "cloudflare:workers";
import { chunk } from "~/db/chunk";
import { getDb } from "~/db/client.server";
import { occurrenceKey } from "~/domain/occurrence";
import { claimOccurrences } from "~/models/delivery.server";
import { type ClaimRequest, claimArgs, type FireOutcome, type MailJob, settleClaim } from "~/reminders/engine.server";
import { type AlarmCall, runAlarmCalls } from "~/reminders/lifecycle.server";

/** Storage keys: the claims waiting to be made (`claim:{occurrence key}`), the jobs waiting for the queue (`job:{delivery id}`). */
const CLAIM = "claim:";
const JOB = "job:";
/** How long the first of a burst waits for others to join it (one D1 batch claims 50, one queue call carries 100). */
const GATHER_MS = 50;
/** Claims made, and jobs put on the queue, per alarm run: the rest go on the next run, straight after. */
const PER_RUN = 500;
/** Cloudflare Queues' sendBatch takes at most 100 messages. */
const PER_SEND = 100;
/** A Durable Object's storage puts or deletes at most 128 keys a call. */
const STORAGE_KEYS_PER_CALL = 128;

/**
 * Where the schedules' alarms hand the reminders they fire (docs/decisions/029): one Durable Object
 * (named MAIL_HANDOFF_NAME, app/reminders/handoff.server.ts) that keeps each hand-off in its storage, claims the occurrences 50 a D1
 * batch (claimOccurrences: the same upsert, in order, as an alarm's own claim) and puts the jobs on
 * the mail queue 100 a call, instead of a D1 claim and a queue call per alarm. `hand…()` answers
 * once it is stored, so an alarm that got its answer never needs to hand it again; a claim or job
 * is deleted only after what it led to is done. A claim held back ('deferred') or already handled
 * moves its schedule's alarm (the object's `heldBack`, or the lifecycle's arm), as the alarm would
 * have. The watchdog still fires again any reminder left 'sending' in no batch (docs/architecture.md
 * §4, "Retries"), so nothing rests on this object alone either.
 */
export class MailHandoff extends DurableObject<Env> {
  /** An alarm is set and has not started (an evicted object forgets: it then sets one again). */
  private armed = false;
  /** alarm() is at work: what is handed meanwhile is taken by its last look. */
  private running = false;

  /** Keeps `claim` until it is made; the first of a burst sets the alarm that makes them. */
  async claim(claim: ClaimRequest): Promise<void> {
    await this.ctx.storage.put(
      `${CLAIM}${occurrenceKey(claim.occurrence.scheduleId, claim.occurrence.scheduledAt)}`,
      claim,
    );
    await this.arm();
  }

  /** Keeps `job` (a reminder claimed elsewhere) until it is on the queue. */
  async hand(job: MailJob): Promise<void> {
    await this.ctx.storage.put(`${JOB}${job.deliveryId}`, job);
    await this.arm();
  }

  /**
   * The watchdog's look (every cron run): if claims or jobs wait and no alarm is set (a failing
   * alarm is retried a few times only, then given up), one is set now. Returns how many wait.
   */
  async wake(): Promise<number> {
    const waiting = await this.waiting();
    if (waiting > 0 && !this.running && (await this.ctx.storage.getAlarm()) === null) {
      this.armed = true;
      await this.ctx.storage.setAlarm(Date.now());
    }
    return waiting;
  }

  /** How many claims and jobs wait (tests and diagnostics). */
  async waiting(): Promise<number> {
    const [claims, jobs] = await Promise.all([
      this.ctx.storage.list({ prefix: CLAIM }),
      this.ctx.storage.list({ prefix: JOB }),
    ]);
    return claims.size + jobs.size;
  }

  private async arm() {
    if (this.armed || this.running) return;
    this.armed = true;
    await this.ctx.storage.setAlarm(Date.now() + GATHER_MS);
  }

  async alarm(): Promise<void> {
    this.armed = false;
    this.running = true;
    try {
      await this.makeClaims();
      await this.queueJobs();
    } finally {
      this.running = false;
    }
    // More than one run's worth, or handed while this run worked: straight on.
    const left = await Promise.all([
      this.ctx.storage.list({ prefix: CLAIM, limit: 1 }),
      this.ctx.storage.list({ prefix: JOB, limit: 1 }),
    ]);
    if (!this.armed && left.some((m) => m.size > 0)) {
      this.armed = true;
      await this.ctx.storage.setAlarm(Date.now());
    }
  }

  /**
   * The waiting claims, 50 a D1 batch. A 'sending' one becomes a stored job (queued below); one
   * held back or handled already moves its schedule's alarm. A failure throws before the claims are
   * deleted: the runtime retries the alarm, and a repeated claim gets the same row.
   */
  private async makeClaims() {
    const stored = await this.ctx.storage.list<ClaimRequest>({ prefix: CLAIM, limit: PER_RUN });
    if (stored.size === 0) return;
    const db = getDb(this.env.DB);
    const now = Date.now();
    const claims = [...stored.values()];
    const rows = await claimOccurrences(
      db,
      claims.map((c) => claimArgs(c, now)),
    );
    const jobs = new Map<string, MailJob>();
    const calls: AlarmCall[] = [];
    for (const [i, claim] of claims.entries()) {
      const row = rows[i];
      // Its owner was deleted meanwhile: nothing to do.
      if (!row) continue;
      const outcome: FireOutcome = await settleClaim(db, claim, row, now);
      const { scheduleId } = claim.occurrence;
      const object = () => this.env.SCHEDULES.get(this.env.SCHEDULES.idFromName(scheduleId));
      if (outcome.kind === "queued") jobs.set(`${JOB}${outcome.job.deliveryId}`, outcome.job);
      else if (outcome.kind === "deferred") {
        const { occurrenceKey: key, nextAlarmAt } = outcome;
        calls.push({ id: scheduleId, call: () => object().heldBack(key, nextAlarmAt, claim.alarmAt) });
      } else if (outcome.kind === "done") {
        const { nextAlarmAt } = outcome;
        calls.push({
          id: scheduleId,
          call: () =>
            nextAlarmAt === null ? object().disarm() : object().arm(scheduleId, nextAlarmAt, { force: true }),
        });
      }
    }
    // Stored as jobs before the claims go: a retried alarm finds them either way.
    for (const entries of chunk([...jobs], STORAGE_KEYS_PER_CALL)) {
      await this.ctx.storage.put(Object.fromEntries(entries));
    }
    await runAlarmCalls(this.env, calls, now);
    for (const keys of chunk([...stored.keys()], STORAGE_KEYS_PER_CALL)) await this.ctx.storage.delete(keys);
  }

  /** The waiting jobs on the mail queue, 100 a call; each deleted once its call succeeded. */
  private async queueJobs() {
    const jobs = await this.ctx.storage.list<MailJob>({ prefix: JOB, limit: PER_RUN });
    for (const slice of chunk([...jobs], PER_SEND)) {
      // A failed call throws: the runtime retries the alarm, and the jobs are still stored.
      await this.env.MAIL_QUEUE.sendBatch(slice.map(([, body]) => ({ body })));
      await this.ctx.storage.delete(slice.map(([key]) => key));
    }
  }
}
