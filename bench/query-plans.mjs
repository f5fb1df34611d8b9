// The query plans of the signed-in pages: runs each page's real loader (loaded
// from app/ through Vite, as the build compiles it) against a local SQLite database with every
// migration applied and seeded like the benchmark's accounts, records every statement the loader
// sends to D1, and prints EXPLAIN QUERY PLAN for each, with how long SQLite takes to run it here.
// Writes bench/query-plans.md. Fails (exit 1) when a page query reads account data (deliveries,
// debtors, schedules, payments, debtor_events, organizations, invoices) other than through an index bounded
// by the owner, the debtor, the schedule or the row's own key (a SCAN, or a SEARCH on another
// column such as the schedules' state), or when a loader runs the same statement twice.
//
//   node bench/query-plans.mjs            # 1,000 debtors, schedules; 20,000 deliveries; 200,000 elsewhere
//   QP_DEBTORS=100 QP_DELIVERIES=2000 QP_OTHER_DELIVERIES=0 node bench/query-plans.mjs --stdout
//
// Plans here are SQLite's without ANALYZE statistics, as on D1 (it keeps none unless told to).
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import { fileURLToPath } from "node:url";

// node:sqlite is marked experimental in Node 22: its one-time warning says nothing useful here.
const emitWarning = process.emitWarning;
process.emitWarning = (warning, ...rest) =>
  String(warning).includes("SQLite") ? undefined : emitWarning.call(process, warning, ...rest);
const { DatabaseSync } = await import("node:sqlite");

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const OUT = fileURLToPath(new URL("./query-plans.md", import.meta.url));
const num = (name, fallback) => (process.env[name] ? Number(process.env[name]) : fallback);
const SIZES = {
  debtors: num("QP_DEBTORS", 1000),
  deliveries: num("QP_DELIVERIES", 20_000),
  otherDeliveries: num("QP_OTHER_DELIVERIES", 200_000),
};
/**
 * Tables that hold account data: a page may only read them through an index (the list
 * tests/integration/query-budget.test.ts checks the pages' statements against too).
 */
const ACCOUNT_TABLES = JSON.parse(
  readFileSync(new URL("../tests/support/account-tables.json", import.meta.url), "utf8"),
);
const DAY = 86_400_000;

// The database: every migration, then the accounts ------------------------------------------------

function migrate(db) {
  const dir = `${ROOT}/migrations`;
  for (const file of readdirSync(dir)
    .filter((f) => f.endsWith(".sql"))
    .sort()) {
    for (const statement of readFileSync(`${dir}/${file}`, "utf8").split("--> statement-breakpoint")) {
      if (statement.trim()) db.exec(statement);
    }
  }
}

/** One account: debtors with payments and events, one schedule each, deliveries over six months (some test sends). */
function seed(db, owner, { debtors, deliveries, now }) {
  db.prepare("INSERT INTO users (id, email, full_name) VALUES (?, ?, ?)").run(owner, `${owner}@bench.example`, owner);
  const org = db
    .prepare(
      "INSERT INTO organizations (owner_id, name, address) VALUES (?, 'Northwind Ltd', '1 Market Street') RETURNING id",
    )
    .get(owner).id;
  const insDebtor = db.prepare(
    `INSERT INTO debtors (owner_id, full_name, email, debt_cents, paid_cents, status, opt_out_key, paid_claimed_at, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
  );
  const insSchedule = db.prepare(
    `INSERT INTO schedules (id, owner_id, debtor_id, organization_id, preset, frequency, time_zone, state, stopped_reason, next_run_at, created_at)
     VALUES (?, ?, ?, ?, 'FRIENDLY_REMINDER', 'weekly', 'Europe/Berlin', ?, ?, ?, ?)`,
  );
  const insPayment = db.prepare(
    "INSERT INTO payments (owner_id, debtor_id, amount_cents, paid_on, created_at) VALUES (?, ?, 500, '2026-01-05', ?)",
  );
  // Three invoices per debtor, the last paid for a 'paid' debtor.
  const insInvoice = db.prepare(
    `INSERT INTO invoices (owner_id, debtor_id, amount_cents, currency, issued_on, due_on, status, paid_cents)
     VALUES (?, ?, ?, 'USD', '2026-01-01', ?, ?, ?)`,
  );
  const insEvent = db.prepare(
    "INSERT INTO debtor_events (owner_id, debtor_id, type, detail, created_at) VALUES (?, ?, 'schedule_created', '', ?)",
  );
  const ids = [];
  const scheduleIds = [];
  for (let i = 0; i < debtors; i++) {
    const status = i % 33 === 0 ? "bouncing" : i % 8 === 0 ? "paid" : "active";
    // Names in no particular order, so a sort by name really sorts.
    const name = `Debtor ${((i * 7919) % debtors).toString().padStart(5, "0")}`;
    const id = insDebtor.get(
      owner,
      name,
      `debtor.${i}@${owner}.example`,
      100_000,
      status === "paid" ? 100_000 : 0,
      status,
      `${owner}-${i}`,
      i % 97 === 0 ? now - i * 1000 : null,
      now - (debtors - i) * 60_000,
    ).id;
    ids.push(id);
    for (const [k, amount] of [30_000, 30_000, 40_000].entries()) {
      const paid = status === "paid" ? amount : 0;
      insInvoice.run(owner, id, amount, `2026-0${k + 2}-01`, paid ? "paid" : "open", paid);
    }
    const scheduleId = `${owner}-${String(i).padStart(6, "0")}`;
    const state = status === "paid" ? "COMPLETED" : "ENABLED";
    insSchedule.run(
      scheduleId,
      owner,
      id,
      i % 2 ? org : null,
      state,
      state === "COMPLETED" ? "paid" : null,
      state === "ENABLED" ? now + (i % 50) * DAY : null,
      now - (debtors - i) * 60_000,
    );
    scheduleIds.push(scheduleId);
    if (i % 10 === 0) insPayment.run(owner, id, now - i * 1000);
    insEvent.run(owner, id, now - i * 1000);
  }
  const insDelivery = db.prepare(
    `INSERT INTO deliveries (owner_id, schedule_id, debtor_id, occurrence_key, template, tone, status, recipient, created_at, sent_at)
     VALUES (?, ?, ?, ?, 'initial', 1, ?, ?, ?, ?)`,
  );
  const statuses = ["sent", "sent", "sent", "sent", "sent", "sent", "failed", "bounced", "sent", "deferred"];
  for (let i = 0; i < deliveries; i++) {
    const k = i % debtors;
    const at = now - Math.floor((i / deliveries) * 180 * DAY);
    const test = i % 50 === 0;
    insDelivery.run(
      owner,
      test ? null : scheduleIds[k],
      ids[k],
      test ? `test:${owner}:${at}:${i}` : `${scheduleIds[k]}:${at}`,
      statuses[i % statuses.length],
      `debtor.${k}@${owner}.example`,
      at,
      at,
    );
  }
  return { ids, scheduleIds };
}

// D1 over node:sqlite, recording what each page sends -------------------------------------------

/**
 * The part of the D1Database API drizzle uses (prepare, bind, all, raw, run, first, batch), on a
 * node:sqlite database. Every statement executed is pushed to `log` as { sql, params, batch }.
 */
function d1(db, log) {
  const execute = (sql, params, mode, batch) => {
    log.push({ sql, params, batch });
    const stmt = db.prepare(sql);
    if (mode === "raw") {
      stmt.setReturnArrays(true);
      return stmt.all(...params);
    }
    if (mode === "run") {
      const r = stmt.run(...params);
      return { success: true, results: [], meta: { changes: r.changes, last_row_id: Number(r.lastInsertRowid) } };
    }
    return { success: true, results: stmt.all(...params), meta: {} };
  };
  const statement = (sql, params = []) => ({
    sql,
    params,
    bind: (...values) => statement(sql, values),
    all: async () => execute(sql, params, "all", false),
    raw: async () => execute(sql, params, "raw", false),
    run: async () => execute(sql, params, "run", false),
    first: async (column) => {
      const row = execute(sql, params, "all", false).results[0];
      return row === undefined ? null : column ? row[column] : row;
    },
  });
  return {
    prepare: (sql) => statement(sql),
    batch: async (statements) => {
      const id = Symbol("batch");
      return statements.map((s) => execute(s.sql, s.params, "all", id));
    },
  };
}

// The pages ------------------------------------------------------------------------------------

const { createServer } = await import("vite");
const vite = await createServer({
  root: ROOT,
  configFile: false,
  logLevel: "error",
  appType: "custom",
  server: { middlewareMode: true, hmr: false, ws: false },
  resolve: { alias: { "~": `${ROOT}/app` } },
  optimizeDeps: { noDiscovery: true, include: [] },
});
const load = (path) => vite.ssrLoadModule(path);

const db = new DatabaseSync(":memory:");
migrate(db);
const now = Date.now();
db.exec("BEGIN");
const a = seed(db, "bench-a", { debtors: SIZES.debtors, deliveries: SIZES.deliveries, now });
if (SIZES.otherDeliveries > 0) seed(db, "bench-b", { debtors: 50, deliveries: SIZES.otherDeliveries, now });
db.exec("COMMIT");

const { createAppContext } = await load("/app/auth/context.server.ts");
const { SessionGate } = await load("/app/auth/session-gate.server.ts");
const { getDb } = await load("/app/db/client.server.ts");
const { hashToken } = await load("/app/auth/crypto.server.ts");
// bench-a's session: the pages read it in their own batch (docs/decisions/025), so it is among
// their statements here.
const SESSION_TOKEN = "query-plans-session";
db.prepare("INSERT INTO sessions (id, user_id, expires_at, created_at) VALUES (?, ?, ?, ?)").run(
  await hashToken(SESSION_TOKEN),
  "bench-a",
  now + 20 * DAY,
  now,
);
const first = a.ids[0];
const late = a.ids[Math.floor(a.ids.length * 0.9)];
const schedule = a.scheduleIds[Math.floor(a.scheduleIds.length / 2)];
const PAGES = [
  ["/dashboard", "dashboard.tsx"],
  [`/dashboard?debtor=${first}`, "dashboard.tsx"],
  [`/dashboard?debtor=${late}&period=30d`, "dashboard.tsx"],
  ["/debtors-list", "debtors-list.tsx"],
  ["/debtors-list?sort=name&page=3", "debtors-list.tsx"],
  ["/debtors-list?sort=owed&dir=desc", "debtors-list.tsx"],
  ["/debtors-list?q=debtor.12", "debtors-list.tsx"],
  ["/schedules-list", "schedules-list.tsx"],
  ["/schedules-list?sort=next&page=2", "schedules-list.tsx"],
  ["/schedules-list?sort=debtor", "schedules-list.tsx"],
  ["/schedules-list?q=debtor.12&period=30d", "schedules-list.tsx"],
  [`/schedules-list?debtor=${late}`, "schedules-list.tsx"],
  ["/report", "report.tsx"],
  ["/report?page=40", "report.tsx"],
  [`/report?debtor=${late}`, "report.tsx"],
  ["/report?period=7d", "report.tsx"],
  ["/report-aging.csv", "report-aging-export.ts"],
  ["/schedule", "schedule.tsx"],
  [`/schedules/${schedule}`, "schedules.details.ts", { id: schedule }],
  [`/debtors/${late}`, "debtor-timeline.tsx", { id: String(late) }],
  [`/debtors/${late}/timeline`, "debtors.timeline.ts", { id: String(late) }],
  ["/debtors/options?q=", "debtors.options.ts"],
  ["/debtors/options?q=debtor.12", "debtors.options.ts"],
  ["/iam/info", "settings.tsx", { tab: "info" }],
  ["/iam/orgs", "settings.tsx", { tab: "orgs" }],
  ["/iam/emails", "settings.tsx", { tab: "emails" }],
];

/** Runs the page's loader as React Router does, with a context whose DB records its statements. */
async function runLoader(path, file, params = {}) {
  const log = [];
  const url = new URL(path, "http://localhost");
  const DB = d1(db, log);
  const context = createAppContext({
    env: { DB },
    config: {},
    ctx: { waitUntil() {}, passThroughOnException() {} },
    session: new SessionGate(getDb(DB), SESSION_TOKEN, now),
    nonce: "",
  });
  const request = new Request(url, { headers: { Cookie: "tz=Europe%2FBerlin" } });
  const { loader } = await load(`/app/routes/${file}`);
  let outcome = "data";
  try {
    const result = await loader({ request, url, params, context });
    if (result instanceof Response) outcome = `${result.status}`;
  } catch (thrown) {
    if (!(thrown instanceof Response)) throw thrown;
    outcome = `${thrown.status} ${thrown.headers.get("Location") ?? ""}`.trim();
  }
  return { log, outcome };
}

/** The plan as SQLite prints it (indented by depth), and the mean time of the statement here. */
function explain(sql, params) {
  const rows = db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params);
  const depth = new Map([[0, -1]]);
  const lines = rows.map((r) => {
    const d = (depth.get(r.parent) ?? -1) + 1;
    depth.set(r.id, d);
    return `${"  ".repeat(d)}${r.detail}`;
  });
  const stmt = db.prepare(sql);
  stmt.all(...params);
  const runs = 10;
  const t0 = performance.now();
  for (let i = 0; i < runs; i++) stmt.all(...params);
  return { lines, ms: (performance.now() - t0) / runs };
}

/**
 * Reads of account data that are not bounded by one account: a SCAN of one of ACCOUNT_TABLES (or
 * an alias of one), or a SEARCH through an index whose first constraint is not the owner, the
 * debtor, the schedule, the row's id or the occurrence key (e.g. `schedules_due_idx (state=?)`,
 * which walks every account's enabled schedules).
 */
function unbounded(sql, lines) {
  const aliases = new Map(ACCOUNT_TABLES.map((t) => [t, t]));
  // The names a plan may use for them: `FROM deliveries AS sent`, `JOIN "debtors" "d"`.
  for (const m of sql.matchAll(/\b(?:FROM|JOIN)\s+"?(\w+)"?\s+(?:AS\s+)?"?(\w+)"?/gi)) {
    if (ACCOUNT_TABLES.includes(m[1])) aliases.set(m[2], m[1]);
  }
  const bounded =
    /USING (?:INTEGER PRIMARY KEY|(?:COVERING )?INDEX \w+ \((?:owner_id|debtor_id|schedule_id|id|rowid|occurrence_key)=)/;
  return lines.filter((line) => {
    const m = /^\s*(SCAN|SEARCH) (\w+)/.exec(line);
    return m !== null && aliases.has(m[2]) && (m[1] === "SCAN" || !bounded.test(line));
  });
}

const shortParam = (p) => (typeof p === "string" && p.length > 40 ? `${p.slice(0, 37)}…` : p);

const out = [];
const problems = [];
let seen = 0;
out.push("# Query plans of the signed-in pages");
out.push("");
out.push(
  `Generated by \`node bench/query-plans.mjs\` on ${new Date(now).toISOString().slice(0, 10)} (${os.cpus()[0]?.model ?? "unknown CPU"}, SQLite ${db.prepare("select sqlite_version() v").get().v} via node:sqlite).`,
);
out.push(
  `Each page's loader runs against a local database with every migration applied and one account of ${SIZES.debtors.toLocaleString("en-US")} debtors, as many schedules and ${SIZES.deliveries.toLocaleString("en-US")} deliveries, beside another account holding ${SIZES.otherDeliveries.toLocaleString("en-US")} deliveries. Every statement the loader sends is listed with its plan (no ANALYZE statistics, as on D1) and its mean time when run here by SQLite alone (no D1 round trip). A batch of statements is one D1 round trip.`,
);
out.push("");
const summary = [];
for (const [path, file, params] of PAGES) {
  const { log, outcome } = await runLoader(path, file, params);
  const trips = new Set(log.map((q, i) => q.batch || i)).size;
  const section = [];
  section.push(`## ${path}`);
  section.push("");
  section.push(
    `${log.length} statement${log.length === 1 ? "" : "s"} in ${trips} round trip${trips === 1 ? "" : "s"}; the loader answered ${outcome}.`,
  );
  const keys = log.map((q) => `${q.sql}\u0000${JSON.stringify(q.params)}`);
  const repeated = keys.filter((k, i) => keys.indexOf(k) !== i);
  if (repeated.length > 0) problems.push(`${path}: the same statement runs ${repeated.length + 1} times`);
  let total = 0;
  for (const [i, q] of log.entries()) {
    const { lines, ms } = explain(q.sql, q.params);
    total += ms;
    seen += 1;
    const scans = unbounded(q.sql, lines);
    for (const s of scans) problems.push(`${path}, statement ${i + 1}: ${s.trim()}`);
    section.push("");
    section.push(`${i + 1}. ${ms.toFixed(3)} ms${q.batch ? " (in a batch)" : ""}`);
    section.push("");
    section.push("   ```sql");
    section.push(`   ${q.sql}`);
    section.push(`   -- ${JSON.stringify(q.params.map(shortParam))}`);
    section.push("   ```");
    section.push("   ```");
    for (const line of lines) section.push(`   ${line}`);
    section.push("   ```");
  }
  summary.push(`| \`${path}\` | ${log.length} | ${trips} | ${total.toFixed(2)} |`);
  out.push(...section, "");
}
out.splice(
  5,
  0,
  "| page | statements | round trips | SQLite time (ms) |",
  "|---|---:|---:|---:|",
  ...summary,
  "",
  problems.length === 0
    ? `Every statement of these pages (${seen}) reads account data through an index bounded by the owner, the debtor, the schedule or the row's own key (no SCAN), and none runs twice in one request.`
    : `**Problems:**\n\n${problems.map((p) => `- ${p}`).join("\n")}`,
  "",
  "The indexes of the account tables (migrations/, app/db/schema.ts):",
  "",
  "```sql",
  ...db
    .prepare(
      `SELECT sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL AND tbl_name IN (${ACCOUNT_TABLES.map(() => "?").join(", ")}) ORDER BY tbl_name, name`,
    )
    .all(...ACCOUNT_TABLES)
    .map((r) => `${r.sql};`),
  "```",
  "",
);
await vite.close();

const text = `${out.join("\n")}\n`;
if (process.argv.includes("--stdout")) process.stdout.write(text);
else {
  writeFileSync(OUT, text);
  console.log(`Wrote ${OUT}: ${seen} statements over ${PAGES.length} pages.`);
  for (const line of summary) console.log(line);
}
if (problems.length > 0) {
  console.error(problems.join("\n"));
  process.exitCode = 1;
}
