// What bench/profile.mjs and bench/profile-d1.mjs share: the server with the seeded account, a
// Chrome DevTools Protocol session with one of its Workers' isolates, the workerd thread's CPU from
// /proc, and a .cpuprofile's self time by function and file. bench/README.md.
import { execSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { load, makeAgent } from "./load.mjs";
import { resolvePage } from "./pages.mjs";
import { seedAccount } from "./seed.mjs";
import { startServer } from "./server.mjs";

/**
 * The server the profiles measure, serving the copy of the build, with the seeded account (1,000
 * debtors, 1,000 schedules, 20,000 deliveries; PROFILE_SMALL=1: the small account of the
 * benchmark). Returns the server and the account.
 */
export async function startProfileServer(port) {
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
  return { server, account };
}

/**
 * A Worker's own inspector target ("core:user:dunly": the app Worker; "d1:db": local D1).
 * wrangler's inspector proxy (--inspector-port) attaches to a Worker that never runs the pages
 * here, so this asks workerd itself: every local port a workerd process of `server` listens on is
 * tried for the DevTools /json list, and the target with that id is the one.
 */
async function inspectorTarget(server, id) {
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
  throw new Error(`no workerd of this server lists ${id} (is \`ss\` installed?)`);
}

/** One Chrome DevTools Protocol session over the inspector's WebSocket. */
export async function connect(server, targetId = "core:user:dunly") {
  const target = await inspectorTarget(server, targetId);
  const ws = new WebSocket(target.webSocketDebuggerUrl);
  await new Promise((resolve, reject) => {
    ws.onopen = resolve;
    ws.onerror = reject;
  });
  let id = 0;
  const pending = new Map();
  // The isolate's execution context, once Runtime.enable has announced it (Runtime.evaluate needs it).
  let contextId = null;
  ws.onmessage = (event) => {
    const message = JSON.parse(event.data);
    if (message.method === "Runtime.executionContextCreated") contextId = message.params.context.id;
    if (message.id && pending.has(message.id)) {
      const { resolve, reject } = pending.get(message.id);
      pending.delete(message.id);
      if (message.error) reject(new Error(message.error.message));
      else resolve(message.result);
    }
  };
  const sent = (method, params) =>
    new Promise((resolve, reject) => {
      id += 1;
      pending.set(id, { resolve, reject });
      ws.send(JSON.stringify({ id, method, params }));
    });
  // workerd reads an inspector message when the isolate next runs: with no request in flight the
  // answer waits (this is what made a run hang now and then at "inspector: …"). A request to the
  // trivial route every 200 ms until the answer comes wakes it.
  const send = async (method, params = {}) => {
    const answer = sent(method, params);
    let answered = false;
    answer.then(
      () => {
        answered = true;
      },
      () => {
        answered = true;
      },
    );
    for (;;) {
      await Promise.race([answer, new Promise((r) => setTimeout(r, 200))]);
      if (answered) return answer;
      await fetch(`${server.origin}/api/does-not-exist`).then(
        (res) => res.arrayBuffer(),
        () => {},
      );
    }
  };
  return {
    send,
    close: () => ws.close(),
    title: target.title,
    pid: target.pid,
    get contextId() {
      return contextId;
    },
  };
}

const TICKS_PER_SECOND = Number(execSync("getconf CLK_TCK", { encoding: "utf8" }).trim()) || 100;

/** CPU time (ms) each thread of a process has used so far, by thread id (Linux /proc). */
export function threadCpu(pid) {
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
  const busiest = busiestThreadMs(before, after);
  return { share: Math.min(1, busiest / wallMs), ms: busiest };
}

/** The CPU (ms) the busiest thread used between two threadCpu readings. */
export function busiestThreadMs(before, after) {
  let busiest = 0;
  for (const [tid, ms] of after) busiest = Math.max(busiest, ms - (before.get(tid) ?? 0));
  return busiest;
}

/** Self time per function and per source file of a .cpuprofile. */
export function summarize(profile) {
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
 * The isolate's own running time in a .cpuprofile, in µs: its non-idle samples times the sampler's
 * period. The period is the sampler's tick while the isolate runs (about 0.28 ms here for the 0.2 ms
 * asked): the median of the gaps between two non-idle samples in a row, near the shortest ones. A sample is taken only while
 * the isolate runs, so unlike the sum of the samples' time deltas (`summarize`'s total, which
 * charges a sample with everything since the previous one: local D1's isolate, workerd's own HTTP
 * between the Workers), this counts only the time the isolate itself was on the thread: what
 * Cloudflare counts as a Worker's CPU time. It is a sampling estimate (bench/README.md).
 */
export function isolateTime(profile) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const busy = profile.samples.map((id) => byId.get(id).callFrame.functionName !== "(idle)");
  const gaps = [];
  let samples = 0;
  for (let i = 0; i < busy.length; i += 1) {
    if (!busy[i]) continue;
    samples += 1;
    if (i > 0 && busy[i - 1]) gaps.push(profile.timeDeltas[i] ?? 0);
  }
  gaps.sort((a, b) => a - b);
  // Two busy samples in a row may still lie on either side of a stretch off the thread (a short
  // request's D1 call): only the gaps near the shortest ones are the sampler's ticks.
  const ticks = gaps.filter((gap) => gap <= 2 * gaps[Math.floor(gaps.length / 10)]);
  const period = ticks.length > 0 ? ticks[Math.floor(ticks.length / 2)] : 0;
  return { samples, period, us: samples * period };
}

/**
 * One page profiled: `path` (":id" is the account's second debtor) of the target's server, signed
 * in with `headers`, at 10 connections for `seconds` after 2 s of warming up, each of `sessions`
 * (the first one the app Worker's) sampling every 0.2 ms meanwhile. Returns the page, the load's figures, the share of the run the Worker's thread
 * had a core and its CPU (onCpu), and each session's .cpuprofile.
 */
export async function profilePage({ server, account, headers, seconds }, path, sessions) {
  const page = await resolvePage(server.origin, path.replace(":id", String(account.debtorIds[1])), headers);
  const url = `${server.origin}${page.path}`;
  const agent = makeAgent(10);
  await load({ connections: 10, durationMs: 2_000, next: () => ({ url, headers }), agent });
  for (const session of sessions) await session.send("Profiler.start");
  const cpuBefore = threadCpu(sessions[0].pid);
  const started = performance.now();
  const run = await load({ connections: 10, durationMs: seconds * 1000, next: () => ({ url, headers }), agent });
  const { share, ms: threadMs } = onCpu(cpuBefore, threadCpu(sessions[0].pid), performance.now() - started);
  const profiles = [];
  for (const session of sessions) profiles.push((await session.send("Profiler.stop")).profile);
  agent.destroy();
  return { page, run, share, threadMs, profiles };
}

/** Turns the session's profiler on, sampling every 0.2 ms. */
export async function enableProfiler(session) {
  await session.send("Profiler.enable");
  await session.send("Profiler.setSamplingInterval", { interval: 200 });
}
