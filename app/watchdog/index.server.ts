import { accountsBeingDeleted, queueAccountDeletion, recheckSendingDomains } from "~/account/index.server";
import { runAccountingSyncs, runWritebacks } from "~/accounting/index.server";
import { sendDailyDigests, sendStaleNotices } from "~/activity/index.server";
import { sendTrialNotices } from "~/billing/index.server";
import { chunk } from "~/db/chunk";
import { getDb } from "~/db/client.server";
import { expireAbandonedCheckouts, runDailyAccrual, watchPlans } from "~/ledger/index.server";
import { retryRecordedEmails } from "~/mail/index.server";
import { readConfig } from "~/platform/config.server";
import {
  abandonStranded,
  archiveOldDeliveries,
  dueBatchKeys,
  fireSchedule,
  followAlarms,
  listOverdueSchedules,
  type MailJob,
  rearmSchedules,
  recoverCompanionTexts,
  repairAlarms,
  strandedDeliveries,
  wakeHandoff,
} from "~/reminders/index.server";
import { endDuePromises, PROMISES_PER_PAGE } from "~/responses/index.server";
import { purgeExpired } from "~/watchdog/housekeeping.server";

/** A schedule this late has lost its alarm (a dropped alarm, a restart, a hot reload). */
const OVERDUE_AFTER_MS = 5 * 60_000;

/** Overdue schedules read per query, and re-armed at once (Durable Object calls in flight). */
const OVERDUE_PAGE = 500;
const REARM_CONCURRENCY = 50;

/**
 * The cron-trigger watchdog: first the alarms whose Durable Object call
 * failed after a committed change are set from their rows (repairAlarms); then every enabled
 * schedule more than five minutes overdue gets its alarm back, so a schedule never silently stops:
 * all of them in one run, a page of 500 at a time with 50 re-arms in flight; last, promises to pay
 * whose day has passed end (runPromiseEnds). Returns the ids it re-armed.
 */
export async function runWatchdog(env: Env, now = Date.now()) {
  const db = getDb(env.DB);
  const repairs = await repairAlarms(env);
  if (repairs.repaired > 0 || repairs.failed > 0) {
    console.warn(
      `[dunly] watchdog repaired ${repairs.repaired} alarm(s)${repairs.failed ? `, ${repairs.failed} failed` : ""}`,
    );
  }
  const rearmed: string[] = [];
  let failed = 0;
  let afterId = "";
  for (;;) {
    const page = await listOverdueSchedules(db, now - OVERDUE_AFTER_MS, OVERDUE_PAGE, afterId);
    for (let i = 0; i < page.length; i += REARM_CONCURRENCY) {
      const slice = page.slice(i, i + REARM_CONCURRENCY);
      const results = await rearmSchedules(
        env,
        slice.map((s) => ({ id: s.id, at: s.nextRunAt ?? now })),
      );
      results.forEach((r, j) => {
        const id = slice[j]?.id ?? "";
        if (r.status === "fulfilled") rearmed.push(id);
        else {
          failed += 1;
          console.error(`[dunly] watchdog could not re-arm ${id}`, r.reason);
        }
      });
    }
    if (page.length < OVERDUE_PAGE) break;
    afterId = page[page.length - 1]?.id ?? afterId;
  }
  if (rearmed.length > 0 || failed > 0) {
    console.warn(
      `[dunly] watchdog re-armed ${rearmed.length} overdue schedule(s)${failed ? `, ${failed} failed` : ""}`,
    );
  }
  // Then the mail the queue may have lost (a restart): a failure is logged and tried again next run.
  await runMailRecovery(env, now).catch((error) => console.error("[dunly] watchdog could not recover mail", error));
  // Then promises to pay whose day has passed; a failure there is logged and tried again next run.
  await runPromiseEnds(env, now).catch((error) => console.error("[dunly] watchdog could not end promises", error));
  // Then payment plans' instalments (decisions/066): reminders, nudges, misses, plans that end.
  await runPlanWatch(env, now).catch((error) => console.error("[dunly] watchdog could not watch plans", error));
  // Last, the user's notices their request left 'pending'.
  await runNotices(env, now);
  // Then the accounting tools' incremental sync (decisions/060): a few connections a run.
  await runAccountingSyncs(env, now).catch((error) =>
    console.error("[dunly] watchdog could not sync accounting", error),
  );
  // Then Dunly's payments due to be written back to the books (decisions/063), a bounded number a run.
  await runWritebacks(env, now).catch((error) =>
    console.error("[dunly] watchdog could not write payments back", error),
  );
  // Then the day's late-payment charges (decisions/065), a bounded number of invoices a run.
  await runLateCharges(env, now);
  return rearmed;
}

/**
 * The watchdog's step for late-payment charges (decisions/065): the invoices not yet accrued
 * through today, DAILY_ACCRUAL_PER_RUN a run, so a day's accrual of a large account spreads over
 * runs. A missing reference rate is logged for the operator. Never throws.
 */
export async function runLateCharges(env: Env, now = Date.now()) {
  try {
    const out = await runDailyAccrual(getDb(env.DB), now);
    if (out.missingRates.length > 0) {
      const first = out.missingRates[0];
      console.warn(
        `[dunly] late-payment charges lack ${out.missingRates.length} reference rate(s), e.g. ${first?.series} on ${first?.on}`,
      );
    }
    return out;
  } catch (error) {
    console.error("[dunly] watchdog could not accrue late-payment charges", error);
    return undefined;
  }
}

/** A reminder 'sending' this long without being in a batch has lost its queue message. */
export const STRANDED_AFTER_MS = 2 * 60_000;
/** Batches and stranded reminders put back on the queue per run (the rest wait five minutes). */
const RECOVER_PER_RUN = 2000;
/** Stranded schedules fired at once (each is two D1 round trips). */
const RECOVER_CONCURRENCY = 20;
/**
 * The watchdog's step for the mail queue (docs/decisions/021): what a killed process had queued
 * must not rest on the queue alone (a local queue lives in memory; the alarm is an hour or more
 * ahead). Batches whose retry is due and that no consumer holds (its lease ran out) go back on the
 * queue by key; reminders left 'sending' outside any batch for STRANDED_AFTER_MS are fired again
 * (fireSchedule rebuilds the same occurrence's job from its row) and queued. A copy of a job still
 * on the queue is harmless: a delivery goes into one batch only. First it wakes the mail handoff
 * object, should it hold claims or jobs with no alarm left to take them (decisions/029). Returns
 * what it put back, and how many claims and jobs the handoff held.
 */
export async function runMailRecovery(env: Env, now = Date.now()) {
  const db = getDb(env.DB);
  // What the handoff object holds is taken up again should its alarm have given up (decisions/029).
  const handedOver = await wakeHandoff(env);
  const keys = await dueBatchKeys(db, now, RECOVER_PER_RUN);
  for (const slice of chunk(keys, 100)) {
    await env.MAIL_QUEUE.sendBatch(slice.map((batchKey) => ({ body: { batchKey } })));
  }
  const stranded = await strandedDeliveries(db, now - STRANDED_AFTER_MS, RECOVER_PER_RUN);
  const jobs: MailJob[] = [];
  const stopped: { id: number; occurrenceKey: string }[] = [];
  for (const slice of chunk(stranded, RECOVER_CONCURRENCY)) {
    const outcomes = await Promise.allSettled(slice.map((d) => fireSchedule(env, d.scheduleId, now)));
    for (const [i, outcome] of outcomes.entries()) {
      const d = slice[i];
      if (!d) continue;
      if (outcome.status === "rejected") {
        console.error(`[dunly] watchdog could not fire ${d.scheduleId} again`, outcome.reason);
      } else if (outcome.value.kind === "queued") {
        // Not its object's alarm (the watchdog set none): the consumer moves the alarm itself.
        const { alarmAt: _, ...job } = outcome.value.job;
        jobs.push(job);
      } else if (outcome.value.kind === "gone" || outcome.value.kind === "not-due") {
        // Its schedule stopped or moved on meanwhile: the occurrence is not sent, visibly, with why.
        stopped.push(d);
      }
    }
  }
  await abandonStranded(db, stopped);
  const abandoned = stopped.length;
  // Companion texts (a step sending both) left 'sending': settled from Twilio's record.
  await recoverCompanionTexts({ env, db }, now - STRANDED_AFTER_MS, RECOVER_PER_RUN);
  for (const slice of chunk(jobs, 100)) {
    await env.MAIL_QUEUE.sendBatch(slice.map((job) => ({ body: job })));
  }
  if (keys.length > 0 || jobs.length > 0 || abandoned > 0) {
    console.warn(
      `[dunly] watchdog put back ${keys.length} mail batch(es) and ${jobs.length} stranded reminder(s)${abandoned ? `; ${abandoned} given up` : ""}`,
    );
  }
  return { batches: keys.length, reminders: jobs.length, abandoned, handedOver };
}

/**
 * The watchdog's step for the user's notices: those left 'pending' more than five minutes are sent,
 * a bounded number a run (sendStaleNotices). Never throws; returns how many were sent.
 */
export async function runNotices(env: Env, now = Date.now()) {
  try {
    const db = getDb(env.DB);
    const config = readConfig(env);
    const sent = await sendStaleNotices(env, db, config, now);
    // Then the daily digests of the users who switched them on, from 08:00 UTC.
    await sendDailyDigests(env, db, config, now);
    // And the trial's two e-mails (docs/decisions/019); a failure is tried again next run.
    await sendTrialNotices(env, db, config, now).catch((error) =>
      console.error("[dunly] watchdog could not send trial notices", error),
    );
    // And every recorded e-mail whose retry is due: receipts, reply copies, plan and password e-mails.
    await retryRecordedEmails(env, db, now).catch((error) =>
      console.error("[dunly] watchdog could not retry e-mails", error),
    );
    // And a few users' sending domains, read again at Resend (decisions/059): one that stopped
    // being verified falls back to Dunly's address and its user is told.
    await recheckSendingDomains(env, db, config, now).catch((error) =>
      console.error("[dunly] watchdog could not check sending domains", error),
    );
    return sent;
  } catch (error) {
    console.error("[dunly] watchdog could not send notices", error);
    return 0;
  }
}

/** Pages of ended promises per run: the rest (a backlog) waits for the next run, five minutes on. */
const PROMISE_PAGES_PER_RUN = 4;
/** Accounts being deleted whose next step is queued again a run. */
const DELETIONS_PER_RUN = 100;

/**
 * The watchdog's step for promises to pay: every
 * promise whose end has come (the day after the promised date has started in the debtor's zone)
 * ends, a page at a time, each page one batch (app/responses/promises.server.ts endDuePromises): with
 * something still open it is broken and the reminders it held resume by themselves; otherwise it
 * just ends. The resumed schedules' alarms are armed through the lifecycle. Returns the totals.
 */
export async function runPromiseEnds(env: Env, now = Date.now()) {
  const db = getDb(env.DB);
  const total = { ended: 0, broken: 0, resumed: 0 };
  for (let page = 0; page < PROMISE_PAGES_PER_RUN; page++) {
    const out = await endDuePromises(db, now, PROMISES_PER_PAGE);
    if (out.resumed.length > 0) {
      await followAlarms({ env, db }, { arm: out.resumed.map((r) => ({ id: r.id, at: r.nextRunAt })) }, now);
    }
    total.ended += out.ended;
    total.broken += out.broken;
    total.resumed += out.resumed.length;
    // A short page was the last; a page that ended nothing (all changed meanwhile) would come back alike.
    if (out.read < PROMISES_PER_PAGE || out.ended === 0) break;
  }
  if (total.ended > 0) {
    console.log(
      `[dunly] watchdog ended ${total.ended} promise(s) to pay: ${total.broken} broken, ${total.resumed} schedule(s) resumed`,
    );
  }
  return total;
}

/**
 * Payment plans on the cron (decisions/066): each active plan's instalment reminders and nudges
 * (once each, in the debtor's daytime), the user told of a missed instalment, plans that end by
 * themselves after their grace days, plans the ledger covers in full.
 */
export async function runPlanWatch(env: Env, now = Date.now()) {
  const out = await watchPlans(env, getDb(env.DB), readConfig(env), now);
  if (out.sent > 0 || out.missed > 0 || out.broken > 0) {
    console.log(
      `[dunly] watchdog: ${out.sent} plan e-mail(s), ${out.missed} missed instalment(s) told, ${out.broken} plan(s) ended`,
    );
  }
  return out;
}

/**
 * Housekeeping on the same cron trigger: expired tokens, states, sessions and rate-limit events go;
 * Checkout Sessions left open past Stripe's lifetime are closed as expired; then deliveries older
 * than 13 months move to the archive, a bounded number of rows per run.
 */
export async function runHousekeeping(env: Env, now = Date.now()) {
  const db = getDb(env.DB);
  const purged = await purgeExpired(db, now);
  const total = Object.values(purged).reduce((sum, n) => sum + n, 0);
  if (total > 0) console.log(`[dunly] housekeeping purged ${JSON.stringify(purged)}`);
  const expiredCheckouts = await expireAbandonedCheckouts(db, now);
  if (expiredCheckouts > 0) console.log(`[dunly] housekeeping closed ${expiredCheckouts} abandoned checkout(s)`);
  // Accounts still being deleted: their next step goes on the jobs queue again, so a lost message
  // or a restart only delays a deletion. A step for an account already gone does nothing.
  const deleting = await accountsBeingDeleted(db, DELETIONS_PER_RUN);
  for (const id of deleting) await queueAccountDeletion(env, id);
  const archived = await archiveOldDeliveries(db, env.ARCHIVE, now).catch((error: unknown) => {
    // Nothing moved in the month that failed (its batch is one transaction); the next run tries again.
    console.error("[dunly] archiving old deliveries failed", error);
    return { files: 0, rows: 0 };
  });
  if (archived.rows > 0) console.log(`[dunly] archived ${archived.rows} deliveries in ${archived.files} file(s)`);
  return { ...purged, expiredCheckouts, deletionsQueued: deleting.length, archived };
}
