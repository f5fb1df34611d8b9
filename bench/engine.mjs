// The engine run: `count` ENABLED schedules, each to its own debtor and address, all due at the same
// instant, on a fresh server; the local D1 is polled until every occurrence's delivery is 'sent' or
// 'failed'. Two starting states (`start`):
// - "overdue" (bench/run.mjs): due six minutes ago and no Durable Object armed (D1 seeded directly).
//   The cron trigger (GET /cdn-cgi/handler/scheduled) runs the watchdog, which re-arms every
//   schedule more than five minutes overdue; the clock starts at that trigger, so creating and
//   arming every object is inside the measured time.
// - "armed" (bench/mail.mjs): what production starts from, every schedule's object already armed
//   for the due instant (the app arms it when the schedule is created). Due `armLeadS` ahead; the
//   seed records each schedule in alarm_repairs and the cron is triggered until the watchdog's
//   repairAlarms has armed them all at next_run_at through the lifecycle's arm(); the clock starts
//   at the due instant. An object armed after it is reported (`armedLateS`). The receiving end is counted too: the dev
// outbox (mail Worker without RESEND_API_KEY) or the fake provider's log (rate limited, bench/fake-provider.mjs).
import { startFakeProvider } from "./fake-provider.mjs";
import { daytimeZone, query, seedEngine } from "./seed.mjs";
import { startServer } from "./server.mjs";

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const CRON = "*/5 * * * *";

/** Delivery counts by status, and the first and last send, from the live D1 file. */
function progress(sqlitePath) {
  const rows = query(
    sqlitePath,
    "SELECT status, count(*) AS n, min(sent_at) AS first, max(sent_at) AS last FROM deliveries GROUP BY status",
  );
  const by = Object.fromEntries(rows.map((r) => [r.status, Number(r.n)]));
  const sent = rows.find((r) => r.status === "sent");
  return { by, sent: by.sent ?? 0, failed: by.failed ?? 0, first: sent?.first ?? null, last: sent?.last ?? null };
}

/**
 * One engine run. `mode`: "outbox" (dev outbox) or "limited" (fake provider at `providerRps`).
 * `sendsPerSecond` goes to the app Worker as MAIL_SENDS_PER_SECOND (the queue consumer's pace; an
 * engine that sends straight from the alarm ignores it). Returns the figures for RESULTS.md.
 */
export async function engineRun({
  mode,
  count,
  port,
  persist,
  sendsPerSecond,
  providerRps = 2,
  perAccount = 25,
  timeoutS,
  cronEveryS = 300,
  progressEveryS = 10,
  faultRate = 0,
  restartAtS = [],
  windowS = null,
  start = "overdue",
  armLeadS = null,
  log = console.log,
}) {
  if (start !== "overdue" && start !== "armed") throw new Error(`Unknown start ${start} (overdue or armed)`);
  const armed = start === "armed";
  const provider = mode === "limited" ? await startFakeProvider({ perSecond: providerRps, faultRate }) : null;
  const restarts = [...restartAtS].sort((a, b) => a - b);
  let sentWithinWindow = null;
  const restartLog = [];
  const timeZone = daytimeZone();
  // Armed: enough ahead for the seed, the server's start and the arming (about 250 objects a second here).
  const leadS = armLeadS ?? 20 + count / 100;
  const dueAt = armed ? Date.now() + leadS * 1000 : Date.now() - 6 * 60_000;
  let accounts = 0;
  log(`  seeding ${count} schedules due at ${new Date(dueAt).toISOString()} (debtors in ${timeZone})`);
  const server = await startServer({
    port,
    persist,
    appVars: { MAIL_SENDS_PER_SECOND: String(sendsPerSecond) },
    mailVars: provider ? { RESEND_API_KEY: "re_bench", RESEND_BASE_URL: provider.url } : {},
    beforeStart: (file) => {
      accounts = seedEngine(file, { count, perAccount, dueAt, timeZone, armAtDue: armed }).accounts;
    },
    log,
  });
  const trigger = async () => {
    // wrangler's /__scheduled (--test-scheduled) answers the app's 404 page here: it is middleware
    // wrangler bundles into a Worker, and the built Workers are served as built (no_bundle).
    // Miniflare's own trigger works.
    const res = await fetch(
      `${server.origin}/cdn-cgi/handler/scheduled?cron=${encodeURIComponent(CRON).replaceAll("%20", "+")}`,
    );
    await res.arrayBuffer();
    if (!res.ok) throw new Error(`GET /cdn-cgi/handler/scheduled answered ${res.status}`);
  };
  let result;
  try {
    let triggers = 0;
    let armedLateS = null;
    let armedInS = null;
    if (armed) {
      // The watchdog arms up to 500 recorded schedules a run: the cron is triggered until none is left.
      // (The trigger may answer before the run's waitUntil work ends: the next one waits until the
      // count stops going down, so two runs do not arm the same page.)
      const armStart = Date.now();
      const repairsLeft = () => Number(query(server.sqlitePath, "SELECT count(*) AS n FROM alarm_repairs")[0].n);
      let left = repairsLeft();
      while (left > 0) {
        if (Date.now() - armStart > timeoutS * 1000) throw new Error(`${left} schedules still not armed`);
        await trigger();
        triggers += 1;
        const before = left;
        const runStart = Date.now();
        for (;;) {
          await sleep(500);
          const now = repairsLeft();
          const moved = now !== left;
          left = now;
          if (left === 0 || (!moved && (left < before || Date.now() - runStart > 5000))) break;
        }
      }
      armedInS = (Date.now() - armStart) / 1000;
      armedLateS = Math.max(0, (Date.now() - dueAt) / 1000);
      log(
        `  armed ${count} objects in ${armedInS.toFixed(1)} s (${triggers} cron runs); ${
          armedLateS > 0
            ? `${armedLateS.toFixed(1)} s AFTER the due instant`
            : `${((dueAt - Date.now()) / 1000).toFixed(1)} s before the due instant`
        }`,
      );
      if (Date.now() < dueAt) await sleep(dueAt - Date.now());
    }
    // The clock starts at the due instant (armed) or at the trigger that arms them (overdue).
    const triggeredAt = armed ? dueAt : Date.now();
    if (!armed) {
      await trigger();
      triggers += 1;
    }
    let lastTrigger = Date.now();
    let lastLog = triggeredAt;
    let lastSent = 0;
    let timedOut = false;
    let p = progress(server.sqlitePath);
    for (;;) {
      const now = Date.now();
      if (p.sent + p.failed >= count) break;
      if (now - triggeredAt > timeoutS * 1000) {
        timedOut = true;
        break;
      }
      if (windowS !== null && sentWithinWindow === null && now - triggeredAt >= windowS * 1000) {
        sentWithinWindow = p.sent;
        log(`    after ${windowS} s: ${p.sent}/${count} sent`);
      }
      // The worker process killed (SIGKILL) and started again on the same persisted state.
      if (restarts.length > 0 && now - triggeredAt >= restarts[0] * 1000) {
        restarts.shift();
        const before = progress(server.sqlitePath);
        log(
          `    ${((now - triggeredAt) / 1000).toFixed(0).padStart(5)} s: killing the server (sent ${before.sent}, ${JSON.stringify(before.by)})`,
        );
        await server.restart(undefined, { kill: true });
        restartLog.push({ atS: (now - triggeredAt) / 1000, sentBefore: before.sent, byStatus: before.by });
      }
      // The real cron fires every 5 minutes: so does the bench's while anything is still due.
      if (now - lastTrigger >= cronEveryS * 1000) {
        await trigger();
        triggers += 1;
        lastTrigger = now;
      }
      if (now - lastLog >= progressEveryS * 1000) {
        const rate = (p.sent - lastSent) / ((now - lastLog) / 1000);
        const others = Object.entries(p.by)
          .filter(([s]) => s !== "sent" && s !== "failed")
          .map(([s, n]) => `${s} ${n}`)
          .join(", ");
        const fake = provider
          ? `; provider: ${provider.stats.accepted} accepted (${provider.stats.batches} new batches), ${provider.stats.rateLimited} × 429, ${provider.stats.replays} replays, ${provider.delivered.length} e-mails`
          : "";
        log(
          `    ${((now - triggeredAt) / 1000).toFixed(0).padStart(5)} s: sent ${p.sent}/${count}, failed ${p.failed}${others ? `, ${others}` : ""} (${rate.toFixed(1)}/s)${fake}`,
        );
        lastLog = now;
        lastSent = p.sent;
      }
      await sleep(1000);
      p = progress(server.sqlitePath);
    }
    const waited = Date.now() - triggeredAt;
    if (windowS !== null && sentWithinWindow === null) sentWithinWindow = p.sent;
    await server.stop();

    // Final figures from the stopped server's file: nothing is writing any more.
    const final = progress(server.sqlitePath);
    const failures = query(
      server.sqlitePath,
      "SELECT error, count(*) AS n FROM deliveries WHERE status = 'failed' GROUP BY error ORDER BY n DESC LIMIT 3",
    );
    const perSchedule = query(
      server.sqlitePath,
      "SELECT count(*) AS n FROM (SELECT schedule_id FROM deliveries GROUP BY schedule_id HAVING count(*) > 1)",
    )[0].n;
    let received;
    // Every sent delivery's recipient got exactly one message (the provider's own log).
    let sentExactlyOnce = null;
    if (provider) {
      const perRecipient = new Map();
      for (const m of provider.delivered) perRecipient.set(m.to, (perRecipient.get(m.to) ?? 0) + 1);
      const sentTo = query(server.sqlitePath, "SELECT recipient FROM deliveries WHERE status = 'sent'");
      sentExactlyOnce = sentTo.filter((r) => perRecipient.get(String(r.recipient)) === 1).length;
    }
    if (provider) {
      const d = provider.duplicates();
      received = {
        where: `fake provider (${providerRps}/s)`,
        messages: provider.delivered.length,
        distinct: d.distinct,
        duplicateRecipients: d.recipients,
        extraMessages: d.extra,
        requests: provider.stats.requests,
        rateLimited: provider.stats.rateLimited,
        replays: provider.stats.replays,
        batches: provider.stats.batches,
        faults: provider.stats.faults,
        firstAt: provider.delivered[0]?.at ?? null,
        lastAt: provider.delivered.at(-1)?.at ?? null,
      };
    } else {
      const outbox = query(
        server.sqlitePath,
        `SELECT count(*) AS messages, count(DISTINCT "to") AS distinct_to, min(created_at) AS first, max(created_at) AS last
           FROM dev_outbox`,
      )[0];
      const dup = query(
        server.sqlitePath,
        `SELECT count(*) AS recipients, coalesce(sum(n - 1), 0) AS extra
           FROM (SELECT count(*) AS n FROM dev_outbox GROUP BY "to" HAVING count(*) > 1)`,
      )[0];
      received = {
        where: "dev outbox",
        messages: Number(outbox.messages),
        distinct: Number(outbox.distinct_to),
        duplicateRecipients: Number(dup.recipients),
        extraMessages: Number(dup.extra),
        firstAt: outbox.first,
        lastAt: outbox.last,
      };
    }
    const lastSentAt = final.last ?? null;
    const spanS = lastSentAt ? (lastSentAt - triggeredAt) / 1000 : null;
    result = {
      mode,
      start,
      armedInS,
      armedLateS,
      count,
      accounts,
      sendsPerSecond,
      timedOut,
      waitedS: waited / 1000,
      triggers,
      sent: final.sent,
      failed: final.failed,
      byStatus: final.by,
      timeToFirstS: final.first ? (final.first - triggeredAt) / 1000 : null,
      timeToLastS: spanS,
      sendsPerS: spanS ? final.sent / spanS : null,
      failures: failures.map((f) => ({ error: f.error, n: Number(f.n) })),
      schedulesWithSeveralDeliveries: Number(perSchedule),
      received,
      faultRate,
      restarts: restartLog,
      windowS,
      sentWithinWindow,
      sentExactlyOnce,
    };
  } finally {
    await server.stop();
    await provider?.close();
  }
  return result;
}
