import { DurableObject } from "cloudflare:workers";
import { getDb } from "~/db/client.server";
import { SUPERSEDED_MESSAGE } from "~/domain/limits";
import { settleDeferred } from "~/models/delivery.server";
import { fireSchedule } from "./engine";

interface RetryState {
  occurrenceAt: number;
  attempt: number;
}

/** Storage key of the occurrence key a sending limit holds back (docs/architecture.md §4). */
const DEFERRED = "deferred";

/**
 * One Durable Object per schedule. D1 holds the truth (state, next run, step);
 * the object only owns the alarm that fires the schedule, the retry count of an occurrence and
 * the key of an occurrence a sending limit holds back.
 */
export class ReminderSchedule extends DurableObject<Env> {
  /** Sets the alarm for `at` (now if in the past). `force: false` keeps an alarm that is still pending. */
  async arm(scheduleId: string, at: number, options: { force?: boolean } = {}): Promise<number> {
    await this.ctx.storage.put("scheduleId", scheduleId);
    const current = await this.ctx.storage.getAlarm();
    // The watchdog must not cut a retry backoff short; a stale alarm (more than a minute late) is lost.
    if (!options.force && current !== null && current > Date.now() - 60_000) return current;
    if (options.force) {
      await this.ctx.storage.delete("retry");
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

  /** The pending alarm time, or null (tests and diagnostics). */
  async alarmAt(): Promise<number | null> {
    return this.ctx.storage.getAlarm();
  }

  async alarm(): Promise<void> {
    const scheduleId = await this.ctx.storage.get<string>("scheduleId");
    if (!scheduleId) return;
    const retry = await this.ctx.storage.get<RetryState>("retry");
    const deferred = await this.ctx.storage.get<string>(DEFERRED);
    const now = Date.now();
    const outcome = await fireSchedule(this.env, scheduleId, now, retry?.attempt ?? 1);
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
      case "retry":
        console.warn(
          `[dunly] schedule ${scheduleId}: retry ${outcome.attempt} at ${new Date(outcome.nextAlarmAt).toISOString()}: ${outcome.error}`,
        );
        await this.ctx.storage.put("retry", { occurrenceAt: now, attempt: outcome.attempt } satisfies RetryState);
        await this.ctx.storage.setAlarm(outcome.nextAlarmAt);
        return;
      case "deferred":
        console.warn(`[dunly] schedule ${scheduleId}: deferred: ${outcome.reason}`);
        await this.ctx.storage.delete("retry");
        await this.ctx.storage.put(DEFERRED, outcome.occurrenceKey);
        await this.ctx.storage.setAlarm(outcome.nextAlarmAt);
        return;
      case "done":
        await this.ctx.storage.delete("retry");
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
