import type { ClaimRequest, MailJob } from "./engine.server";

/**
 * The mail handoff object (workers/mail-handoff.ts, docs/decisions/029): where the schedules'
 * alarms hand the occurrences they fire, to be claimed 50 a D1 batch and queued 100 a call.
 */
export const MAIL_HANDOFF_NAME = "mail-handoff";

function handoff(env: Env) {
  return env.MAIL_HANDOFF.get(env.MAIL_HANDOFF.idFromName(MAIL_HANDOFF_NAME));
}

/** Hands a claimed reminder's job to the handoff object; answers once it is stored there. */
export function handOff(env: Env, job: MailJob): Promise<void> {
  return handoff(env).hand(job);
}

/** Hands an occurrence to claim to the handoff object; answers once it is stored there. */
export function handOffClaim(env: Env, claim: ClaimRequest): Promise<void> {
  return handoff(env).claim(claim);
}

/**
 * The watchdog's look at the handoff object: what it holds is taken up again should its alarm have
 * given up (the runtime retries a failing alarm a few times only). Returns how many wait there.
 */
export function wakeHandoff(env: Env): Promise<number> {
  return handoff(env).wake();
}
