// `node bench/profile-d1.mjs [path…]`: how much of bench/profile.mjs's figure is local D1. Locally
// D1 runs in workerd's own D1 Worker (a Durable Object with SQLite) on the same thread as the app
// Worker, and the profiler charges each sample with the time since the isolate's previous one, so
// D1's running time lands on the app's samples (bench/README.md). This serves the same seeded
// account the same way (10 connections, PROFILE_SECONDS per page), profiles the app Worker
// ("core:user:dunly") and the D1 Worker ("d1:db") at once, and prints beside profile.mjs's figure
// D1's share of the two isolates' non-idle samples and that share of the figure. Nothing here
// changes how profile.mjs takes its figure.
import { execSync } from "node:child_process";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { load, makeAgent } from "./load.mjs";
import { browserHeaders, resolvePage } from "./pages.mjs";
import { seedAccount } from "./seed.mjs";
import { snapshotBuild, startServer, stopAll } from "./server.mjs";

const port = Number(process.env.BENCH_PORT ?? 8832);
const seconds = Number(process.env.PROFILE_SECONDS ?? 6);
const paths = process.argv.slice(2).length > 0 ? process.argv.slice(2) : ["/debtors-list"];

if (process.env.BENCH_SNAPSHOT === "1") snapshotBuild();

let account;
const server = await startServer({
  port,
  persist: ".wrangler/profile-state",
  beforeStart: (file) => {
    // PROFILE_SMALL=1: the small account of the benchmark (1 debtor, 1 schedule, 10 deliveries).
    const size =
      process.env.PROFILE_SMALL === "1"
        ? { debtors: 1, schedules: 1, deliveries: 10 }
        : { debtors: 1000, schedules: 1000, deliveries: 20000 };
    account = seedAccount(file, { tag: "main", ...size, seed: 1 });
  },
});

/**
 * The app Worker's own inspector target. wrangler's inspector proxy (--inspector-port) attaches to
 * a Worker that never runs the pages here, so this asks workerd itself: every local port a workerd
 * process listens on is tried for the DevTools /json list, and the target named after the app
 * Worker ("core:user:dunly") is the one.
 */
async function appTarget(id = "core:user:dunly") {
  // Only the workerd this script started (in wrangler's process group): on a machine where other
  // servers of the app run, theirs list the same target.
  const ours = (line) => {
    const pid = line.match(/pid=(\d+)/)?.[1];
    try {
      return pid && Number(readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ")[2]) === server.pid;
    } catch {
      return false;
    }
  };
  const listening = execSync("ss -ltnp", { encoding: "utf8" })
    .split("\n")
    .filter((line) => line.includes('"workerd"') && ours(line));
  for (const line of listening) {
    const port = line.match(/127\.0\.0\.1:(\d+)/)?.[1];
    if (!port) continue;
    try {
      const res = await fetch(`http://127.0.0.1:${port}/json`, { signal: AbortSignal.timeout(1_000) });
      const targets = await res.json();
      const target = Array.isArray(targets) && targets.find((t) => t.id === id);
      if (target) return { ...target, pid: Number(line.match(/pid=(\d+)/)?.[1]) };
    } catch {
      // not an inspector
    }
  }
  throw new Error("no workerd of this server lists core:user:dunly (is `ss` installed?)");
}

/** One Chrome DevTools Protocol session over the inspector's WebSocket. */
async function connect(targetId) {
  const target = await appTarget(targetId);
  const ws = new WebSocket(target.webSocketDebuggerUrl);
  await new Promise((resolve, reject) => {
    ws.onopen = resolve;
    ws.onerror = reject;
  });
  let id = 0;
  const pending = new Map();
  ws.onmessage = (event) => {
    const message = JSON.parse(event.data);
    if (message.id && pending.has(message.id)) {
      const { resolve, reject } = pending.get(message.id);
      pending.delete(message.id);
      if (message.error) reject(new Error(message.error.message));
      else resolve(message.result);
    }
  };
  const send = (method, params = {}) =>
    new Promise((resolve, reject) => {
      id += 1;
      pending.set(id, { resolve, reject });
      ws.send(JSON.stringify({ id, method, params }));
    });
  return { send, close: () => ws.close(), title: target.title, pid: target.pid };
}

const TICKS_PER_SECOND = Number(execSync("getconf CLK_TCK", { encoding: "utf8" }).trim()) || 100;

/** CPU time (ms) each thread of a process has used so far, by thread id (Linux /proc). */
function threadCpu(pid) {
  const out = new Map();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const fields = readFileSync(`/proc/${pid}/task/${tid}/stat`, "utf8").split(") ")[1].split(" ");
      out.set(tid, ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND);
    } catch {
      // the thread ended
    }
  }
  return out;
}

/**
 * The CPU time the busiest workerd thread (the one that runs the Worker, and locally D1 too) used
 * during the run, and its share of the run: on a machine shared with other work the sampler's clock
 * keeps running while the thread waits for a core, and that time is charged to whatever was on the
 * stack.
 */
function onCpu(before, after, wallMs) {
  let busiest = 0;
  for (const [tid, ms] of after) busiest = Math.max(busiest, ms - (before.get(tid) ?? 0));
  return { share: Math.min(1, busiest / wallMs), ms: busiest };
}

/** Self time per function and per source file of a .cpuprofile. */
function summarize(profile) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map();
  const deltas = profile.timeDeltas;
  for (let i = 0; i < profile.samples.length; i += 1) {
    const node = byId.get(profile.samples[i]);
    self.set(node.id, (self.get(node.id) ?? 0) + (deltas[i] ?? 0));
  }
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  // The isolate waiting (on D1, on the network): sampled, but not Worker CPU time.
  let idle = 0;
  for (const [nodeId, us] of self) if (byId.get(nodeId).callFrame.functionName === "(idle)") idle += us;
  const functions = new Map();
  const files = new Map();
  for (const [nodeId, us] of self) {
    const { functionName, url, lineNumber } = byId.get(nodeId).callFrame;
    const file = (url || "(native)").replace(/^.*\//, "");
    const key = `${functionName || "(anonymous)"} ${file}:${lineNumber + 1}`;
    functions.set(key, (functions.get(key) ?? 0) + us);
    files.set(file, (files.get(file) ?? 0) + us);
  }
  const top = (map, n) =>
    [...map.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(
        ([k, us]) => `${((100 * us) / total).toFixed(1).padStart(5)}%  ${(us / 1000).toFixed(0).padStart(6)} ms  ${k}`,
      );
  return { total, idle, functions: top(functions, 40), files: top(files, 15) };
}

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
  const headers = browserHeaders(account.token);
  const app = await connect("core:user:dunly");
  const d1 = await connect("d1:db");
  for (const s of [app, d1]) {
    await s.send("Profiler.enable");
    await s.send("Profiler.setSamplingInterval", { interval: 200 });
  }
  const rows = [];
  for (const path of paths) {
    const page = await resolvePage(server.origin, path.replace(":id", String(account.debtorIds[1])), headers);
    const url = `${server.origin}${page.path}`;
    const agent = makeAgent(10);
    await load({ connections: 10, durationMs: 2_000, next: () => ({ url, headers }), agent });
    await app.send("Profiler.start");
    await d1.send("Profiler.start");
    const cpuBefore = threadCpu(app.pid);
    const started = performance.now();
    const run = await load({ connections: 10, durationMs: seconds * 1000, next: () => ({ url, headers }), agent });
    const { share, ms: threadMs } = onCpu(cpuBefore, threadCpu(app.pid), performance.now() - started);
    const { profile: appProfile } = await app.send("Profiler.stop");
    const { profile: d1Profile } = await d1.send("Profiler.stop");
    agent.destroy();
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
