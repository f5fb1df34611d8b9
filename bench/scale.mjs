// The scale simulation behind docs/scale.md: how big one D1 database gets and how fast its one
// writer goes, measured on the real schema (every migration in migrations/) with node:sqlite.
//
//   node bench/scale.mjs                       # 1,000 full accounts + 10,000 thin ones (about 10 minutes)
//   SCALE_FULL=100 SCALE_WIDE=1000 node bench/scale.mjs   # a quick look
//
// 1. SCALE_FULL accounts shaped like docs/scale.md's customer: 10 debtors owing one invoice each, 10
//    daily schedules, and SCALE_DAYS days of one reminder a day per debtor (395: the 13 months that
//    stay in D1 before deliveries are rolled up and archived to R2). Rows come from
//    bench/seed.mjs (the benchmark's own rows: statuses, test sends, events, sessions).
// 2. SCALE_WIDE more accounts with SCALE_WIDE_DAYS days each, so the database holds as many accounts
//    as this machine fits in the time, and the writer is measured on a file of that size.
// 3. Bytes per table and index (SQLite's dbstat), per account and per delivery.
// 4. The reminder path's writes replayed on that file, one transaction per D1 batch as the engine
//    sends them (claimOccurrence's counting upsert per alarm; per 100 reminders createBatch's batch
//    row and pin, settleOccurrences' 50 at a time, the batch row's removal), with SQLite's own
//    change count (triggers included) and the index entries each write touches: D1 bills an index
//    entry as a row written. The result is the reminders a second that one writer sustains.
// 5. Prints the figures as JSON and Markdown (SCALE_OUT, default bench/SCALE.md).
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { cpus } from "node:os";
import { join } from "node:path";
import { openDb, seedAccount } from "./seed.mjs";

const FULL = Number(process.env.SCALE_FULL ?? 1000);
const DAYS = Number(process.env.SCALE_DAYS ?? 395);
const WIDE = Number(process.env.SCALE_WIDE ?? 10_000);
const WIDE_DAYS = Number(process.env.SCALE_WIDE_DAYS ?? 30);
const REPLAY = Number(process.env.SCALE_REPLAY ?? 5000);
const DIR = process.env.SCALE_DIR ?? ".wrangler/scale";
const OUT = process.env.SCALE_OUT ?? "bench/SCALE.md";
const DEBTORS = 10;

const path = join(DIR, "scale.sqlite");
rmSync(DIR, { recursive: true, force: true });
mkdirSync(DIR, { recursive: true });

/** Every migration, in order, as D1 applies them (statements split where drizzle-kit marks them). */
function migrate(file) {
  const db = openDb(file);
  db.exec("PRAGMA journal_mode = WAL");
  for (const name of readdirSync("migrations")
    .filter((f) => f.endsWith(".sql"))
    .sort()) {
    for (const statement of readFileSync(join("migrations", name), "utf8").split("--> statement-breakpoint")) {
      if (statement.trim()) db.exec(statement);
    }
  }
  db.close();
}

const log = (...args) => console.log(`[scale ${new Date().toISOString().slice(11, 19)}]`, ...args);
const started = Date.now();
migrate(path);
log(`migrated ${path}`);

/** Seeds `count` accounts of DEBTORS debtors, DEBTORS daily schedules and `days` reminders each. */
function seed(prefix, count, days) {
  const t0 = Date.now();
  for (let i = 0; i < count; i++) {
    seedAccount(path, {
      tag: `${prefix}${i}`,
      debtors: DEBTORS,
      schedules: DEBTORS,
      deliveries: DEBTORS * days,
      invoicesPerDebtor: 1,
      seed: i + 1,
    });
    if ((i + 1) % Math.max(1, Math.floor(count / 10)) === 0) log(`${prefix}: ${i + 1}/${count} accounts`);
  }
  return (Date.now() - t0) / 1000;
}

const seedFullS = seed("full", FULL, DAYS);
const db = openDb(path);
db.exec("PRAGMA wal_checkpoint(TRUNCATE)");

/** Bytes per table, its indexes counted with it (dbstat names the b-tree; sqlite_master says whose). */
function bytesByTable() {
  const owner = new Map(
    db
      .prepare("SELECT name, tbl_name FROM sqlite_master WHERE type IN ('table', 'index')")
      .all()
      .map((r) => [r.name, r.tbl_name]),
  );
  const sizes = new Map();
  for (const r of db.prepare("SELECT name, sum(pgsize) AS bytes FROM dbstat GROUP BY name").all()) {
    const table = owner.get(r.name) ?? r.name;
    const entry = sizes.get(table) ?? { table: 0, indexes: 0 };
    if (table === r.name) entry.table += r.bytes;
    else entry.indexes += r.bytes;
    sizes.set(table, entry);
  }
  return sizes;
}
const count = (table) => db.prepare(`SELECT count(*) AS n FROM ${table}`).get().n;

const full = {
  accounts: FULL,
  deliveries: count("deliveries"),
  fileBytes: statSync(path).size,
  tables: bytesByTable(),
  seconds: seedFullS,
};
const deliveryBytes = (full.tables.get("deliveries")?.table ?? 0) + (full.tables.get("deliveries")?.indexes ?? 0);
let otherBytes = 0;
for (const [name, s] of full.tables) if (name !== "deliveries") otherBytes += s.table + s.indexes;
const perDelivery = deliveryBytes / full.deliveries;
const perAccountBase = otherBytes / FULL;
log(`full: ${FULL} accounts, ${full.deliveries} deliveries, ${(full.fileBytes / 1e9).toFixed(2)} GB`);
db.close();

const seedWideS = seed("wide", WIDE, WIDE_DAYS);
const db2 = openDb(path);
db2.exec("PRAGMA wal_checkpoint(TRUNCATE)");
const total = {
  accounts: FULL + WIDE,
  deliveries: db2.prepare("SELECT count(*) AS n FROM deliveries").get().n,
  fileBytes: statSync(path).size,
  seconds: seedWideS,
};
log(`all: ${total.accounts} accounts, ${total.deliveries} deliveries, ${(total.fileBytes / 1e9).toFixed(2)} GB`);

// The index entries each write touches (D1 bills each as a row written): an INSERT writes every
// index of its table; an UPDATE the indexes that hold a column it sets, and a partial index whose
// condition reads one (deliveries_sending_idx: WHERE status = 'sending').
function indexColumns(table) {
  return db2
    .prepare(`PRAGMA index_list(${table})`)
    .all()
    .map((ix) => {
      const columns = db2
        .prepare(`PRAGMA index_info("${ix.name}")`)
        .all()
        .map((c) => c.name);
      const where = ix.partial
        ? (db2.prepare("SELECT sql FROM sqlite_master WHERE name = ?").get(ix.name)?.sql ?? "")
        : "";
      return where.includes("status") ? [...columns, "status"] : columns;
    });
}
const indexes = {
  deliveries: indexColumns("deliveries"),
  schedules: indexColumns("schedules"),
  mail_batches: indexColumns("mail_batches"),
};
const touched = (table, columns) =>
  columns === "*"
    ? indexes[table].length
    : indexes[table].filter((cols) => cols.some((c) => columns.includes(c))).length;

// One writer, the reminder path as the engine writes it (decisions/021),
// each D1 batch one transaction (synchronous FULL, a durable commit):
// - each alarm's claim: the counting upsert of its delivery (claimOccurrence), one transaction;
// - per 100 reminders, the consumer's batch: the mail_batches row with its jobs and the pin of its
//   deliveries (createBatch), one transaction; their settlement, 50 to a transaction
//   (settleOccurrences: the delivery 'sent', the schedule advanced); the batch row deleted.
db2.exec("PRAGMA synchronous = FULL");
const targets = db2
  .prepare(
    "SELECT s.id, s.owner_id, s.debtor_id, d.email FROM schedules s JOIN debtors d ON d.id = s.debtor_id ORDER BY s.rowid DESC LIMIT ?",
  )
  .all(REPLAY);
const now = Date.now();
const since = now - 86_400_000;
const COUNTED = "('sending','sent','delivered','opened','clicked')";
const claim = db2.prepare(
  `INSERT INTO deliveries (owner_id, schedule_id, debtor_id, occurrence_key, template, tone, status, recipient, created_at)
   VALUES (?, ?, ?, ?, 'initial', 'polite',
     CASE WHEN (SELECT count(*) FROM deliveries AS d WHERE d.owner_id = ? AND d.created_at > ? AND d.status IN ${COUNTED}) < 1000
      AND (SELECT count(*) FROM deliveries AS d WHERE d.debtor_id = ? AND d.created_at > ? AND d.status IN ${COUNTED}) < 3
      AND (SELECT count(*) FROM deliveries AS d WHERE d.recipient = ? AND d.created_at > ? AND d.status IN ${COUNTED}) < 10
     THEN 'sending' ELSE 'deferred' END, ?, ?)
   ON CONFLICT (occurrence_key) DO UPDATE SET status = deliveries.status
   RETURNING id`,
);
const writeBatch = db2.prepare(
  "INSERT INTO mail_batches (key, jobs, attempts, next_attempt_at, lease_until, created_at) VALUES (?, ?, 0, ?, ?, ?)",
);
const pin = (n) =>
  db2.prepare(
    `UPDATE deliveries SET batch_key = ? WHERE id IN (${Array(n).fill("?").join(", ")}) AND status = 'sending' AND batch_key IS NULL`,
  );
const sent = db2.prepare(
  "UPDATE deliveries SET status = 'sent', provider_id = ?, error = NULL, sent_at = ? WHERE id = ?",
);
const advance = db2.prepare(
  "UPDATE schedules SET next_run_at = ?, last_run_at = ?, template_step = template_step + 1, updated_at = ? WHERE id = ? AND owner_id = ?",
);
const dropBatch = db2.prepare("DELETE FROM mail_batches WHERE key = ?");
// A job as the queue carries it: the rendered message's fields (about 1.5 KB).
const jobOf = (s, i) =>
  JSON.stringify({
    deliveryId: i,
    scheduleId: s.id,
    occurrenceKey: `${s.id}:${now + i}`,
    message: { to: s.email, subject: "A friendly reminder", html: "x".repeat(1200), text: "y".repeat(300) },
  });
const changes = () => db2.prepare("SELECT total_changes() AS n").get().n;
const before = changes();
let transactions = 0;
const t0 = performance.now();
const claimed = [];
const tx = (fn) => {
  db2.exec("BEGIN");
  fn();
  db2.exec("COMMIT");
  transactions++;
};
for (const [i, s] of targets.entries()) {
  tx(() => {
    const { id } = claim.get(
      s.owner_id,
      s.id,
      s.debtor_id,
      `${s.id}:${now + i}`,
      s.owner_id,
      since,
      s.debtor_id,
      since,
      s.email,
      since,
      s.email,
      now,
    );
    claimed.push({ ...s, deliveryId: id, i });
  });
}
for (let b = 0; b < claimed.length; b += 100) {
  const group = claimed.slice(b, b + 100);
  const key = `batch-${b}`;
  tx(() => {
    writeBatch.run(key, `[${group.map((c) => jobOf(c, c.i)).join(",")}]`, now, now + 120_000, now);
    // D1 allows 100 bound parameters a statement: the pin goes in slices of 99 ids.
    for (let p = 0; p < group.length; p += 99) {
      const ids = group.slice(p, p + 99).map((c) => c.deliveryId);
      pin(ids.length).run(key, ...ids);
    }
  });
  for (let h = 0; h < group.length; h += 50) {
    tx(() => {
      for (const c of group.slice(h, h + 50)) {
        sent.run(`re_${c.i}`, now, c.deliveryId);
        advance.run(now + 86_400_000, now, now, c.id, c.owner_id);
      }
    });
  }
  tx(() => dropBatch.run(key));
}
const replayMs = performance.now() - t0;
const rowChanges = (changes() - before) / targets.length;
// Index entries per reminder: the claim writes all of deliveries'; the pin sets batch_key (no
// index); 'sent' sets status, provider_id, sent_at, error; the schedule's advance sets
// next_run_at, last_run_at, template_step, updated_at; the batch row's insert and delete write its
// indexes, shared by the 100 reminders it carries.
const indexWrites =
  touched("deliveries", "*") +
  touched("deliveries", ["batch_key"]) +
  touched("deliveries", ["status", "provider_id", "sent_at", "error"]) +
  touched("schedules", ["next_run_at", "last_run_at", "template_step", "updated_at"]) +
  (2 * touched("mail_batches", "*")) / 100;
db2.close();

const result = {
  machine: `${cpus().length} × ${cpus()[0]?.model ?? "cpu"}`,
  node: process.version,
  full: {
    accounts: FULL,
    days: DAYS,
    deliveries: full.deliveries,
    fileBytes: full.fileBytes,
    seedSeconds: full.seconds,
    tables: Object.fromEntries(full.tables),
  },
  total: { ...total, wideAccounts: WIDE, wideDays: WIDE_DAYS },
  bytesPerDelivery: perDelivery,
  bytesPerAccountBesidesDeliveries: perAccountBase,
  replay: {
    reminders: targets.length,
    ms: replayMs,
    msPerReminder: replayMs / targets.length,
    remindersPerSecond: targets.length / (replayMs / 1000),
    transactions,
    sqliteRowChangesPerReminder: rowChanges,
    indexEntriesPerReminder: indexWrites,
    rowsWrittenPerReminder: rowChanges + indexWrites,
    deliveryIndexes: indexes.deliveries.length,
    scheduleIndexes: indexes.schedules.length,
  },
  seconds: (Date.now() - started) / 1000,
};

const mb = (b) => `${(b / 1e6).toFixed(1)} MB`;
const md = [
  "# Scale simulation (`node bench/scale.mjs`)",
  "",
  `${new Date().toISOString()} · ${result.machine} · Node ${result.node} · ${result.seconds.toFixed(0)} s`,
  "",
  `- ${FULL} accounts × ${DEBTORS} debtors with ${DAYS} days of daily reminders: ${full.deliveries.toLocaleString("en")} deliveries, ${mb(full.fileBytes)} (seeded in ${full.seconds.toFixed(0)} s).`,
  `- Then ${WIDE} more accounts with ${WIDE_DAYS} days each: ${total.accounts.toLocaleString("en")} accounts, ${total.deliveries.toLocaleString("en")} deliveries, ${mb(total.fileBytes)}.`,
  `- **${perDelivery.toFixed(0)} bytes per delivery** (row and its ${indexes.deliveries.length} indexes); **${(perAccountBase / 1000).toFixed(1)} KB per account** for everything else (debtors, invoices, schedules, events, sessions…).`,
  `- One writer, ${targets.length} reminders replayed on the ${mb(total.fileBytes)} file (each claim, then per 100 the batch and its pin, two settlements of 50 and the batch's removal: ${transactions} transactions, synchronous FULL): **${result.replay.msPerReminder.toFixed(3)} ms per reminder, ${result.replay.remindersPerSecond.toFixed(0)} reminders/s**.`,
  `- Rows written per reminder: ${rowChanges.toFixed(1)} row changes (triggers included) + ${indexWrites.toFixed(1)} index entries = **${(rowChanges + indexWrites).toFixed(1)}** as D1 bills them.`,
  "",
  "| table | table bytes | index bytes |",
  "|---|---|---|",
  ...[...full.tables.entries()]
    .sort((a, b) => b[1].table + b[1].indexes - (a[1].table + a[1].indexes))
    .slice(0, 12)
    .map(([name, s]) => `| ${name} | ${mb(s.table)} | ${mb(s.indexes)} |`),
  "",
  "```json",
  JSON.stringify(result, null, 2),
  "```",
  "",
].join("\n");
writeFileSync(OUT, md);
console.log(md);
if (!process.env.SCALE_KEEP) rmSync(DIR, { recursive: true, force: true });
