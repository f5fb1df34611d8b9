// `node bench/profile.mjs [path…]`: a CPU profile of the app Worker while it serves signed-in pages
// of the seeded account (1,000 debtors, 1,000 schedules, 20,000 deliveries; PROFILE_SMALL=1: the
// small account) at 10 connections, PROFILE_SECONDS (6) per page.
// It serves the copy of the build (see bench/server.mjs; `npm run bench` or BENCH_SNAPSHOT=1 makes
// it), takes the profile through workerd's inspector (Chrome DevTools Protocol), prints the
// functions with the most self time and where the time went by source file, and writes the
// .cpuprofile (open it in Chrome DevTools' Performance panel) under .wrangler/. A path written
// `signed-out:/path` is requested without the session cookie (no session, so no D1 call for it).
// bench/README.md.
import { writeFileSync } from "node:fs";
import { connect, enableProfiler, isolateTime, profilePage, startProfileServer, summarize } from "./inspector.mjs";
import { browserHeaders } from "./pages.mjs";
import { snapshotBuild, stopAll } from "./server.mjs";

const port = Number(process.env.BENCH_PORT ?? 8832);
const seconds = Number(process.env.PROFILE_SECONDS ?? 6);
const paths = process.argv.slice(2).length > 0 ? process.argv.slice(2) : ["/debtors-list"];

if (process.env.BENCH_SNAPSHOT === "1") snapshotBuild();

const { server, account } = await startProfileServer(port);

try {
  const signedIn = { server, account, headers: browserHeaders(account.token), seconds };
  const signedOut = { ...signedIn, headers: browserHeaders(null) };
  const session = await connect(server);
  console.log(`inspector: ${session.title}`);
  await enableProfiler(session);
  const rows = [];
  for (const arg of paths) {
    const anonymous = arg.startsWith("signed-out:");
    const path = anonymous ? arg.slice("signed-out:".length) : arg;
    const target = anonymous ? signedOut : signedIn;
    const { page, run, share, threadMs, profiles } = await profilePage(target, path, [session]);
    const [profile] = profiles;
    const label = anonymous ? `signed-out:${page.path}` : page.path;
    const out = `.wrangler/profile-${label.replace(/^\//, "").replace(/[^a-z0-9]+/gi, "-")}.cpuprofile`;
    writeFileSync(out, JSON.stringify(profile));
    const summary = summarize(profile);
    const own = isolateTime(profile);
    rows.push({
      path: label,
      p50: run.p50,
      rps: run.rps,
      cpu: summary.total / 1000 / run.requests,
      busy: (summary.total - summary.idle) / 1000 / run.requests,
      share,
      thread: threadMs / run.requests,
      own: own.us / 1000 / run.requests,
      period: own.period,
    });
    console.log(
      `\n${label}: ${run.requests} requests, p50 ${run.p50.toFixed(1)} ms, ${run.rps.toFixed(1)} req/s; ` +
        `${(summary.total / 1000).toFixed(0)} ms sampled, ${(summary.total / 1000 / run.requests).toFixed(2)} ms per request (${out})`,
    );
    console.log("by file:");
    for (const line of summary.files) console.log(line);
    console.log("by function (self time):");
    for (const line of summary.functions) console.log(line);
  }
  session.close();
  console.log(
    "\npage: p50 at 10 connections, requests per second, sampled ms per request, the same without (idle), the\n" +
      "share of the run the Worker's thread was on a core, the Worker's CPU per request: not idle × that share, and\n" +
      "the CPU that thread used per request (/proc: the Worker, and here also local D1's SQL and workerd's I/O);\n" +
      "last, the isolate's own time per request: its non-idle samples × the sampler's period (isolateTime in\n" +
      "bench/inspector.mjs: without local D1 and workerd's plumbing, what Cloudflare counts as Worker CPU)",
  );
  for (const r of rows) {
    console.log(
      `${r.path.padEnd(28)} ${r.p50.toFixed(1).padStart(7)} ms ${r.rps.toFixed(1).padStart(7)}/s ${r.cpu.toFixed(2).padStart(7)} ms ${r.busy.toFixed(2).padStart(7)} ms ${(100 * r.share).toFixed(0).padStart(4)}% ${(r.busy * r.share).toFixed(2).padStart(7)} ms ${r.thread.toFixed(2).padStart(7)} ms   own ${r.own.toFixed(2).padStart(5)} ms (period ${r.period} µs)`,
    );
  }
} finally {
  await stopAll();
}
