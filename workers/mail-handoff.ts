import { DurableObject } from "cloudflare:workers";
import { chunk } from "~/db/chunk";
import type { MailJob } from "~/reminders/engine.server";

/** Storage keys of the jobs waiting to go on the queue: `job:{deliveryId}` (one per delivery). */
const JOB = "job:";
/** How long the first job of a burst waits for others to join it (one queue call carries up to 100). */
const GATHER_MS = 50;
/** Jobs put on the queue per alarm run: the rest go on the next run, straight after. */
const PER_RUN = 1_000;
/** Cloudflare Queues' sendBatch takes at most 100 messages. */
const PER_SEND = 100;

/**
 * Where a schedule's alarm hands the reminder it claimed (docs/decisions/029): one Durable Object
 * (named MAIL_HANDOFF_NAME) that keeps each job in its storage and puts them on the mail queue 100
 * a call (`sendBatch`) instead of one queue call per alarm. `hand()` answers once the job is
 * stored, so an alarm that got its answer never needs to queue it again; a job is deleted only
 * after its queue call succeeded. The watchdog still fires again any reminder left 'sending' in no
 * batch (docs/architecture.md §4, "Retries"), so nothing rests on this object alone either.
 */
export class MailHandoff extends DurableObject<Env> {
  /** An alarm is set and has not started (an evicted object forgets: it then sets one again). */
  private armed = false;
  /** alarm() is putting jobs on the queue: a job handed meanwhile is sent by its last look. */
  private running = false;

  /** Keeps `job` until it is on the queue; the first job of a burst sets the alarm that sends them. */
  async hand(job: MailJob): Promise<void> {
    await this.ctx.storage.put(`${JOB}${job.deliveryId}`, job);
    if (this.armed || this.running) return;
    this.armed = true;
    await this.ctx.storage.setAlarm(Date.now() + GATHER_MS);
  }

  /** How many jobs wait to go on the queue (tests and diagnostics). */
  async waiting(): Promise<number> {
    return (await this.ctx.storage.list({ prefix: JOB })).size;
  }

  async alarm(): Promise<void> {
    this.armed = false;
    this.running = true;
    try {
      const jobs = await this.ctx.storage.list<MailJob>({ prefix: JOB, limit: PER_RUN });
      for (const slice of chunk([...jobs], PER_SEND)) {
        // A failed call throws: the runtime retries the alarm, and the jobs are still stored.
        await this.env.MAIL_QUEUE.sendBatch(slice.map(([, body]) => ({ body })));
        await this.ctx.storage.delete(slice.map(([key]) => key));
      }
    } finally {
      this.running = false;
    }
    // More than one run's worth, or handed while this run sent: straight on.
    if (!this.armed && (await this.ctx.storage.list({ prefix: JOB, limit: 1 })).size > 0) {
      this.armed = true;
      await this.ctx.storage.setAlarm(Date.now());
    }
  }
}

/** The one handoff object's name. */
export const MAIL_HANDOFF_NAME = "mail-handoff";

/** Hands a claimed reminder's job to the handoff object; answers once it is stored there. */
export function handOff(env: Env, job: MailJob): Promise<void> {
  return env.MAIL_HANDOFF.get(env.MAIL_HANDOFF.idFromName(MAIL_HANDOFF_NAME)).hand(job);
}
