// `node bench/profile-d1.mjs [path…]`: how much of bench/profile.mjs's figure is local D1. Locally
// D1 runs in workerd's own D1 Worker (a Durable Object with SQLite) on the same thread as the app
// Worker, and the profiler charges each sample with the time since the isolate's previous one, so
// D1's running time lands on the app's samples (bench/README.md). This serves the same seeded
// account the same way (10 connections, PROFILE_SECONDS per page), profiles the app Worker
// ("core:user:dunly") and the D1 Worker ("d1:db") at once, and prints beside profile.mjs's figure
// D1's share of the two isolates' non-idle samples and that share of the figure. Nothing here
// changes how profile.mjs takes its figure.
import { writeFileSync } from "node:fs";
import { connect, enableProfiler, profilePage, startProfileServer, summarize } from "./inspector.mjs";
import { browserHeaders } from "./pages.mjs";
import { snapshotBuild, stopAll } from "./server.mjs";

const port = Number(process.env.BENCH_PORT ?? 8832);
const seconds = Number(process.env.PROFILE_SECONDS ?? 6);
const paths = process.argv.slice(2).length > 0 ? process.argv.slice(2) : ["/debtors-list"];

if (process.env.BENCH_SNAPSHOT === "1") snapshotBuild();

const { server, account } = await startProfileServer(port);

/**
 * Non-idle samples of a .cpuprofile: how many, and the time they are charged with (each sample
 * carries the time since the one before it, as in profile.mjs).
 */
function busySamples(profile) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  let count = 0;
  let us = 0;
  for (let i = 0; i < profile.samples.length; i += 1) {
    if (byId.get(profile.samples[i]).callFrame.functionName === "(idle)") continue;
    count += 1;
    us += profile.timeDeltas[i] ?? 0;
  }
  return { count, us };
}

try {
  const target = { server, account, headers: browserHeaders(account.token), seconds };
  const app = await connect(server, "core:user:dunly");
  const d1 = await connect(server, "d1:db");
  for (const s of [app, d1]) await enableProfiler(s);
  const rows = [];
  for (const path of paths) {
    const { page, run, share, threadMs, profiles } = await profilePage(target, path, [app, d1]);
    const [appProfile, d1Profile] = profiles;
    const a = summarize(appProfile);
    const d = summarize(d1Profile);
    const name = page.path.replace(/[^a-z0-9]+/gi, "-");
    writeFileSync(`.wrangler/profile-d1-app${name}.cpuprofile`, JSON.stringify(appProfile));
    writeFileSync(`.wrangler/profile-d1${name}.cpuprofile`, JSON.stringify(d1Profile));
    const appBusy = busySamples(appProfile);
    const d1Busy = busySamples(d1Profile);
    rows.push({
      path: page.path,
      app: (a.total - a.idle) / 1000 / run.requests,
      d1: (d.total - d.idle) / 1000 / run.requests,
      appSamples: appBusy.count / run.requests,
      d1Samples: d1Busy.count / run.requests,
      share,
      thread: threadMs / run.requests,
    });
    console.log(`\n${page.path}: ${run.requests} requests; D1 Worker by function (self time):`);
    for (const line of d.functions.slice(0, 12)) console.log(line);
  }
  app.close();
  d1.close();
  console.log(
    "\npage: the app Worker's figure as profile.mjs computes it (non-idle ms per request × the thread's share on\n" +
      "a core); the non-idle samples per request of the app Worker and of the D1 Worker; D1's share of them; that\n" +
      "share of the figure (the part of it that is local D1 running); the thread's share; its /proc CPU per request",
  );
  for (const r of rows) {
    const d1Share = r.d1Samples / (r.appSamples + r.d1Samples);
    const figure = r.app * r.share;
    console.log(
      `${r.path.padEnd(24)} ${figure.toFixed(2).padStart(6)} ms  samples app ${r.appSamples.toFixed(1).padStart(5)} D1 ${r.d1Samples.toFixed(1).padStart(5)}  D1 ${(100 * d1Share).toFixed(0).padStart(3)}%  ${(figure * d1Share).toFixed(2).padStart(5)} ms  on a core ${(100 * r.share).toFixed(0).padStart(3)}%  thread ${r.thread.toFixed(2).padStart(6)} ms`,
    );
  }
} finally {
  await stopAll();
}
