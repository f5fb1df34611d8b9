// Streamed exports and the delivery archive, measured on the production build under `wrangler dev`
// (docs/decisions/022), on the
// benchmark's own accounts (bench/seed.mjs: the main one, 1,000 debtors and 20,000 deliveries; the
// big one, 2,000 debtors and 200,000 deliveries, both over the last 180 days):
//
//   1. /report.csv of both accounts and /debtors.csv of the big one: time to the last byte (median
//      of BENCH_EXPORT_RUNS), rows and bytes, and the workerd process's resident memory sampled
//      every 10 ms during each download (the whole process: both Workers, D1's SQLite and the
//      runtime, so an upper bound on what the export's isolate holds).
//   2. The archive over the big account, its deliveries first spread over 24 months (the server
//      stopped, a quarter of them moved back by 6, 12 and 18 months each, by id): the rows older
//      than 13 months, per status and in the report's totals, before; the cron trigger (GET
//      /cdn-cgi/handler/scheduled) run until no old row is left, as the real cron would run every
//      5 minutes; then the live rows, the rollups, the report's totals and every archive file
//      downloaded through /report/archive/:month and counted, line by line and by id.
//
// Needs Node 22 (node:sqlite, as bench/seed.mjs) and the sqlite3 shell for the counts.
//
//   npm run build && node bench/exports.mjs          # BENCH_PORT (8897), BENCH_EXPORT_RUNS (3)
import { execFileSync, spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { seedAccount } from "./seed.mjs";
import { snapshotBuild, startServer, stopAll } from "./server.mjs";

process.env.PATH = `${process.cwd()}/node_modules/.bin:${process.env.PATH}`;
const PORT = Number(process.env.BENCH_PORT ?? 8897);
const RUNS = Number(process.env.BENCH_EXPORT_RUNS ?? 3);
const DAY = 86_400_000;
const now = Date.now();

const MAIN = { tag: "main", debtors: 1_000, schedules: 1_000, deliveries: 20_000, seed: 1 };
const BIG = { tag: "big", debtors: 2_000, schedules: 2_000, deliveries: 200_000, seed: 2 };

function sql(path, text) {
  // The server writes the same file: wait for its lock rather than fail.
  const out = spawnSync("sqlite3", [path], { input: `.timeout 30000\n${text}`, encoding: "utf8", maxBuffer: 64 << 20 });
  if (out.status !== 0) throw new Error(`sqlite3 failed: ${out.stderr}`);
  return out.stdout;
}

/** Moves a quarter of the account's deliveries back by 6, 12 and 18 months each (by id): 24 months of them. */
function spreadOverTwoYears(path, ownerId) {
  const shift = `(id % 4) * ${183 * DAY}`;
  sql(
    path,
    `UPDATE deliveries SET created_at = created_at - ${shift}, sent_at = sent_at - ${shift},
       delivered_at = delivered_at - ${shift} WHERE owner_id = '${ownerId}';`,
  );
}

/** The workerd processes of the server's process group (wrangler dev and what it started). */
function workerdPids(groupId) {
  const out = execFileSync("ps", ["-eo", "pid=,pgid=,comm="], { encoding: "utf8" });
  return out
    .split("\n")
    .map((l) => l.trim().split(/\s+/))
    .filter(([, pgid, comm]) => Number(pgid) === groupId && comm?.startsWith("workerd"))
    .map(([pid]) => Number(pid));
}
const rssMb = (pid) => {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return m ? Number(m[1]) / 1024 : 0;
  } catch {
    return 0;
  }
};

async function download(origin, path, token, pids) {
  const before = pids.reduce((s, p) => s + rssMb(p), 0);
  let peak = before;
  const timer = setInterval(() => {
    peak = Math.max(
      peak,
      pids.reduce((s, p) => s + rssMb(p), 0),
    );
  }, 10);
  const started = performance.now();
  const res = await fetch(`${origin}${path}`, { headers: { Cookie: `dunly_session=${token}` } });
  const firstByte = performance.now() - started;
  const body = Buffer.from(await res.arrayBuffer());
  const ms = performance.now() - started;
  clearInterval(timer);
  if (res.status !== 200) throw new Error(`${path} answered ${res.status}`);
  return { ms, firstByte, bytes: body.length, text: body.toString("utf8"), before, peak };
}

/** A single-fetch (`.data`) answer's plain values (React Router's turbo-stream, first line), as tests/integration/data-helpers.ts reads it. */
function decodeTurbo(text) {
  const values = JSON.parse(text.split("\n")[0]);
  const special = { "-7": undefined, "-5": null, "-2": Number.NaN, "-4": -0 };
  const hydrate = (index) => {
    if (String(index) in special) return special[String(index)];
    const value = values[index];
    if (!value || typeof value !== "object") return value;
    if (Array.isArray(value)) return value.map((i) => hydrate(i));
    const out = {};
    for (const [k, i] of Object.entries(value)) out[String(hydrate(Number(k.slice(1))))] = hydrate(i);
    return out;
  };
  return hydrate(0);
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function measureExport(origin, path, token, pids, label) {
  const runs = [];
  for (let i = 0; i < RUNS; i++) runs.push(await download(origin, path, token, pids));
  const lines = runs[0].text.split("\r\n").length - 1;
  const ms = median(runs.map((r) => r.ms));
  const growth = Math.max(...runs.map((r) => r.peak - r.before));
  console.log(
    `${label}: ${lines} rows, ${(runs[0].bytes / 1e6).toFixed(1)} MB, ${ms.toFixed(0)} ms to the last byte (median of ${RUNS}; runs ${runs.map((r) => r.ms.toFixed(0)).join(", ")} ms; first byte ${median(runs.map((r) => r.firstByte)).toFixed(0)} ms), workerd RSS ${runs[0].before.toFixed(0)} MB before, at most +${growth.toFixed(0)} MB during`,
  );
  return { lines, ms, growth };
}

function counts(path, ownerId, cutoff) {
  const q = (text) => sql(path, `.mode json\n${text}`);
  const parse = (text) => (text.trim() ? JSON.parse(text) : []);
  return {
    live: parse(q(`SELECT count(*) AS n FROM deliveries WHERE owner_id = '${ownerId}'`))[0].n,
    old: parse(q(`SELECT count(*) AS n FROM deliveries WHERE owner_id = '${ownerId}' AND created_at < ${cutoff}`))[0].n,
    rollups: parse(q(`SELECT coalesce(sum(n), 0) AS n FROM delivery_rollups WHERE owner_id = '${ownerId}'`))[0].n,
    statusCounts: parse(
      q(`SELECT status, n FROM delivery_status_counts WHERE owner_id = '${ownerId}' AND n != 0 ORDER BY status`),
    ),
    oldByStatus: parse(
      q(
        `SELECT status, count(*) AS n FROM deliveries WHERE owner_id = '${ownerId}' AND created_at < ${cutoff} GROUP BY status ORDER BY status`,
      ),
    ),
    rolledByStatus: parse(
      q(
        `SELECT status, sum(n) AS n FROM delivery_rollups WHERE owner_id = '${ownerId}' GROUP BY status ORDER BY status`,
      ),
    ),
    archives: parse(q(`SELECT month, rows, bytes FROM delivery_archives WHERE owner_id = '${ownerId}' ORDER BY month`)),
    oldIds: q(
      `SELECT group_concat(id) AS ids FROM deliveries WHERE owner_id = '${ownerId}' AND created_at < ${cutoff}`,
    ),
  };
}

async function main() {
  snapshotBuild();
  let groupId = 0;
  const accounts = {};
  const server = await startServer({
    port: PORT,
    persist: ".wrangler/bench-state-exports",
    log: (line) => {
      console.log(line);
      const m = /pid (\d+)/.exec(line);
      if (m) groupId = Number(m[1]);
    },
    beforeStart: (path) => {
      const t = performance.now();
      accounts.main = seedAccount(path, { ...MAIN, now });
      accounts.big = seedAccount(path, { ...BIG, now });
      console.log(
        `seeded ${MAIN.deliveries} + ${BIG.deliveries} deliveries in ${((performance.now() - t) / 1000).toFixed(1)} s`,
      );
    },
  });
  try {
    let pids = workerdPids(groupId);
    console.log(`workerd pids: ${pids.join(", ")}`);
    const { origin, sqlitePath } = server;
    // Warm the isolate and the routes.
    await download(origin, "/report.csv?period=today", accounts.main.token, pids);

    console.log("\n## Streamed exports");
    await measureExport(origin, "/report.csv", accounts.main.token, pids, "/report.csv, 20,000 deliveries");
    await measureExport(origin, "/report.csv", accounts.big.token, pids, "/report.csv, 200,000 deliveries");
    await measureExport(origin, "/debtors.csv", accounts.big.token, pids, "/debtors.csv, 2,000 debtors");

    console.log("\n## The archive over the 200,000-delivery account (spread over 24 months)");
    await server.restart((path) => spreadOverTwoYears(path, accounts.big.userId));
    pids = workerdPids(groupId);
    const cutoff = (() => {
      const d = new Date(now);
      return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - 13, 1);
    })();
    const report = async (query = "") => {
      const res = await fetch(`${origin}/report.data${query}`, {
        headers: { Cookie: `dunly_session=${accounts.big.token}` },
      });
      return decodeTurbo(await res.text())["routes/report"].data.totals;
    };
    const totals = (t) => JSON.stringify(t);
    const debtor = sql(sqlitePath, `SELECT min(id) + 1 FROM debtors WHERE owner_id = '${accounts.big.userId}';`).trim();
    const before = counts(sqlitePath, accounts.big.userId, cutoff);
    const reportBefore = await report();
    const reportDebtorBefore = await report(`?debtor=${debtor}`);
    const sentCsvBefore =
      (await download(origin, "/report.csv", accounts.big.token, pids)).text.split("\r\n").length - 1;
    console.log(
      `before: ${before.live} live deliveries, ${before.old} older than 13 months (${JSON.stringify(before.oldByStatus)}), status counts ${JSON.stringify(before.statusCounts)}`,
    );
    const started = performance.now();
    let runs = 0;
    const oldLeft = () =>
      Number(
        sql(
          sqlitePath,
          `SELECT count(*) FROM deliveries WHERE owner_id = '${accounts.big.userId}' AND created_at < ${cutoff};`,
        ),
      );
    for (;;) {
      const t = performance.now();
      const res = await fetch(`${origin}/cdn-cgi/handler/scheduled?cron=${encodeURIComponent("*/5 * * * *")}`);
      await res.arrayBuffer();
      runs++;
      // The run goes on in waitUntil: done once the count has not moved for 3 s.
      let left = oldLeft();
      for (let still = 0; still < 3; ) {
        await new Promise((r) => setTimeout(r, 1000));
        const now = oldLeft();
        still = now === left ? still + 1 : 0;
        left = now;
      }
      console.log(`  cron run ${runs}: ${((performance.now() - t) / 1000 - 3).toFixed(1)} s, ${left} old rows left`);
      if (left === 0 || runs > 20) break;
    }
    const elapsed = (performance.now() - started) / 1000;
    const after = counts(sqlitePath, accounts.big.userId, cutoff);
    const reportAfter = await report();
    const reportDebtorAfter = await report(`?debtor=${debtor}`);
    let fileRows = 0;
    const ids = new Set();
    for (const a of after.archives) {
      const file = await download(origin, `/report/archive/${a.month}`, accounts.big.token, pids);
      const lines = file.text.split("\n").filter(Boolean);
      fileRows += lines.length;
      for (const l of lines) ids.add(JSON.parse(l).id);
      if (lines.length !== a.rows) throw new Error(`${a.month}: ${lines.length} lines, listed ${a.rows}`);
    }
    const movedIds = String(JSON.parse(before.oldIds)[0].ids ?? "")
      .split(",")
      .filter(Boolean)
      .map(Number);
    const missing = movedIds.filter((id) => !ids.has(id)).length;
    console.log(
      `after: ${runs} cron runs in ${elapsed.toFixed(1)} s; ${after.live} live deliveries, ${after.old} older than 13 months; ${after.archives.length} files holding ${fileRows} rows (${ids.size} distinct ids; ${missing} of the ${movedIds.length} moved ids missing); rollups count ${after.rollups} (${JSON.stringify(after.rolledByStatus)}); status counts ${JSON.stringify(after.statusCounts)}`,
    );
    console.log(`live + archived: ${after.live} + ${fileRows} = ${after.live + fileRows} (before: ${before.live})`);
    console.log(`report totals before: ${totals(reportBefore)}\nreport totals after:  ${totals(reportAfter)}`);
    console.log(
      `report of one debtor before: ${totals(reportDebtorBefore)}\nreport of one debtor after:  ${totals(reportDebtorAfter)}`,
    );
    const sentCsvAfter =
      (await download(origin, "/report.csv", accounts.big.token, pids)).text.split("\r\n").length - 1;
    console.log(
      `/report.csv rows before ${sentCsvBefore}, after ${sentCsvAfter} (the archived months are their files)`,
    );
    const biggest = after.archives.reduce((m, a) => (a.rows > m.rows ? a : m), { rows: 0 });
    console.log(`largest file: ${biggest.month}, ${biggest.rows} rows, ${(biggest.bytes / 1e6).toFixed(1)} MB`);
    const ok =
      after.old === 0 &&
      missing === 0 &&
      fileRows === before.old &&
      after.live + fileRows === before.live &&
      JSON.stringify(after.statusCounts) === JSON.stringify(before.statusCounts) &&
      totals(reportAfter) === totals(reportBefore) &&
      totals(reportDebtorAfter) === totals(reportDebtorBefore);
    console.log(ok ? "nothing lost" : "MISMATCH");
    if (!ok) process.exitCode = 1;
  } finally {
    await stopAll();
  }
}

await main();
