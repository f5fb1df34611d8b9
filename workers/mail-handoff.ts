import { DurableObject } from "cloudflare:workers";
import { chunk } from "~/db/chunk";
import { getDb } from "~/db/client.server";
import { occurrenceKey } from "~/domain/occurrence";
import type { HandedFiring } from "~/reminders/index.server";
import {
  type ClaimRequest,
  claimArgs,
  claimOccurrences,
  type MailJob,
  type PreparedFiring,
  prepareFirings,
  settleClaim,
} from "~/reminders/index.server";

/** Storage key of a job waiting for the queue (`job:{delivery id}`). */
const JOB = "job:";
/** How long the first of a burst waits for others to join it (one D1 batch loads 50, one claims 50, one queue call carries 100). */
const GATHER_MS = 50;
/** Schedules fired, and jobs put on the queue, per alarm run: the rest go on the next run, straight after. */
const PER_RUN = 500;
/** Cloudflare Queues' sendBatch takes at most 100 messages. */
const PER_SEND = 100;
/** A Durable Object's storage puts or deletes at most 128 keys a call. */
const STORAGE_KEYS_PER_CALL = 128;

/** A schedule's alarm waiting for its firing: what its object holds back, and the calls waiting for the answer. */
interface Waiting {
  deferred: string | null;
  callers: { resolve: (firing: HandedFiring) => void; reject: (error: unknown) => void }[];
}

/**
 * Where the schedules' alarms fire (docs/decisions/029 and 031): one Durable Object (named
 * MAIL_HANDOFF_NAME, app/reminders/handoff.server.ts). An alarm asks `fire(scheduleId)` and waits;
 * the handoff's own alarm, 50 ms after the first of a burst, loads the waiting schedules 50 a D1
 * batch (prepareFirings), claims their occurrences 50 a D1 batch (claimOccurrences: the same upsert,
 * in order, as an alarm's own claim), stores the 'sending' ones as jobs and only then answers each
 * alarm with its outcome (the alarm sets its object's alarm from it, as when it fired alone). The
 * jobs go on the mail queue 100 a call; one is deleted only once its call succeeded. Nothing waiting
 * for an answer is stored: should this object fail or restart, the alarms' calls fail and the
 * runtime retries them, and a repeated claim gets the same row. The watchdog still fires again any
 * reminder left 'sending' in no batch, so nothing rests on this
 * object alone either.
 */
export class MailHandoff extends DurableObject<Env> {
  /** An alarm is set and has not started (an evicted object forgets: it then sets one again). */
  private armed = false;
  /** alarm() is at work: what is handed meanwhile is taken by its last look. */
  private running = false;
  /** The alarms waiting for their firing, in the order they asked, by schedule id. */
  private waitingFires = new Map<string, Waiting>();

  /**
   * Fires the schedule with others (its alarm's work: prepareFiring, the claim, the queue) and
   * answers with the outcome once its job, if any, is stored here. `deferred` is the occurrence key
   * its object holds back: that one, like a claim the contact rules hold, is answered `claim` for the
   * alarm to make itself (claimHere), which keeps its bookkeeping in the object.
   */
  async fire(scheduleId: string, deferred: string | null): Promise<HandedFiring> {
    const answer = new Promise<HandedFiring>((resolve, reject) => {
      const waiting = this.waitingFires.get(scheduleId);
      if (waiting) waiting.callers.push({ resolve, reject });
      else this.waitingFires.set(scheduleId, { deferred, callers: [{ resolve, reject }] });
    });
    await this.arm();
    return answer;
  }

  /** Keeps `job` (a reminder an alarm claimed itself) until it is on the queue. */
  async hand(job: MailJob): Promise<void> {
    await this.ctx.storage.put(`${JOB}${job.deliveryId}`, job);
    await this.arm();
  }

  /**
   * The watchdog's look (every cron run): if jobs wait and no alarm is set (a failing alarm is
   * retried a few times only, then given up), one is set now. Returns how many wait.
   */
  async wake(): Promise<number> {
    const waiting = await this.waiting();
    if (waiting > 0 && !this.running && (await this.ctx.storage.getAlarm()) === null) {
      this.armed = true;
      await this.ctx.storage.setAlarm(Date.now());
    }
    return waiting;
  }

  /** How many jobs wait for the queue (tests and diagnostics). */
  async waiting(): Promise<number> {
    return (await this.ctx.storage.list({ prefix: JOB })).size;
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
      await this.fireWaiting();
      await this.queueJobs();
    } finally {
      this.running = false;
    }
    // More than one run's worth, or handed while this run worked: straight on.
    const jobsLeft = (await this.ctx.storage.list({ prefix: JOB, limit: 1 })).size > 0;
    if (!this.armed && (this.waitingFires.size > 0 || jobsLeft)) {
      this.armed = true;
      await this.ctx.storage.setAlarm(Date.now());
    }
  }

  /**
   * The waiting alarms' firings, up to PER_RUN of them. A failure answers each of them with it (their
   * alarms throw and the runtime retries them) and is not thrown here: the jobs stored so far still
   * go on the queue.
   */
  private async fireWaiting() {
    const taken = [...this.waitingFires].slice(0, PER_RUN);
    if (taken.length === 0) return;
    for (const [id] of taken) this.waitingFires.delete(id);
    try {
      const answers = await this.fireNow(taken.map(([id, w]) => ({ scheduleId: id, deferred: w.deferred })));
      for (const [id, waiting] of taken) {
        const answer = answers.get(id);
        for (const caller of waiting.callers) {
          if (answer) caller.resolve(answer);
          else caller.reject(new Error(`schedule ${id}: no firing`));
        }
      }
    } catch (error) {
      console.error(`[dunly] the mail handoff could not fire ${taken.length} schedule(s); their alarms retry`, error);
      for (const [, waiting] of taken) for (const caller of waiting.callers) caller.reject(error);
    }
  }

  /**
   * Fires the schedules: loaded and decided 50 a D1 batch, the claims made 50 a D1 batch in the
   * order the alarms asked (the limits count each claim before the next), the jobs stored before
   * anyone is answered.
   */
  private async fireNow(requests: readonly { scheduleId: string; deferred: string | null }[]) {
    const now = Date.now();
    const db = getDb(this.env.DB);
    const prepared = await prepareFirings(
      this.env,
      requests.map((r) => r.scheduleId),
      now,
    );
    const answers = new Map<string, HandedFiring>();
    const claims: ClaimRequest[] = [];
    for (const { scheduleId, deferred } of requests) {
      const firing: PreparedFiring | undefined = prepared.get(scheduleId);
      if (!firing) continue;
      if (firing.kind !== "claim" || firing.claim.hold !== null || keyOf(firing.claim) === deferred) {
        answers.set(scheduleId, firing);
      } else claims.push(firing.claim);
    }
    const rows = await claimOccurrences(
      db,
      claims.map((c) => claimArgs(c, now)),
    );
    const jobs: [string, MailJob][] = [];
    for (const [i, claim] of claims.entries()) {
      const row = rows[i];
      const { scheduleId } = claim.occurrence;
      // Its owner, debtor or schedule was deleted meanwhile: nothing to send, nothing to fire again.
      if (!row) {
        answers.set(scheduleId, { kind: "gone" });
        continue;
      }
      const outcome = await settleClaim(db, claim, row, now);
      if (outcome.kind === "queued") jobs.push([`${JOB}${outcome.job.deliveryId}`, outcome.job]);
      answers.set(scheduleId, outcome);
    }
    for (const entries of chunk(jobs, STORAGE_KEYS_PER_CALL)) {
      await this.ctx.storage.put(Object.fromEntries(entries));
    }
    return answers;
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

const keyOf = (claim: ClaimRequest) => occurrenceKey(claim.occurrence.scheduleId, claim.occurrence.scheduledAt);
