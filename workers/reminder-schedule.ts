import { DurableObject } from "cloudflare:workers";
import { getDb } from "~/db/client.server";
import { SUPERSEDED_MESSAGE } from "~/domain/limits";
import { claimHere, type FireOutcome, fireHandedOver, handOff, settleDeferred } from "~/reminders/index.server";

/** Storage key of the occurrence key a sending limit holds back. */
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
    // Fired by the handoff object with the other alarms due now: loaded and claimed 50 a D1 batch,
    // the job stored there (docs/decisions/031). A failed call throws: the runtime retries the
    // alarm, and a repeated claim gets the same row.
    const handed = await fireHandedOver(this.env, scheduleId, deferred ?? null);
    let outcome: FireOutcome;
    if (handed.kind !== "claim") outcome = handed;
    else {
      // Held by the contact rules, or the held-back occurrence again: claimed here, as it was.
      outcome = await claimHere(getDb(this.env.DB), handed.claim, Date.now());
      // To the queue through the handoff object, 100 a queue call (docs/decisions/029).
      if (outcome.kind === "queued") await handOff(this.env, outcome.job);
    }
    // This firing was about another occurrence: the held-back one is settled unless still current.
    if (deferred && !(outcome.kind === "deferred" && outcome.occurrenceKey === deferred)) {
      await this.settleDeferred(true);
    }
    switch (outcome.kind) {
      case "gone":
        await this.disarm();
        return;
      case "deferred":
        console.warn(`[dunly] schedule ${scheduleId}: deferred: ${outcome.reason}`);
        await this.ctx.storage.put(DEFERRED, outcome.occurrenceKey);
        await this.alarmAtOrSooner(outcome.nextAlarmAt);
        return;
      case "done":
        if (outcome.nextAlarmAt === null) await this.disarm();
        else await this.alarmAtOrSooner(outcome.nextAlarmAt);
        return;
      default:
        await this.alarmAtOrSooner(outcome.nextAlarmAt);
    }
  }

  /**
   * Sets the alarm for `at`, unless an edit set a sooner one while this alarm waited for its firing
   * (inside the handler, getAlarm answers null until an alarm is set again): that one is kept, and
   * when it fires D1 says what is due.
   */
  private async alarmAtOrSooner(at: number) {
    const setMeanwhile = await this.ctx.storage.getAlarm();
    if (setMeanwhile !== null && setMeanwhile < at) return;
    await this.ctx.storage.setAlarm(at);
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
