// The mail path's runs (docs/decisions/021-batch-sending.md), apart from `npm run bench`: batch
// sending against the 2-requests-a-second fake provider, the dev outbox, and the chaos runs (faults
// and restarts). Prints each run's figures and writes them as a Markdown section to BENCH_MAIL_OUT
// (default .wrangler/bench-mail.md), to be copied into bench/RESULTS.md. See bench/README.md.
//
//   npm run build && node bench/mail.mjs                       # every run below
//   BENCH_MAIL_RUNS=limited:1000,chaos:1000 node bench/mail.mjs # some of them
import { writeFileSync } from "node:fs";
import os from "node:os";
import { engineRun } from "./engine.mjs";
import { snapshotBuild } from "./server.mjs";

const env = process.env;
const RUNS = (env.BENCH_MAIL_RUNS ?? "limited:1000,limited:5000,outbox:5000,chaos:1000,faults:240")
  .split(",")
  .map((s) => s.trim())
  .filter(Boolean);
const port = Number(env.BENCH_PORT ?? 8811);
const providerRps = Number(env.BENCH_PROVIDER_RPS ?? 2);
const faultRate = Number(env.BENCH_FAULT_RATE ?? 0.3);
const restartAtS = (env.BENCH_CHAOS_RESTARTS ?? "8,25").split(",").map(Number);
const out = env.BENCH_MAIL_OUT ?? ".wrangler/bench-mail.md";
// Where a run starts (bench/engine.mjs): "armed", every schedule's Durable Object armed for the due
// instant beforehand, as production has it, the clock starting at the due instant; "overdue", the
// objects created and armed by the watchdog inside the measured time (how this bench measured first).
const start = env.BENCH_MAIL_START ?? "armed";
const armLeadS = env.BENCH_ARM_LEAD_S ? Number(env.BENCH_ARM_LEAD_S) : null;

/** What each kind of run is: the mode, the pace, faults, restarts, schedules per account, the cron's period. */
const KINDS = {
  limited: { mode: "limited", rate: providerRps, faultRate: 0, restartAtS: [], perAccount: 25, cronEveryS: 300 },
  outbox: { mode: "outbox", rate: 100, faultRate: 0, restartAtS: [], perAccount: 25, cronEveryS: 300 },
  // 30% of requests failing, the process killed and restarted twice; the cron every minute (the
  // real one runs every 5: the watchdog's recovery then comes up to 4 minutes later).
  chaos: { mode: "limited", rate: providerRps, faultRate, restartAtS, perAccount: 25, cronEveryS: 60 },
  // 240 reminders across 24 accounts, 30% faults, no restart: how many are sent within 10 minutes.
  // Chaos with stops (issue 39): during the retries, debtors opt out and are paid; none of them
  // may be sent a reminder after the app answered their stop.
  stops: {
    mode: "limited",
    rate: providerRps,
    faultRate,
    restartAtS,
    perAccount: 25,
    cronEveryS: 60,
    stops: {
      optOuts: Number(env.BENCH_STOP_OPT_OUTS ?? 100),
      payments: Number(env.BENCH_STOP_PAYMENTS ?? 100),
      atS: Number(env.BENCH_STOPS_AT_S ?? 30),
    },
  },
  faults: {
    mode: "limited",
    rate: providerRps,
    faultRate,
    restartAtS: [],
    perAccount: 10,
    cronEveryS: 300,
    windowS: 600,
  },
};

if (env.BENCH_SKIP_SNAPSHOT !== "1") snapshotBuild();
const lines = [
  `Command: \`${Object.entries(env)
    .filter(([k]) => k.startsWith("BENCH_"))
    .map(([k, v]) => `${k}=${v} `)
    .join(
      "",
    )}node bench/mail.mjs\` on ${os.availableParallelism()} CPUs (${os.cpus()[0]?.model ?? "?"}), ${new Date().toISOString()}.`,
  "",
  "| run | start | schedules | faults (hit) | restarts | first sent | last sent | e-mails/s | sent | sent exactly once | failed (of them received) | left | duplicates | requests (new batches, × 429) | within window | stops: sent after / during / before / not sent; skipped (reason) |",
  "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
];
const fmt = (n, d = 1) => (n === null || n === undefined ? "–" : Number(n).toFixed(d));

for (const run of RUNS) {
  const [kind, countText] = run.split(":");
  const k = KINDS[kind];
  if (!k) throw new Error(`Unknown run ${run} (one of ${Object.keys(KINDS).join(", ")})`);
  const count = Number(countText);
  const timeoutS = Number(env.BENCH_ENGINE_TIMEOUT_S ?? (kind === "faults" || kind === "chaos" ? 3600 : 900));
  console.log(
    `\n▶ ${run}: ${count} schedules, ${k.mode}, ${k.rate} requests/s, faults ${k.faultRate}, restarts at ${k.restartAtS.join(", ") || "none"} s`,
  );
  const r = await engineRun({
    mode: k.mode,
    count,
    port,
    persist: `.wrangler/bench-state-mail-${kind}-${count}`,
    sendsPerSecond: k.rate,
    providerRps,
    perAccount: k.perAccount,
    timeoutS,
    cronEveryS: Number(env.BENCH_CRON_EVERY_S ?? k.cronEveryS),
    faultRate: k.faultRate,
    restartAtS: k.restartAtS,
    windowS: k.windowS ?? null,
    start,
    armLeadS,
    stops: k.stops ?? null,
  });
  const left = Object.entries(r.byStatus)
    .filter(([s]) => s !== "sent" && s !== "failed")
    .map(([s, n]) => `${s} ${n}`)
    .join(", ");
  const rec = r.received;
  console.log(JSON.stringify(r, null, 2));
  lines.push(
    `| ${run} | ${
      r.start === "armed"
        ? `armed (in ${fmt(r.armedInS)} s${r.armedLateS > 0 ? `, ${fmt(r.armedLateS)} s late` : ""}); from the due instant`
        : "overdue; from the cron trigger"
    } | ${count} | ${
      k.faultRate
        ? `${k.faultRate * 100}% (${
            Object.entries(rec.faults ?? {})
              .filter(([, n]) => n > 0)
              .map(([m, n]) => `${m} ×${n}`)
              .join(", ") || "none hit"
          })`
        : "none"
    } | ${r.restarts.map((x) => `at ${fmt(x.atS, 0)} s (${x.sentBefore} sent before)`).join("; ") || "none"} | ${fmt(r.timeToFirstS)} s | ${fmt(r.timeToLastS)} s | ${fmt(r.sendsPerS)} | ${r.sent} | ${r.sentExactlyOnce ?? "–"} | ${r.failed} (${r.failedButReceived ?? "–"})${r.failures.length ? ` (${r.failures.map((f) => `${f.n}: ${f.error}`).join("; ")})` : ""} | ${left || "0"}${r.timedOut ? " (timed out)" : ""} | ${rec.extraMessages} | ${rec.requests ?? "–"} (${rec.batches ?? "–"}, ${rec.rateLimited ?? "–"}) | ${r.windowS ? `${r.sentWithinWindow}/${count} (${fmt((100 * r.sentWithinWindow) / count)}%) within ${r.windowS} s` : "–"} | ${
      r.stopped
        ? `${r.stopped.optOuts} opt-outs + ${r.stopped.payments} payments at ${fmt(r.stopped.firstAtS)}–${fmt(r.stopped.lastAtS)} s: **${r.stopped.sentAfter.optOut + r.stopped.sentAfter.payment}** / ${r.stopped.sentDuring} / ${r.stopped.sentBefore} / ${r.stopped.notSent}; ${r.stopped.skipped.map((x) => `${x.n} (${x.error})`).join(", ") || "none"}`
        : "–"
    } |`,
  );
  writeFileSync(out, `${lines.join("\n")}\n`);
}
console.log(`\n${lines.join("\n")}\nWritten to ${out}`);
