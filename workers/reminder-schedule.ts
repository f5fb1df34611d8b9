import { DurableObject } from "cloudflare:workers";
import { fireSchedule } from "./engine";

interface RetryState {
  occurrenceAt: number;
  attempt: number;
}

/**
 * One Durable Object per schedule. D1 holds the truth (state, next run, step);
 * the object only owns the alarm that fires the schedule and the retry count of an occurrence.
 */
export class ReminderSchedule extends DurableObject<Env> {
  /** Sets the alarm for `at` (now if in the past). `force: false` keeps an alarm that is still pending. */
  async arm(scheduleId: string, at: number, options: { force?: boolean } = {}): Promise<number> {
    await this.ctx.storage.put("scheduleId", scheduleId);
    const current = await this.ctx.storage.getAlarm();
    // The watchdog must not cut a retry backoff short; a stale alarm (more than a minute late) is lost.
    if (!options.force && current !== null && current > Date.now() - 60_000) return current;
    if (options.force) await this.ctx.storage.delete("retry");
    const when = Math.max(at, Date.now());
    await this.ctx.storage.setAlarm(when);
    return when;
  }

  /** Deletes the alarm and everything stored: nothing fires afterwards. */
  async disarm(): Promise<void> {
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
    const now = Date.now();
    const outcome = await fireSchedule(this.env, scheduleId, now, retry?.attempt ?? 1);
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
      case "done":
        await this.ctx.storage.delete("retry");
        if (outcome.nextAlarmAt === null) await this.disarm();
        else await this.ctx.storage.setAlarm(outcome.nextAlarmAt);
    }
  }
}
