import { getDb } from "~/db/client.server";
import { rearmSchedule } from "~/lib/alarms.server";
import { purgeExpired } from "~/models/housekeeping.server";
import { listOverdueSchedules } from "~/models/schedule.server";

/** A schedule this late has lost its alarm (a dropped alarm, a restart, a hot reload). */
const OVERDUE_AFTER_MS = 5 * 60_000;

/**
 * The cron-trigger watchdog: every enabled schedule more than five minutes overdue
 * gets its alarm back, so a schedule never silently stops. Returns the ids it re-armed.
 */
export async function runWatchdog(env: Env, now = Date.now()) {
  const overdue = await listOverdueSchedules(getDb(env.DB), now - OVERDUE_AFTER_MS);
  const results = await Promise.allSettled(overdue.map((s) => rearmSchedule(env, s.id, s.nextRunAt ?? now)));
  results.forEach((r, i) => {
    if (r.status === "rejected") console.error(`[dunly] watchdog could not re-arm ${overdue[i]?.id}`, r.reason);
  });
  if (overdue.length > 0) console.warn(`[dunly] watchdog re-armed ${overdue.length} overdue schedule(s)`);
  return overdue.map((s) => s.id);
}

/** Housekeeping on the same cron trigger: expired tokens, states, sessions and rate-limit events go. */
export async function runHousekeeping(env: Env, now = Date.now()) {
  const purged = await purgeExpired(getDb(env.DB), now);
  const total = Object.values(purged).reduce((sum, n) => sum + n, 0);
  if (total > 0) console.log(`[dunly] housekeeping purged ${JSON.stringify(purged)}`);
  return purged;
}
