// `node bench/profile.mjs [path…]`: a CPU profile of the app Worker while it serves signed-in pages
// of the seeded account (1,000 debtors, 1,000 schedules, 20,000 deliveries; PROFILE_SMALL=1: the
// small account) at 10 connections, PROFILE_SECONDS (6) per page.
// It serves the copy of the build (see bench/server.mjs; `npm run bench` or BENCH_SNAPSHOT=1 makes
// it), takes the profile through workerd's inspector (Chrome DevTools Protocol), prints the
// functions with the most self time and where the time went by source file, and writes the
// .cpuprofile (open it in Chrome DevTools' Performance panel) under .wrangler/. bench/README.md.
import { execSync } from "node:child_process";
import { writeFileSync } from "node:fs";
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
async function appTarget() {
  const listening = execSync("ss -ltnp", { encoding: "utf8" })
    .split("\n")
    .filter((line) => line.includes('"workerd"'));
  for (const line of listening) {
    const port = line.match(/127\.0\.0\.1:(\d+)/)?.[1];
    if (!port) continue;
    try {
      const res = await fetch(`http://127.0.0.1:${port}/json`, { signal: AbortSignal.timeout(1_000) });
      const targets = await res.json();
      const target = Array.isArray(targets) && targets.find((t) => t.id === "core:user:dunly");
      if (target) return target;
    } catch {
      // not an inspector
    }
  }
  throw new Error("no workerd inspector lists core:user:dunly (is `ss` installed?)");
}

/** One Chrome DevTools Protocol session over the inspector's WebSocket. */
async function connect() {
  const target = await appTarget();
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
  return { send, close: () => ws.close(), title: target.title };
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
  return { total, functions: top(functions, 40), files: top(files, 15) };
}

try {
  const headers = browserHeaders(account.token);
  const session = await connect();
  console.log(`inspector: ${session.title}`);
  await session.send("Profiler.enable");
  await session.send("Profiler.setSamplingInterval", { interval: 200 });
  const rows = [];
  for (const path of paths) {
    const page = await resolvePage(server.origin, path.replace(":id", String(account.debtorIds[1])), headers);
    const url = `${server.origin}${page.path}`;
    const agent = makeAgent(10);
    await load({ connections: 10, durationMs: 2_000, next: () => ({ url, headers }), agent });
    await session.send("Profiler.start");
    const run = await load({ connections: 10, durationMs: seconds * 1000, next: () => ({ url, headers }), agent });
    const { profile } = await session.send("Profiler.stop");
    agent.destroy();
    const out = `.wrangler/profile${page.path.replace(/[^a-z0-9]+/gi, "-")}.cpuprofile`;
    writeFileSync(out, JSON.stringify(profile));
    const summary = summarize(profile);
    rows.push({ path: page.path, p50: run.p50, rps: run.rps, cpu: summary.total / 1000 / run.requests });
    console.log(
      `\n${page.path}: ${run.requests} requests, p50 ${run.p50.toFixed(1)} ms, ${run.rps.toFixed(1)} req/s; ` +
        `${(summary.total / 1000).toFixed(0)} ms sampled, ${(summary.total / 1000 / run.requests).toFixed(2)} ms per request (${out})`,
    );
    console.log("by file:");
    for (const line of summary.files) console.log(line);
    console.log("by function (self time):");
    for (const line of summary.functions) console.log(line);
  }
  session.close();
  console.log("\npage: p50 at 10 connections, requests per second, sampled ms per request");
  for (const r of rows) {
    console.log(
      `${r.path.padEnd(28)} ${r.p50.toFixed(1).padStart(7)} ms ${r.rps.toFixed(1).padStart(7)}/s ${r.cpu.toFixed(2).padStart(7)} ms`,
    );
  }
} finally {
  await stopAll();
}
