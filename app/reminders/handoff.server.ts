import type { ClaimRequest, FireOutcome, MailJob } from "./engine.server";

/**
 * The mail handoff object (workers/mail-handoff.ts, docs/decisions/029 and 031): where the
 * schedules' alarms fire, 50 loaded and claimed a D1 batch, their jobs queued 100 a call.
 */
export const MAIL_HANDOFF_NAME = "mail-handoff";

/**
 * The handoff's answer to an alarm: its firing's outcome ('queued': the job is stored with the
 * handoff), or `claim` for a claim the alarm makes itself (held by the contact rules, or the
 * occurrence its object holds back).
 */
export type HandedFiring = FireOutcome | { kind: "claim"; claim: ClaimRequest };

function handoff(env: Env) {
  return env.MAIL_HANDOFF.get(env.MAIL_HANDOFF.idFromName(MAIL_HANDOFF_NAME));
}

/** Fires a schedule through the handoff object; answers once it is fired (a queued job is stored there). */
export function fireHandedOver(env: Env, scheduleId: string, deferred: string | null): Promise<HandedFiring> {
  return handoff(env).fire(scheduleId, deferred);
}

/** Hands a reminder the alarm claimed itself to the handoff object; answers once it is stored there. */
export function handOff(env: Env, job: MailJob): Promise<void> {
  return handoff(env).hand(job);
}

/**
 * The watchdog's look at the handoff object: what it holds is taken up again should its alarm have
 * given up (the runtime retries a failing alarm a few times only). Returns how many wait there.
 */
export function wakeHandoff(env: Env): Promise<number> {
  return handoff(env).wake();
}
