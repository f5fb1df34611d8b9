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
import { createHmac } from "node:crypto";
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

/** The signing secret of the runs' servers: the bench signs opt-out links as the app does. */
const OPT_OUT_SECRET = "bench-engine-opt-out-secret";

/** A debtor's one-click opt-out link, /u/<key>.<HMAC-SHA256("<key>:<owner>:<debtor>")> (app/links/signed-links.server.ts). */
const optOutPath = (d) =>
  `/u/${d.opt_out_key}.${createHmac("sha256", OPT_OUT_SECRET).update(`${d.opt_out_key}:${d.owner_id}:${d.id}`).digest("base64url")}`;

/** Every schedule not yet settled: still enabled without a final delivery, or with a delivery in flight. */
function unsettled(sqlitePath) {
  return Number(
    query(
      sqlitePath,
      `SELECT (SELECT count(*) FROM schedules s WHERE s.state = 'ENABLED' AND NOT EXISTS (
                 SELECT 1 FROM deliveries x WHERE x.schedule_id = s.id AND x.status IN ('sent', 'failed', 'skipped')))
            + (SELECT count(*) FROM deliveries WHERE status IN ('sending', 'deferred')) AS n`,
    )[0].n,
  );
}

/**
 * The debtors who stop being reminded mid-run: `optOuts` opt out through their e-mail's one-click
 * link, `payments` are paid in full through the API as their user. Chosen among those not yet sent,
 * the ones whose reminder is in a batch waiting for its retry first. Each request is repeated until
 * it is answered (the server may be down for a restart); a payment whose answer was lost is found
 * paid in D1 rather than paid twice. Returns each stop with when its request started and when the
 * app answered it: a message the provider received after that answer was sent after the stop.
 */
async function stopSome(server, sessions, { optOuts, payments }, log) {
  const chosen = query(
    server.sqlitePath,
    `SELECT * FROM (
       SELECT d.id, d.owner_id, d.email, d.opt_out_key, d.debt_cents,
              (SELECT x.status FROM deliveries x WHERE x.debtor_id = d.id ORDER BY x.id DESC LIMIT 1) AS st
         FROM debtors d)
      WHERE st IS NULL OR st IN ('sending', 'deferred')
      ORDER BY st = 'sending' DESC, random()
      LIMIT ?`,
    optOuts + payments,
  );
  const today = new Date().toISOString().slice(0, 10);
  // Opt-outs and payments alternate, then whichever there are more of.
  const pairs = Math.min(optOuts, payments);
  const kindOf = (i) =>
    i < 2 * pairs ? (i % 2 === 0 ? "opt-out" : "payment") : optOuts > payments ? "opt-out" : "payment";
  const stops = chosen.map((d, i) => ({ debtor: d, kind: kindOf(i) }));
  const paidInD1 = (id) => {
    const row = query(server.sqlitePath, "SELECT paid_cents, debt_cents FROM debtors WHERE id = ?", id)[0];
    return Number(row.paid_cents) >= Number(row.debt_cents);
  };
  const one = async (stop) => {
    const d = stop.debtor;
    stop.startedAt = Date.now();
    for (let attempt = 1; ; attempt++) {
      try {
        if (stop.kind === "payment" && attempt > 1 && paidInD1(d.id)) break;
        const res =
          stop.kind === "opt-out"
            ? await fetch(`${server.origin}${optOutPath(d)}`, { method: "POST", redirect: "manual" })
            : await fetch(`${server.origin}/api/payments/add`, {
                method: "POST",
                headers: {
                  "content-type": "application/json",
                  origin: server.origin,
                  cookie: `dunly_session=${sessions[d.owner_id]}`,
                },
                body: JSON.stringify({
                  fb_uuid: d.owner_id,
                  debtor_id: d.id,
                  amount: (Number(d.debt_cents) / 100).toFixed(2),
                  paid_on: today,
                }),
              });
        const text = await res.text();
        if (res.ok) break;
        if (attempt % 5 === 0) log(`    ${stop.kind} of debtor ${d.id}: ${res.status} ${text.slice(0, 120)}`);
      } catch {
        // The server is restarting: try again.
      }
      await sleep(1000);
    }
    stop.doneAt = Date.now();
  };
  // Ten at a time, as users and mail clients would come, not all in one instant.
  for (let i = 0; i < stops.length; i += 10) await Promise.all(stops.slice(i, i + 10).map(one));
  return stops;
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
  stops = null,
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
  let sessions = {};
  log(`  seeding ${count} schedules due at ${new Date(dueAt).toISOString()} (debtors in ${timeZone})`);
  const server = await startServer({
    port,
    persist,
    appVars: { MAIL_SENDS_PER_SECOND: String(sendsPerSecond), OPT_OUT_SECRET },
    mailVars: provider ? { RESEND_API_KEY: "re_bench", RESEND_BASE_URL: provider.url } : {},
    beforeStart: (file) => {
      ({ accounts, sessions } = seedEngine(file, {
        count,
        perAccount,
        dueAt,
        timeZone,
        armAtDue: armed,
        withSessions: Boolean(stops),
      }));
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
    // The stops run beside the loop (their requests wait out a restart), from `stops.atS` on.
    let stopping = null;
    let stopsDone = false;
    for (;;) {
      const now = Date.now();
      if (stops && !stopping && now - triggeredAt >= stops.atS * 1000) {
        log(
          `    ${((now - triggeredAt) / 1000).toFixed(0).padStart(5)} s: ${stops.optOuts} opt-outs and ${stops.payments} payments begin`,
        );
        stopping = stopSome(server, sessions, stops, log);
        stopping.then(() => {
          stopsDone = true;
        });
      }
      // Done when every schedule is settled: sent or failed, or (with stops) skipped or ended without one.
      const settledAll = p.sent + p.failed >= count || (stopping !== null && unsettled(server.sqlitePath) === 0);
      if (settledAll && (!stops || stopsDone)) break;
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
    const stopList = stopping ? await stopping : [];
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
      // Reminders only: the users' notices (an opt-out, a payment) go to their own addresses.
      const d = provider.duplicates((to) => to.startsWith("engine-debtor-"));
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
    // What each stopped debtor got: sent after the app answered the stop (a breach), while the
    // stop's request was in flight (a race the stop could not win), before it, or nothing.
    let stopped = null;
    if (stops) {
      const byTo = new Map();
      for (const m of provider?.delivered ?? []) byTo.set(m.to, [...(byTo.get(m.to) ?? []), m.at]);
      const verdicts = stopList.map((stop) => {
        const times = byTo.get(String(stop.debtor.email).toLowerCase()) ?? [];
        if (times.some((t) => t > stop.doneAt)) return "after";
        if (times.some((t) => t >= stop.startedAt)) return "during";
        if (times.length > 0) return "before";
        return "none";
      });
      const count = (v, kind) => verdicts.filter((x, i) => x === v && (!kind || stopList[i].kind === kind)).length;
      const skipped = query(
        server.sqlitePath,
        "SELECT coalesce(error, '(no reason)') AS error, count(*) AS n FROM deliveries WHERE status = 'skipped' GROUP BY error ORDER BY n DESC",
      );
      stopped = {
        optOuts: stopList.filter((s) => s.kind === "opt-out").length,
        payments: stopList.filter((s) => s.kind === "payment").length,
        firstAtS: stopList.length ? (Math.min(...stopList.map((s) => s.startedAt)) - triggeredAt) / 1000 : null,
        lastAtS: stopList.length ? (Math.max(...stopList.map((s) => s.doneAt)) - triggeredAt) / 1000 : null,
        sentAfter: { optOut: count("after", "opt-out"), payment: count("after", "payment") },
        sentDuring: count("during"),
        sentBefore: count("before"),
        notSent: count("none"),
        skipped: skipped.map((r) => ({ error: r.error, n: Number(r.n) })),
      };
    }
    // A delivery recorded failed whose recipient the provider did receive: recorded wrongly.
    let failedButReceived = null;
    if (provider) {
      const got = new Set(provider.delivered.map((m) => m.to));
      failedButReceived = query(server.sqlitePath, "SELECT recipient FROM deliveries WHERE status = 'failed'").filter(
        (r) => got.has(String(r.recipient)),
      ).length;
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
      stopped,
      failedButReceived,
      unsettled: unsettled(server.sqlitePath),
    };
  } finally {
    await server.stop();
    await provider?.close();
  }
  return result;
}
