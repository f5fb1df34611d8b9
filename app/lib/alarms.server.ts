/** The Durable Object of one schedule (docs/architecture.md §1): named by the schedule id. */
function stub(env: Env, scheduleId: string) {
  return env.SCHEDULES.get(env.SCHEDULES.idFromName(scheduleId));
}

/** Sets the schedule's alarm to `at` (a new or edited schedule, or "send now"). */
export async function armSchedule(env: Env, scheduleId: string, at: number) {
  return stub(env, scheduleId).arm(scheduleId, at, { force: true });
}

/** Re-arms a schedule whose alarm may have been lost, keeping one that is still pending (watchdog). */
export async function rearmSchedule(env: Env, scheduleId: string, at: number) {
  return stub(env, scheduleId).arm(scheduleId, at, { force: false });
}

/** Deletes the schedule's alarm: nothing fires afterwards. */
export async function disarmSchedule(env: Env, scheduleId: string) {
  await stub(env, scheduleId).disarm();
}
