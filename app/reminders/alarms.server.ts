import { and, eq, sql } from "drizzle-orm";
import { chunk, unique } from "~/db/chunk";
import { type Db, getDb } from "~/db/client.server";
import { alarmRepairs, schedules } from "~/db/schema";

// Alarms: the only calls to a schedule's Durable Object ---------------------------------------

/** The Durable Object of one schedule: named by the schedule id (made by the server). */
export function stub(env: Env, scheduleId: string) {
  return env.SCHEDULES.get(env.SCHEDULES.idFromName(scheduleId));
}

/** Durable Object calls in flight at once. */
const ALARMS_AT_ONCE = 50;

/** The alarms a committed change needs: schedules to arm (at their next run) and to disarm. */
export interface AlarmChanges {
  arm?: readonly { id: string; at: number }[];
  disarm?: readonly string[];
}

/** What following alarms needs: the Durable Objects, and D1 to record a failed call. */
export interface AlarmScope {
  env: Env;
  db: Db;
}

export interface AlarmCall {
  id: string;
  call: () => Promise<unknown>;
}

/**
 * Makes the Durable Objects follow a change already committed to D1. Never throws: a call that
 * fails is recorded for the watchdog (recordAlarmFailures) and the caller answers with the saved
 * result. Returns how many calls failed.
 */
export async function followAlarms(scope: AlarmScope, changes: AlarmChanges, now = Date.now()): Promise<number> {
  const { env } = scope;
  const calls: AlarmCall[] = [
    ...(changes.arm ?? []).map((a) => ({ id: a.id, call: () => stub(env, a.id).arm(a.id, a.at, { force: true }) })),
    ...unique(changes.disarm ?? []).map((id) => ({ id, call: () => stub(env, id).disarm() })),
  ];
  return runAlarmCalls(scope, calls, now);
}

/**
 * Calls to schedules' Durable Objects, 50 in flight; the failed ones are recorded for the watchdog
 * to repair (alarm_repairs). Returns how many failed.
 */
export async function runAlarmCalls(scope: AlarmScope, calls: readonly AlarmCall[], now: number): Promise<number> {
  const failed: { id: string; error: string }[] = [];
  for (const slice of chunk(calls, ALARMS_AT_ONCE)) {
    const results = await Promise.allSettled(slice.map((c) => c.call()));
    results.forEach((r, i) => {
      const id = slice[i]?.id;
      if (r.status === "rejected" && id) failed.push({ id, error: errorText(r.reason) });
    });
  }
  if (failed.length > 0) await recordAlarmFailures(scope.db, failed, now);
  return failed.length;
}

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error)).slice(0, 500);

/** Three values a row: 33 rows per INSERT stay under D1's 100 bound values. */
const REPAIRS_PER_INSERT = 33;

/**
 * Writes the failed calls to alarm_repairs (one row a schedule, the latest failure). If even that
 * fails, it is logged: an ENABLED schedule whose alarm was lost is still re-armed by the
 * watchdog's overdue sweep, and a stray alarm of a stopped or deleted one sends nothing.
 */
async function recordAlarmFailures(db: Db, failed: readonly { id: string; error: string }[], now: number) {
  console.error(`[dunly] ${failed.length} alarm call(s) failed; the watchdog repairs them`, failed.slice(0, 5));
  const [first, ...rest] = chunk(failed, REPAIRS_PER_INSERT).map((rows) =>
    db
      .insert(alarmRepairs)
      .values(rows.map((f) => ({ scheduleId: f.id, error: f.error, failedAt: now })))
      .onConflictDoUpdate({
        target: alarmRepairs.scheduleId,
        set: { error: sql`excluded.error`, failedAt: sql`excluded.failed_at` },
      }),
  );
  if (!first) return;
  try {
    await db.batch([first, ...rest]);
  } catch (error) {
    console.error("[dunly] could not record the failed alarm calls", error);
  }
}

/** Re-arms schedules whose alarm may be lost, keeping one still pending (the watchdog's overdue sweep). */
export async function rearmSchedules(env: Env, due: readonly { id: string; at: number }[]) {
  return Promise.allSettled(due.map((s) => stub(env, s.id).arm(s.id, s.at, { force: false })));
}

/** Repairs handled per watchdog run, and per query. */
const REPAIRS_PER_RUN = 500;

/**
 * The watchdog's repair of failed alarm calls: each recorded schedule's alarm is set from its row
 * as it is now (ENABLED: armed at its next run; paused, completed or gone: disarmed), and the
 * record goes once that worked (unless a newer failure replaced it meanwhile). Returns how many
 * were repaired and how many failed again (they stay for the next run).
 */
export async function repairAlarms(env: Env): Promise<{ repaired: number; failed: number }> {
  const db = getDb(env.DB);
  const rows = await db
    .select({
      scheduleId: alarmRepairs.scheduleId,
      failedAt: alarmRepairs.failedAt,
      state: schedules.state,
      nextRunAt: schedules.nextRunAt,
    })
    .from(alarmRepairs)
    .leftJoin(schedules, eq(schedules.id, alarmRepairs.scheduleId))
    .orderBy(alarmRepairs.failedAt)
    .limit(REPAIRS_PER_RUN);
  let repaired = 0;
  let failed = 0;
  for (const slice of chunk(rows, ALARMS_AT_ONCE)) {
    const results = await Promise.allSettled(
      slice.map(async (r) => {
        const s = stub(env, r.scheduleId);
        if (r.state === "ENABLED" && r.nextRunAt != null) await s.arm(r.scheduleId, r.nextRunAt, { force: true });
        else await s.disarm();
        await db
          .delete(alarmRepairs)
          .where(and(eq(alarmRepairs.scheduleId, r.scheduleId), eq(alarmRepairs.failedAt, r.failedAt)));
      }),
    );
    for (const r of results) {
      if (r.status === "fulfilled") repaired += 1;
      else {
        failed += 1;
        console.error("[dunly] watchdog could not repair an alarm", r.reason);
      }
    }
  }
  return { repaired, failed };
}
