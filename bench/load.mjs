// A small HTTP load generator (no dependency): N concurrent loops over keep-alive connections for
// a duration or a number of requests, recording each request's latency (time to the last byte of
// the body), requests per second, statuses and errors. Used for every figure of bench/RESULTS.md.
import http from "node:http";
import { performance } from "node:perf_hooks";

/** The p-th percentile (0-100) of an ascending array, nearest rank. */
export function percentile(sorted, p) {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))];
}

/**
 * One request over `agent`; resolves { status, ms, bytes, location, headers, body? } once the body
 * has arrived (`body` only with `keepBody`), or { error, ms } (a network error or a timeout).
 */
export function request(agent, { url, method = "GET", headers = {}, body, timeoutMs = 60_000, keepBody = false }) {
  const started = performance.now();
  const target = new URL(url);
  const payload = body === undefined ? undefined : Buffer.from(typeof body === "string" ? body : JSON.stringify(body));
  return new Promise((resolve) => {
    const req = http.request(
      {
        agent,
        method,
        hostname: target.hostname,
        port: target.port,
        path: `${target.pathname}${target.search}`,
        headers: payload ? { ...headers, "content-length": payload.length } : headers,
        timeout: timeoutMs,
      },
      (res) => {
        let bytes = 0;
        const chunks = [];
        res.on("data", (chunk) => {
          bytes += chunk.length;
          if (keepBody) chunks.push(chunk);
        });
        res.on("end", () =>
          resolve({
            status: res.statusCode,
            ms: performance.now() - started,
            bytes,
            location: res.headers.location,
            headers: res.headers,
            body: chunks.length > 0 ? Buffer.concat(chunks).toString("utf8") : undefined,
          }),
        );
        res.on("error", (error) => resolve({ error: error.message, ms: performance.now() - started }));
      },
    );
    req.on("timeout", () => req.destroy(new Error(`timeout after ${timeoutMs} ms`)));
    req.on("error", (error) => resolve({ error: error.message, ms: performance.now() - started }));
    if (payload) req.write(payload);
    req.end();
  });
}

/** A keep-alive agent for `connections` concurrent loops. */
export function makeAgent(connections) {
  return new http.Agent({ keepAlive: true, maxSockets: connections, maxFreeSockets: connections });
}

/**
 * Runs `connections` loops that each send `next()` (a request spec, see `request`) back to back,
 * until `durationMs` has passed or `requests` were started. A status not in `expect` (default:
 * 2xx) counts as an error. Returns the summary: requests, rps, p50/p90/p99/max ms, errors and
 * the statuses seen.
 */
export async function load({ connections, durationMs, requests: maxRequests, next, expect, agent }) {
  const ownAgent = !agent;
  const pool = agent ?? makeAgent(connections);
  const latencies = [];
  const statuses = {};
  const errorSamples = [];
  let errors = 0;
  let started = 0;
  let bytes = 0;
  const ok = expect ?? ((status) => status >= 200 && status < 300);
  const t0 = performance.now();
  const deadline = durationMs ? t0 + durationMs : Number.POSITIVE_INFINITY;
  const loop = async () => {
    while (performance.now() < deadline && (maxRequests === undefined || started < maxRequests)) {
      started += 1;
      const res = await request(pool, next());
      latencies.push(res.ms);
      if (res.error) {
        errors += 1;
        statuses.error = (statuses.error ?? 0) + 1;
        if (errorSamples.length < 5) errorSamples.push(res.error);
        continue;
      }
      bytes += res.bytes;
      statuses[res.status] = (statuses[res.status] ?? 0) + 1;
      if (!ok(res.status)) {
        errors += 1;
        if (errorSamples.length < 5) errorSamples.push(`HTTP ${res.status}`);
      }
    }
  };
  await Promise.all(Array.from({ length: connections }, loop));
  const elapsed = (performance.now() - t0) / 1000;
  if (ownAgent) pool.destroy();
  const sorted = latencies.sort((a, b) => a - b);
  return {
    requests: sorted.length,
    seconds: elapsed,
    rps: sorted.length / elapsed,
    p50: percentile(sorted, 50),
    p90: percentile(sorted, 90),
    p99: percentile(sorted, 99),
    max: sorted.at(-1) ?? Number.NaN,
    errors,
    errorSamples,
    statuses,
    avgBytes: sorted.length > 0 ? bytes / sorted.length : 0,
    latencies: sorted,
  };
}

/** One summary of several runs of the same route (`load` results): their requests pooled. */
export function mergeRuns(runs) {
  const sorted = runs.flatMap((r) => r.latencies).sort((a, b) => a - b);
  const requests = sorted.length;
  const seconds = runs.reduce((sum, r) => sum + r.seconds, 0);
  const statuses = {};
  for (const r of runs) for (const [k, v] of Object.entries(r.statuses)) statuses[k] = (statuses[k] ?? 0) + v;
  return {
    requests,
    seconds,
    rps: requests / seconds,
    p50: percentile(sorted, 50),
    p90: percentile(sorted, 90),
    p99: percentile(sorted, 99),
    max: sorted.at(-1) ?? Number.NaN,
    errors: runs.reduce((sum, r) => sum + r.errors, 0),
    errorSamples: runs.flatMap((r) => r.errorSamples).slice(0, 5),
    statuses,
    avgBytes: requests > 0 ? runs.reduce((sum, r) => sum + r.avgBytes * r.requests, 0) / requests : 0,
    latencies: sorted,
  };
}

/**
 * Measures one route: warm-up (`warmupMs` at the same concurrency, not recorded), then `durationMs`
 * recorded. `spec` is a request spec (or a function returning one).
 */
export async function measureRoute({ spec, connections, durationMs, warmupMs, expect }) {
  const next = typeof spec === "function" ? spec : () => spec;
  const agent = makeAgent(connections);
  try {
    if (warmupMs > 0) await load({ connections, durationMs: warmupMs, next, expect, agent });
    return await load({ connections, durationMs, next, expect, agent });
  } finally {
    agent.destroy();
  }
}
