// Export and deletion of a big account: the production build
// under wrangler dev, an account of BENCH_BIG (default 2,000 debtors, 2,000 schedules, 200,000
// deliveries) seeded straight into D1, then GET /account-data.json read to the end (time to the
// first byte, total time, bytes, rows) and Settings → Delete account: the request's time, then the
// background job's until no row of the account is left, with the server killed (SIGKILL, as a
// crash) and started again part way and the watchdog's cron run once after it. The resident memory
// of the workerd process that serves the export and the request is sampled every 50 ms.
//
//   npm run build && node bench/account-data.mjs
//
// Prints a Markdown section; it writes nothing to bench/RESULTS.md by itself.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";

process.env.BENCH_BUILD_COPY ??= ".wrangler/bench-build-account";
const { snapshotBuild, startServer, stopAll } = await import("./server.mjs");
const { seedAccount, query } = await import("./seed.mjs");

const port = Number(process.env.BENCH_PORT ?? 8821);
const [debtors, schedules, deliveries] = (process.env.BENCH_BIG ?? "2000,2000,200000").split(",").map(Number);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * The workerd that runs the Workers and local D1: wrangler dev starts two, a proxy that listens on
 * `port` and the runtime beside it (same parent); the runtime is the sibling that does not listen.
 */
function runtimePid() {
  const out = execFileSync("ss", ["-ltnpH", `sport = :${port}`], { encoding: "utf8" });
  const proxy = Number(/pid=(\d+)/.exec(out)?.[1]);
  if (!proxy) throw new Error(`nothing listens on ${port}: ${out}`);
  const parent = readFileSync(`/proc/${proxy}/stat`, "utf8").split(") ")[1].split(" ")[1];
  const ps = execFileSync("ps", ["-o", "pid=,comm=", "--ppid", parent], { encoding: "utf8" });
  const siblings = ps
    .trim()
    .split("\n")
    .map((l) => l.trim().split(/\s+/))
    .filter(([pid, comm]) => comm === "workerd" && Number(pid) !== proxy)
    .map(([pid]) => Number(pid));
  if (siblings.length !== 1)
    throw new Error(`expected one runtime workerd beside ${proxy}, found ${siblings.join(", ")}`);
  return siblings[0];
}

const rssMb = (pid) => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0) / 1024;

/** Samples the process's RSS every 50 ms while `work` runs: { result, baseMb, peakMb }. */
async function sampled(pid, work) {
  const baseMb = rssMb(pid);
  let peakMb = baseMb;
  let running = true;
  const sampler = (async () => {
    while (running) {
      peakMb = Math.max(peakMb, rssMb(pid));
      await sleep(50);
    }
  })();
  try {
    const result = await work();
    return { result, baseMb, peakMb: Math.max(peakMb, rssMb(pid)) };
  } finally {
    running = false;
    await sampler;
  }
}

snapshotBuild();
let account;
const server = await startServer({
  port,
  persist: ".wrangler/bench-state-account",
  beforeStart: (file) => {
    const t = Date.now();
    account = seedAccount(file, { tag: "leaving", debtors, schedules, deliveries, seed: 5 });
    console.log(
      `  seeded ${debtors} debtors, ${schedules} schedules, ${deliveries} deliveries in ${Date.now() - t} ms`,
    );
  },
});
try {
  const pid = runtimePid();
  const cookie = `dunly_session=${account.token}`;
  // Warm: the Worker is loaded and D1 open before measuring.
  await (await fetch(`${server.origin}/iam/info`, { headers: { Cookie: cookie } })).arrayBuffer();

  const exported = await sampled(pid, async () => {
    const started = performance.now();
    const res = await fetch(`${server.origin}/account-data.json`, { headers: { Cookie: cookie } });
    if (res.status !== 200) throw new Error(`export answered ${res.status}`);
    let firstByteMs = null;
    let bytes = 0;
    let lines = 0;
    for await (const chunk of res.body) {
      firstByteMs ??= performance.now() - started;
      bytes += chunk.byteLength;
      for (const b of chunk) if (b === 10) lines++;
    }
    return { firstByteMs, totalMs: performance.now() - started, bytes, lines };
  });

  const deleted = await sampled(pid, async () => {
    const started = performance.now();
    const res = await fetch(`${server.origin}/iam/info`, {
      method: "POST",
      redirect: "manual",
      headers: { Cookie: cookie, Origin: server.origin, "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ intent: "account-delete", confirm_email: account.email }).toString(),
    });
    await res.arrayBuffer();
    return { status: res.status, totalMs: performance.now() - started };
  });
  const leftOf = () =>
    query(
      server.sqlitePath,
      "SELECT (SELECT count(*) FROM deliveries WHERE owner_id = ?1) + (SELECT count(*) FROM debtors WHERE owner_id = ?1) + (SELECT count(*) FROM users WHERE id = ?1) AS n",
      account.userId,
    )[0].n;
  // The job, in the background: a crash part way (its queued step is lost with the local queue),
  // then the watchdog's cron puts it back, and it goes on until no row of the account is left.
  console.log(`  delete request answered ${deleted.result.status} in ${deleted.result.totalMs.toFixed(0)} ms`);
  const jobStarted = performance.now();
  await sleep(Number(process.env.BENCH_KILL_AFTER_MS ?? 3000));
  const leftAtKill = leftOf();
  await server.restart(undefined, { kill: true });
  // The cron trigger: the watchdog's housekeeping puts the account back on the jobs queue.
  const cron = await fetch(`${server.origin}/cdn-cgi/handler/scheduled?cron=*/5+*+*+*+*`);
  await cron.arrayBuffer();
  if (!cron.ok) throw new Error(`GET /cdn-cgi/handler/scheduled answered ${cron.status}`);
  console.log(`  killed and restarted with ${leftAtKill} rows left; the cron run`);
  let left = leftOf();
  while (left > 0 && performance.now() - jobStarted < 15 * 60_000) {
    await sleep(500);
    left = leftOf();
  }
  const jobMs = performance.now() - jobStarted;

  const e = exported.result;
  const d = deleted.result;
  const mb = (n) => n.toFixed(0);
  console.log(`
## Account export and deletion

\`npm run build && node bench/account-data.mjs\` (${new Date().toISOString().slice(0, 10)}; BENCH_BIG=${debtors},${schedules},${deliveries}):
one account of ${debtors.toLocaleString("en-US")} debtors, ${schedules.toLocaleString("en-US")} schedules and ${deliveries.toLocaleString("en-US")} deliveries under \`wrangler dev\`.
Memory: the resident set of the workerd process (the Worker and local D1 together), sampled every 50 ms.

| | time | size | workerd RSS before → peak |
|---|---|---|---|
| GET /account-data.json, read to the end | first byte ${e.firstByteMs.toFixed(0)} ms, all ${(e.totalMs / 1000).toFixed(1)} s | ${(e.bytes / 1048576).toFixed(1)} MB, ${e.lines.toLocaleString("en-US")} lines | ${mb(exported.baseMb)} → ${mb(exported.peakMb)} MB |
| Delete account: the request (POST /iam/info) | ${d.totalMs.toFixed(0)} ms, answered ${d.status} | | ${mb(deleted.baseMb)} → ${mb(deleted.peakMb)} MB |
| Delete account: the job, killed once part way (${leftAtKill.toLocaleString("en-US")} rows left then) | ${(jobMs / 1000).toFixed(1)} s until ${left} rows of the account are left | | |
`);
} finally {
  await server.stop();
  await stopAll();
}
