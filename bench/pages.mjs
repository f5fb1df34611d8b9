// The measurements against a running server: routes at N connections, the template render time,
// first-load JavaScript per page and the write-under-load run.
import { firstLoadJs } from "./client-js.mjs";
import { load, makeAgent, measureRoute, mergeRuns, request } from "./load.mjs";
import { query } from "./seed.mjs";

/** Request headers of a signed-in browser (session cookie, the boot script's tz cookie). */
export function browserHeaders(token) {
  const cookie = [token ? `dunly_session=${token}` : null, "tz=Europe/Berlin"].filter(Boolean).join("; ");
  return { cookie, accept: "text/html,application/xhtml+xml,*/*", "user-agent": "dunly-bench" };
}

/**
 * The URL a browser ends up on for `path`: same-origin redirects are followed (the dashboard
 * redirects to ?debtor=<first>), so the figures are for the page the user sees. Returns
 * { path, status, body }.
 */
export async function resolvePage(origin, path, headers) {
  const agent = makeAgent(1);
  try {
    let current = path;
    for (let hop = 0; hop < 5; hop++) {
      const res = await request(agent, { url: `${origin}${current}`, headers, keepBody: true });
      if (res.error) throw new Error(`${current}: ${res.error}`);
      if (res.status >= 300 && res.status < 400 && res.location) {
        const next = new URL(res.location, `${origin}${current}`);
        if (next.origin !== origin) return { path: current, status: res.status, body: "" };
        current = `${next.pathname}${next.search}`;
        continue;
      }
      return { path: current, status: res.status, body: res.body ?? "" };
    }
    throw new Error(`${path}: too many redirects`);
  } finally {
    agent.destroy();
  }
}

/**
 * Measures each route ({ label, path, expect?, origin?, token? }: a route may name its own server
 * and account) after its redirects. In `rounds` rounds, each route in turn for `seconds / rounds`
 * at `connections` (warmed up first in the first round), and each route's requests pooled: a
 * machine that slows down or speeds up while this runs weighs on every route alike, so their
 * ratios hold. Returns rows with the load figures.
 */
export async function measureRoutes({ origin, token, routes, connections, seconds, warmupSeconds, rounds = 1, log }) {
  const targets = [];
  for (const route of routes) {
    const headers = browserHeaders(route.token ?? token);
    const base = route.origin ?? origin;
    const resolved = await resolvePage(base, route.path, headers);
    const expect = route.expect ?? ((s) => s >= 200 && s < 300);
    if (!expect(resolved.status)) log(`    ! ${route.path} answered ${resolved.status}`);
    targets.push({ route, resolved, expect, spec: { url: `${base}${resolved.path}`, headers }, runs: [] });
  }
  for (let round = 0; round < rounds; round += 1) {
    for (const t of targets) {
      t.runs.push(
        await measureRoute({
          spec: t.spec,
          connections,
          durationMs: (seconds * 1000) / rounds,
          warmupMs: round === 0 ? warmupSeconds * 1000 : 250,
          expect: t.expect,
        }),
      );
    }
  }
  return targets.map(({ route, resolved, runs }) => {
    const stats = mergeRuns(runs);
    log(
      `    ${route.label.padEnd(22)} p50 ${fmt(stats.p50).padStart(7)} ms  p99 ${fmt(stats.p99).padStart(7)} ms  ${fmt(stats.rps).padStart(6)} req/s  ${stats.errors} errors  ${(stats.avgBytes / 1024).toFixed(1)} KiB${route.side ? `  (${route.side})` : ""}`,
    );
    return { ...route, resolved: resolved.path, ...stats };
  });
}

export const fmt = (n, digits = 1) => (Number.isFinite(n) ? n.toFixed(digits) : "–");

/**
 * Template render time: `requests` sequential requests (one connection) to the e-mail preview
 * (/schedule/preview, the template rendered on the server) with the sample values and with a
 * real debtor's, against the trivial route at one connection. The render's own cost is the
 * difference of the medians.
 */
export async function renderTime({ origin, token, debtorId, requests, log }) {
  const headers = browserHeaders(token);
  const templates = ["initial", "follow-up", "second-follow-up", "final-notice", "single"];
  let i = 0;
  const sample = () => {
    const template = templates[i % templates.length];
    const tone = (Math.floor(i / templates.length) % 3) + 1;
    i += 1;
    return { url: `${origin}/schedule/preview?template=${template}&tone=${tone}`, headers };
  };
  const withDebtor = () => {
    const template = templates[i % 4];
    i += 1;
    return { url: `${origin}/schedule/preview?template=${template}&tone=2&debtor_id=${debtorId}`, headers };
  };
  const trivialSpec = () => ({ url: `${origin}/api/does-not-exist`, headers });
  const run = async (next, expect) => {
    const agent = makeAgent(1);
    try {
      await load({ connections: 1, requests: Math.min(20, requests), next, expect, agent });
      return await load({ connections: 1, requests, next, expect, agent });
    } finally {
      agent.destroy();
    }
  };
  const trivial = await run(trivialSpec, (s) => s === 404);
  const sampled = await run(sample);
  const debtor = await run(withDebtor);
  const result = { requests, trivial, sampled, debtor };
  log(
    `    preview p50 ${fmt(sampled.p50)} ms (sample), ${fmt(debtor.p50)} ms (a debtor's values); trivial ${fmt(trivial.p50)} ms → render ≈ ${fmt(sampled.p50 - trivial.p50)} ms`,
  );
  return result;
}

/** First-load JavaScript of each page ({ label, path, token }): its HTML as the server sends it, then the client build. */
export async function clientJs({ origin, pages, clientDir, measure = firstLoadJs }) {
  const rows = [];
  for (const page of pages) {
    const resolved = await resolvePage(origin, page.path, browserHeaders(page.token));
    rows.push({ ...page, resolved: resolved.path, status: resolved.status, ...measure(resolved.body, clientDir) });
  }
  return rows;
}

/**
 * `connections` connections on `path` for `seconds` while `writers` loops add debtors through the
 * JSON API (POST /api/debtors/add, the app's own write path). Afterwards the rows are counted in
 * D1: every successful add must be there (no lost write), and nothing more.
 */
export async function writeUnderLoad({ origin, token, userId, sqlitePath, path, connections, seconds, writers, log }) {
  const headers = browserHeaders(token);
  const resolved = await resolvePage(origin, path, headers);
  const runId = Date.now().toString(36);
  const before = Number(query(sqlitePath, "SELECT count(*) AS n FROM debtors WHERE owner_id = ?", userId)[0].n);
  const writes = { ok: 0, failed: 0, statuses: {}, latencies: [], samples: [] };
  let seq = 0;
  let stop = false;
  const writer = async () => {
    const agent = makeAgent(1);
    while (!stop) {
      const n = ++seq;
      const res = await request(agent, {
        url: `${origin}/api/debtors/add`,
        method: "POST",
        headers: { ...headers, origin, "content-type": "application/json", accept: "application/json" },
        body: {
          full_name: `Writer ${n}`,
          email: `writer-${runId}-${n}@bench.example`,
          debt: 100 + (n % 900),
          time_zone: "Europe/Berlin",
        },
        keepBody: true,
      });
      writes.latencies.push(res.ms);
      const key = res.error ? "error" : res.status;
      writes.statuses[key] = (writes.statuses[key] ?? 0) + 1;
      let ok = false;
      if (!res.error && res.status === 200) {
        try {
          ok = JSON.parse(res.body).success === true;
        } catch {
          ok = false;
        }
      }
      if (ok) writes.ok += 1;
      else {
        writes.failed += 1;
        if (writes.samples.length < 5)
          writes.samples.push(res.error ?? `HTTP ${res.status} ${res.body?.slice(0, 200)}`);
      }
    }
    agent.destroy();
  };
  // A short warm-up at a few connections, then the load and the writers together.
  await measureRoute({
    spec: { url: `${origin}${resolved.path}`, headers },
    connections: 10,
    durationMs: 1000,
    warmupMs: 2000,
  });
  const writing = Array.from({ length: writers }, writer);
  const reading = load({
    connections,
    durationMs: seconds * 1000,
    next: () => ({ url: `${origin}${resolved.path}`, headers }),
  });
  const readStats = await reading;
  stop = true;
  await Promise.all(writing);
  const rows = Number(
    query(
      sqlitePath,
      "SELECT count(*) AS n FROM debtors WHERE owner_id = ? AND email LIKE ?",
      userId,
      `writer-${runId}-%`,
    )[0].n,
  );
  const after = Number(query(sqlitePath, "SELECT count(*) AS n FROM debtors WHERE owner_id = ?", userId)[0].n);
  const sorted = writes.latencies.sort((a, b) => a - b);
  const result = {
    path: resolved.path,
    connections,
    seconds,
    writers,
    read: readStats,
    writes: {
      attempted: writes.ok + writes.failed,
      ok: writes.ok,
      failed: writes.failed,
      statuses: writes.statuses,
      samples: writes.samples,
      p50: sorted[Math.floor(sorted.length / 2)] ?? Number.NaN,
      p99: sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.99) - 1)] ?? Number.NaN,
    },
    rowsFound: rows,
    debtorsBefore: before,
    debtorsAfter: after,
    lostWrites: Math.max(0, writes.ok - rows),
    unexpectedRows: Math.max(0, rows - writes.ok),
  };
  log(
    `    ${path}: ${readStats.requests} requests, ${fmt(readStats.rps)} req/s, p50 ${fmt(readStats.p50)} ms, p99 ${fmt(readStats.p99)} ms, ${readStats.errors} errors; ` +
      `writes: ${writes.ok} ok, ${writes.failed} failed; rows in D1: ${rows} (lost ${result.lostWrites}, unexpected ${result.unexpectedRows})`,
  );
  return result;
}
