import { DurableObject } from "cloudflare:workers";
import { getDb } from "~/db/client.server";
import { SUPERSEDED_MESSAGE } from "~/domain/limits";
import { occurrenceKey } from "~/domain/occurrence";
import { settleDeferred } from "~/models/delivery.server";
import { claimHere, type FireOutcome, prepareFiring } from "~/reminders/engine.server";
import { handOff, handOffClaim } from "~/reminders/handoff.server";

/** Storage key of the occurrence key a sending limit holds back (docs/architecture.md §4). */
const DEFERRED = "deferred";

/**
 * One Durable Object per schedule. D1 holds the truth (state, next run, step); the object only owns
 * the alarm that fires the schedule and the key of an occurrence a sending limit holds back. A due
 * reminder goes on the mail queue (app/reminders/mail-queue.server.ts), whose consumer sends it, retries it and
 * moves the schedule on; the alarm is set to the run that follows once it is sent, at least an hour
 * ahead (engine queuedAlarmAt, docs/decisions/029).
 */
export class ReminderSchedule extends DurableObject<Env> {
  /** Sets the alarm for `at` (now if in the past). `force: false` keeps an alarm that is still pending. */
  async arm(scheduleId: string, at: number, options: { force?: boolean } = {}): Promise<number> {
    await this.ctx.storage.put("scheduleId", scheduleId);
    const current = await this.ctx.storage.getAlarm();
    // The watchdog keeps a pending alarm (a queued reminder's net); a stale one (a minute late) is lost.
    if (!options.force && current !== null && current > Date.now() - 60_000) return current;
    if (options.force) {
      // An edit or "send now" moved the schedule on: an occurrence it held back will not be sent.
      await this.settleDeferred(true);
    }
    const when = Math.max(at, Date.now());
    await this.ctx.storage.setAlarm(when);
    return when;
  }

  /** Deletes the alarm and everything stored: nothing fires afterwards, nor a held-back occurrence. */
  async disarm(): Promise<void> {
    await this.settleDeferred(false);
    await this.ctx.storage.deleteAlarm();
    await this.ctx.storage.deleteAll();
  }

  /**
   * The mail queue sent (or gave up on) the occurrence and moved the schedule on: the alarm goes to
   * its next run, replacing the net set when it was queued; null: the schedule is finished.
   */
  async sent(nextRunAt: number | null): Promise<void> {
    if (nextRunAt === null) return this.disarm();
    await this.ctx.storage.setAlarm(Math.max(nextRunAt, Date.now()));
  }

  /**
   * The handoff object's claim for this schedule came back 'deferred' (a sending limit holds it):
   * the occurrence is kept and the alarm comes back at `at` to try it again. `handedAt` is the
   * alarm set when it was handed; another one (an edit's, meanwhile) is kept when it is sooner.
   */
  async heldBack(occurrenceKey: string, at: number, handedAt: number): Promise<void> {
    await this.ctx.storage.put(DEFERRED, occurrenceKey);
    const current = await this.ctx.storage.getAlarm();
    const keep = current !== null && current !== handedAt && current < at;
    await this.ctx.storage.setAlarm(keep ? current : Math.max(at, Date.now()));
  }

  /** The pending alarm time, or null (tests and diagnostics). */
  async alarmAt(): Promise<number | null> {
    return this.ctx.storage.getAlarm();
  }

  async alarm(): Promise<void> {
    // One storage read for both keys.
    const stored = await this.ctx.storage.get<string>(["scheduleId", DEFERRED]);
    const scheduleId = stored.get("scheduleId");
    if (!scheduleId) return;
    const deferred = stored.get(DEFERRED);
    const now = Date.now();
    const prepared = await prepareFiring(this.env, scheduleId, now);
    let outcome: FireOutcome;
    if (prepared.kind !== "claim") outcome = prepared;
    else {
      const { claim } = prepared;
      const key = occurrenceKey(claim.occurrence.scheduleId, claim.occurrence.scheduledAt);
      if (claim.hold === null && key !== deferred) {
        // The usual case: the handoff object claims it with others in one D1 batch and queues it
        // (docs/decisions/029); the alarm goes where it belongs once the reminder is sent. A failed
        // handoff throws: the runtime retries the alarm. A held-back occurrence stays deferred.
        await handOffClaim(this.env, claim);
        if (deferred) await this.settleDeferred(true);
        await this.ctx.storage.setAlarm(claim.alarmAt);
        return;
      }
      // Held by the contact rules, or the held-back occurrence again: claimed here, as it was.
      outcome = await claimHere(getDb(this.env.DB), claim, now);
    }
    // This firing was about another occurrence: the held-back one is settled unless still current.
    if (deferred && !(outcome.kind === "deferred" && outcome.occurrenceKey === deferred)) {
      await this.settleDeferred(true);
    }
    switch (outcome.kind) {
      case "gone":
        await this.disarm();
        return;
      case "not-due":
        await this.ctx.storage.setAlarm(outcome.nextAlarmAt);
        return;
      case "queued":
        // To the queue through the handoff object, 100 a queue call (docs/decisions/029). A failed
        // handoff throws: the runtime retries the alarm, and the claim is the same row.
        await handOff(this.env, outcome.job);
        await this.ctx.storage.setAlarm(outcome.nextAlarmAt);
        return;
      case "deferred":
        console.warn(`[dunly] schedule ${scheduleId}: deferred: ${outcome.reason}`);
        await this.ctx.storage.put(DEFERRED, outcome.occurrenceKey);
        await this.ctx.storage.setAlarm(outcome.nextAlarmAt);
        return;
      case "done":
        if (outcome.nextAlarmAt === null) await this.disarm();
        else await this.ctx.storage.setAlarm(outcome.nextAlarmAt);
    }
  }

  /**
   * Marks the held-back occurrence 'failed' (visibly not sent) and forgets it: always, or with
   * `onlyIfSuperseded` only when D1 says its schedule moved on, stopped or went away. A failure
   * is logged, never thrown: the occurrence then stays 'deferred' and the next call tries again.
   */
  private async settleDeferred(onlyIfSuperseded: boolean) {
    const key = await this.ctx.storage.get<string>(DEFERRED);
    if (!key) return;
    try {
      const result = await settleDeferred(getDb(this.env.DB), key, SUPERSEDED_MESSAGE, { onlyIfSuperseded });
      // Kept while it is still the schedule's current occurrence, to be sent later.
      if (result !== "waiting") await this.ctx.storage.delete(DEFERRED);
    } catch (error) {
      console.error(`[dunly] could not settle the deferred occurrence ${key}`, error);
    }
  }
}
