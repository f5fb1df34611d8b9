import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import accountTables from "../support/account-tables.json";
import { decodeTurbo, type Json } from "./data-helpers";
import { makeSignedInUser } from "./fixtures";
import { ORIGIN, SESSION_COOKIE } from "./helpers";

/**
 * A page costs what its own rows cost. Each signed-in page is requested from the
 * built app Worker (build/server, as in production) with a D1 binding that counts what it is sent
 * (statements, and round trips: a batch is one), for an account of three rows and for one of 300
 * debtors, schedules and deliveries, beside another account holding more deliveries than both. The
 * number of statements does not grow with the rows, stays under a small budget, and no statement
 * runs twice in one request; every statement reads account data through an index bounded by one
 * account (its query plan, in this D1, has no SCAN of it). And the counts the pages show are right: reminders sent per debtor
 * and per schedule, without test sends, other statuses or other accounts' deliveries.
 *
 * The Worker's own fetch handler is called with the test's bindings and the counting DB in place
 * of the real one (SELF would use the real binding): nothing in the app knows about it, and
 * production runs nothing extra. What is counted is the whole request: the session check (one
 * statement) and every loader of the page.
 */

interface Sent {
  sql: string;
  params: unknown[];
  /** The batch it went in (one round trip for all of them), or null for a statement on its own. */
  batch: number | null;
}

/** A D1 binding that records every statement executed through it, then hands it to `db`. */
function countingD1(db: D1Database) {
  const log: Sent[] = [];
  let batches = 0;
  const real = new WeakMap<object, { stmt: D1PreparedStatement; sql: string; params: unknown[] }>();
  const wrap = (stmt: D1PreparedStatement, sql: string, params: unknown[]): D1PreparedStatement => {
    const record = () => log.push({ sql, params, batch: null });
    const wrapped = {
      bind: (...values: unknown[]) => wrap(stmt.bind(...values), sql, values),
      first: (column?: string) => {
        record();
        return column === undefined ? stmt.first() : stmt.first(column);
      },
      all: () => {
        record();
        return stmt.all();
      },
      raw: (options?: { columnNames?: boolean }) => {
        record();
        return stmt.raw(options as { columnNames: true });
      },
      run: () => {
        record();
        return stmt.run();
      },
    };
    real.set(wrapped, { stmt, sql, params });
    return wrapped as unknown as D1PreparedStatement;
  };
  const binding = {
    prepare: (sql: string) => wrap(db.prepare(sql), sql, []),
    batch: (statements: D1PreparedStatement[]) => {
      batches += 1;
      const batch = batches;
      return db.batch(
        statements.map((s) => {
          const found = real.get(s);
          if (!found) throw new Error("a statement that was not prepared through the counting binding");
          log.push({ sql: found.sql, params: found.params, batch });
          return found.stmt;
        }),
      );
    },
    exec: (query: string) => {
      log.push({ sql: query, params: [], batch: null });
      return db.exec(query);
    },
  };
  return { binding: binding as unknown as D1Database, log };
}

const roundTrips = (log: Sent[]) => new Set(log.map((s, i) => (s.batch === null ? `single-${i}` : s.batch))).size;
const repeated = (log: Sent[]) => {
  const keys = log.map((s) => `${s.sql} ${JSON.stringify(s.params)}`);
  return keys.filter((k, i) => keys.indexOf(k) !== i);
};

/**
 * Tables of account data (tests/support/account-tables.json, also bench/query-plans.mjs's): a page
 * reads them only through an index bounded by one account.
 */
const ACCOUNT_TABLES: readonly string[] = accountTables;
const BOUNDED =
  /USING (?:INTEGER PRIMARY KEY|(?:COVERING )?INDEX \w+ \((?:owner_id|debtor_id|schedule_id|id|rowid|occurrence_key)=)/;

/**
 * The lines of the statement's plan (EXPLAIN QUERY PLAN, in this D1) that read account data other
 * than through an index whose first constraint is the owner, the debtor, the schedule, the row's
 * id or the occurrence key: a SCAN, or a SEARCH such as `schedules_due_idx (state=?)` that walks
 * every account's rows (as bench/query-plans.mjs checks).
 */
async function unboundedReads({ sql, params }: Sent) {
  const plan = await env.DB.prepare(`EXPLAIN QUERY PLAN ${sql}`)
    .bind(...params)
    .all<{ detail: string }>();
  const aliases = new Set(ACCOUNT_TABLES);
  // The names a plan may use for them: `FROM deliveries AS sent`, `JOIN "debtors" "d"`.
  for (const m of sql.matchAll(/\b(?:FROM|JOIN)\s+"?(\w+)"?\s+(?:AS\s+)?"?(\w+)"?/gi)) {
    if (ACCOUNT_TABLES.includes(m[1]!)) aliases.add(m[2]!);
  }
  return plan.results
    .map((r) => r.detail)
    .filter((line) => {
      const m = /^(SCAN|SEARCH) (\w+)/.exec(line);
      return m !== null && aliases.has(m[2]!) && (m[1] === "SCAN" || !BOUNDED.test(line));
    });
}

/** The built app Worker's module (its default export is the fetch handler production runs). */
const BUILT_WORKER = "../../build/server/index.js";
let worker: ExportedHandler<Env>;

/** GET `path` from the built Worker as `account`, its D1 counted. */
async function fetchCounted(path: string, account: Account) {
  const { binding, log } = countingD1(env.DB);
  const ctx = createExecutionContext();
  const request = new Request(new URL(path, ORIGIN), {
    headers: { Cookie: `${SESSION_COOKIE}=${account.token}; tz=UTC` },
    redirect: "manual",
  });
  const fetch = worker.fetch as NonNullable<ExportedHandler<Env>["fetch"]>;
  const res = await fetch(request as Request<unknown, IncomingRequestCfProperties>, { ...env, DB: binding }, ctx);
  // What the response still streams (a page's HTML) and waitUntil work are part of the request.
  const body = await res.text();
  await waitOnExecutionContext(ctx);
  return { res, body, log };
}

/** A page's loader data (single fetch, `<path>.data`), with the statements its request sent. */
async function loaded(path: string, route: string, account: Account) {
  const url = new URL(path, ORIGIN);
  const { res, body, log } = await fetchCounted(`${url.pathname}.data${url.search}`, account);
  expect(res.status, path).toBe(200);
  const decoded = await decodeTurbo(new Response(body));
  return { data: decoded[route]?.data as Json, log };
}

// Accounts --------------------------------------------------------------------------------------

const DAY_MS = 86_400_000;

interface Account {
  id: string;
  /** The session cookie's value. */
  token: string;
  /** The account's debtors, oldest first. */
  ids: number[];
  /** The id of debtor i's schedule (1-based). */
  scheduleOf: (i: number) => string;
}

/**
 * `size` debtors of the user ("Budget Debtor 001", …), each with one weekly schedule (id
 * `{owner}-s{i}`) and one delivery of it: 'sent' for even i, 'failed' for odd i. Generated in SQL
 * (recursive CTEs), so three statements seed any size.
 */
async function seedAccount(tag: string, size: number): Promise<Account> {
  const { id: owner, token } = await makeSignedInUser(`Budget ${tag}`);
  const now = Date.now();
  const ordinal = "(d.id - (SELECT min(id) FROM debtors WHERE owner_id = ?1) + 1)";
  await env.DB.batch([
    env.DB.prepare(
      `INSERT INTO debtors (owner_id, full_name, email, debt_cents, opt_out_key, created_at)
       WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?2)
       SELECT ?1, 'Budget Debtor ' || printf('%03d', i), 'debtor' || i || '@' || ?1 || '.example', 100000, ?1 || '-' || i, ?3 FROM n`,
    ).bind(owner, size, now - DAY_MS),
    // Each debtor owes one open invoice of their debt (the ledger's rule).
    env.DB.prepare(
      `INSERT INTO invoices (owner_id, debtor_id, amount_cents, currency, issued_on, due_on)
       SELECT ?1, d.id, d.debt_cents, d.currency, '2026-01-01', '2026-01-15' FROM debtors AS d WHERE d.owner_id = ?1`,
    ).bind(owner),
    env.DB.prepare(
      `INSERT INTO schedules (id, owner_id, debtor_id, preset, frequency, time_zone, state, next_run_at, created_at, updated_at)
       SELECT ?1 || '-s' || ${ordinal}, ?1, d.id, 'FRIENDLY_REMINDER', 'weekly', 'UTC', 'ENABLED', ?2, ?3 + ${ordinal}, ?3
       FROM debtors AS d WHERE d.owner_id = ?1`,
    ).bind(owner, now + 7 * DAY_MS, now - DAY_MS),
    env.DB.prepare(
      `INSERT INTO deliveries (owner_id, schedule_id, debtor_id, occurrence_key, template, tone, status, created_at, sent_at)
       SELECT ?1, s.id, s.debtor_id, s.id || ':' || ?2, 'initial', 1,
              CASE WHEN ${ordinal} % 2 = 0 THEN 'sent' ELSE 'failed' END, ?2, ?2
       FROM schedules AS s JOIN debtors AS d ON d.id = s.debtor_id WHERE s.owner_id = ?1`,
    ).bind(owner, now - 60_000),
  ]);
  const ids = (
    await env.DB.prepare("SELECT id FROM debtors WHERE owner_id = ? ORDER BY id").bind(owner).all<{ id: number }>()
  ).results.map((r) => r.id);
  return { id: owner, token, ids, scheduleOf: (i: number) => `${owner}-s${i}` };
}

async function insertDelivery(
  owner: string,
  debtorId: number,
  scheduleId: string | null,
  status: string,
  key = `${scheduleId ?? "x"}:${Date.now()}-${Math.random().toString(36).slice(2)}`,
) {
  const at = Date.now() - 30_000;
  await env.DB.prepare(
    "INSERT INTO deliveries (owner_id, schedule_id, debtor_id, occurrence_key, template, tone, status, created_at, sent_at) VALUES (?, ?, ?, ?, 'initial', 1, ?, ?, ?)",
  )
    .bind(owner, scheduleId, debtorId, key, status, at, status === "sent" ? at : null)
    .run();
}

// The pages and their budgets --------------------------------------------------------------------

/**
 * The most statements a request for each page may send, the session check (one) included; a
 * batch counts each of its statements.
 */
const BUDGET = {
  // With the money figures: aging, oldest debts and payments in one statement.
  dashboard: 12,
  dashboardWholeAccount: 12,
  debtorsList: 3,
  schedulesList: 3,
  // With the receivables by age and the archived months (docs/decisions/022).
  report: 5,
  reportOfDebtor: 6,
  reportAging: 2,
  // The streamed exports: a statement per page of 1,000 rows (one here), each an index range.
  reportCsv: 2,
  reportCsvOfDebtor: 2,
  debtorsCsv: 2,
  invoicesCsv: 2,
  timeline: 9,
  // The debtor's page: the timeline's, its Invoices section's, its replies (decisions/020), its
  // contacts (decisions/057), its invoices' late-payment charges (decisions/065) and its payment
  // plans (decisions/066), in one batch.
  debtorPage: 14,
  options: 2,
  // The debtor choice, the organizations and whether reminders offer a way to pay, in the session's batch.
  schedule: 4,
  scheduleDetails: 4,
  // The settings and, in the same batch, the connected Stripe account (decisions/018).
  iamInfo: 3,
  iamOrgs: 2,
  // Recorded e-mails, notices and their two counts, in one batch after the session's.
  iamEmails: 5,
} as const;

/** A page: its budget, and its URL for an account (`.data` for a page's loaders, plain for a resource route). */
const PAGES: [keyof typeof BUDGET, (a: Account) => string][] = [
  ["dashboard", (a) => `/dashboard.data?debtor=${a.ids[0]}`],
  ["dashboardWholeAccount", () => "/dashboard.data"],
  ["debtorsList", () => "/debtors-list.data"],
  ["schedulesList", () => "/schedules-list.data"],
  ["report", () => "/report.data"],
  ["reportOfDebtor", (a) => `/report.data?debtor=${a.ids[0]}`],
  ["reportAging", () => "/report-aging.csv"],
  ["reportCsv", () => "/report.csv"],
  ["reportCsvOfDebtor", (a) => `/report.csv?debtor=${a.ids[0]}`],
  ["debtorsCsv", () => "/debtors.csv"],
  ["invoicesCsv", () => "/invoices.csv"],
  ["debtorPage", (a) => `/debtors/${a.ids[0]}.data`],
  ["timeline", (a) => `/debtors/${a.ids[0]}/timeline`],
  ["options", () => "/debtors/options?q=budget"],
  ["schedule", () => "/schedule.data"],
  ["scheduleDetails", (a) => `/schedules/${a.scheduleOf(1)}`],
  ["iamInfo", () => "/iam/info.data"],
  ["iamOrgs", () => "/iam/orgs.data"],
  ["iamEmails", () => "/iam/emails.data?page=3"],
];

describe("signed-in pages: D1 statements per request", () => {
  let small: Account;
  let large: Account;

  beforeAll(async () => {
    worker = ((await import(/* @vite-ignore */ BUILT_WORKER)) as { default: ExportedHandler<Env> }).default;
    small = await seedAccount("small", 1);
    large = await seedAccount("large", 300);
    // Another account with more deliveries than both: none of it may cost the others anything.
    const other = await seedAccount("other", 50);
    await env.DB.batch(
      Array.from({ length: 8 }, (_, k) =>
        env.DB.prepare(
          `INSERT INTO deliveries (owner_id, schedule_id, debtor_id, occurrence_key, template, tone, status, created_at, sent_at)
           WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 250)
           SELECT ?1, ?2, ?3, ?2 || ':extra-' || ?4 || '-' || i, 'initial', 1, 'sent', ?5 - i, ?5 - i FROM n`,
        ).bind(other.id, other.scheduleOf(2), other.ids[1], k, Date.now()),
      ),
    );
  });

  it("sends as many statements for 3 rows as for 300, within the page's budget, none twice", async () => {
    const table: string[] = [];
    for (const [name, path] of PAGES) {
      const few = await fetchCounted(path(small), small);
      const many = await fetchCounted(path(large), large);
      const url = path(large);
      expect(few.res.status, `${path(small)}: ${few.body.slice(0, 200)}`).toBeLessThan(400);
      expect(many.res.status, `${url}: ${many.body.slice(0, 200)}`).toBeLessThan(400);
      table.push(
        `${url.padEnd(60)} ${few.log.length} / ${many.log.length} statements, ${roundTrips(many.log)} round trips`,
      );
      expect(many.log.length, `${url}: as many statements with 300 rows as with 3`).toBe(few.log.length);
      expect(many.log.length, `${url}: within its budget`).toBeLessThanOrEqual(BUDGET[name]);
      expect(repeated(many.log), `${url}: a statement ran twice`).toEqual([]);
      expect(repeated(few.log), `${path(small)}: a statement ran twice`).toEqual([]);
      for (const sent of many.log) {
        expect(await unboundedReads(sent), `${url}: ${sent.sql}`).toEqual([]);
      }
    }
    console.log(`[query-budget] statements per request (3 rows / 300 rows):\n${table.join("\n")}`);
  });

  it("the plan check tells an account-bounded read from one over every account", async () => {
    const bounded = {
      sql: "SELECT count(*) FROM deliveries WHERE owner_id = ? AND status = 'sent'",
      params: ["x"],
      batch: null,
    };
    expect(await unboundedReads(bounded)).toEqual([]);
    const everyone = { sql: "SELECT count(*) FROM deliveries AS d WHERE d.status = 'sent'", params: [], batch: null };
    expect(await unboundedReads(everyone)).toHaveLength(1);
    const byState = {
      sql: "SELECT id FROM schedules WHERE state = 'ENABLED' ORDER BY next_run_at",
      params: [],
      batch: null,
    };
    expect(await unboundedReads(byState)).toEqual(["SEARCH schedules USING INDEX schedules_due_idx (state=?)"]);
  });

  it("the debtor's timeline, the dashboard, the lists, the report, the schedule form and settings are one round trip each, the session's included", async () => {
    // One batch: the session's statement first, then the page's (docs/decisions/025).
    const paths = [
      `/debtors/${large.ids[0]}.data`,
      `/dashboard.data?debtor=${large.ids[0]}`,
      "/debtors-list.data",
      "/schedules-list.data",
      "/report.data",
      `/report.data?debtor=${large.ids[0]}`,
      "/schedule.data",
      "/iam/info.data",
    ];
    for (const path of paths) {
      const { log } = await fetchCounted(path, large);
      expect(roundTrips(log), path).toBe(1);
    }
  });

  it("the dashboard opens on the whole account in one round trip; another user's debtor leads back to it", async () => {
    const { res, log } = await fetchCounted("/dashboard?period=7d", large);
    expect(res.status).toBe(200);
    expect(roundTrips(log)).toBe(1);
    const { data } = await loaded("/dashboard", "routes/dashboard", large);
    expect(data.selected).toBeNull();
    // The account's schedules, not one debtor's.
    expect(new Set((data.schedules as { debtorName: string }[]).map((s) => s.debtorName)).size).toBeGreaterThan(1);
    // Another user's debtor: the whole account instead, in one request.
    const foreign = await fetchCounted(`/dashboard?debtor=${small.ids[0]}&period=7d`, large);
    expect(foreign.res.headers.get("Location")).toBe("/dashboard?period=7d");
  });

  it("the report sends the chosen debtor only, never the list of all debtors", async () => {
    const { data } = await loaded(`/report?debtor=${large.ids[4]}`, "routes/report", large);
    expect(data.debtor).toEqual({
      id: large.ids[4],
      fullName: "Budget Debtor 005",
      email: `debtor5@${large.id}.example`,
    });
    expect(data.debtors).toBeUndefined();
    expect((await loaded("/report", "routes/report", large)).data.debtor).toBeNull();
    // Another user's debtor: no label, and nothing of theirs.
    const foreign = await loaded(`/report?debtor=${small.ids[0]}`, "routes/report", large);
    expect(foreign.data.debtor).toBeNull();
    expect(foreign.data.totals.all).toBe(0);
    // The page itself holds no other debtor's name.
    const html = (await fetchCounted(`/report?debtor=${large.ids[4]}`, large)).body;
    expect(html).toContain("Budget Debtor 005");
    expect(html).not.toContain("Budget Debtor 006");
  });
});

describe("the counts on the pages", () => {
  let a: Account;
  let other: Account;

  beforeAll(async () => {
    worker = ((await import(/* @vite-ignore */ BUILT_WORKER)) as { default: ExportedHandler<Env> }).default;
    a = await seedAccount("counts", 60);
    other = await seedAccount("counts-other", 3);
    // Debtor 1 (seeded 'failed'): three more sent of its schedule, one deferred, one failed, and a
    // test send (no schedule, a 'test:' key) that went out: 3 reminders sent.
    const [d1, d2, d3] = a.ids as [number, number, number];
    const s1 = a.scheduleOf(1);
    for (let i = 0; i < 3; i++) await insertDelivery(a.id, d1, s1, "sent");
    await insertDelivery(a.id, d1, s1, "deferred");
    await insertDelivery(a.id, d1, s1, "failed");
    await insertDelivery(a.id, d1, null, "sent", `test:${a.id}:${Date.now()}:abcd1234`);
    // The other account's sends, of its own debtors and schedules, in the same minutes.
    for (let i = 0; i < 4; i++) await insertDelivery(other.id, other.ids[0]!, other.scheduleOf(1), "sent");
    // Debtor 2 owes and is active: a schedule Dunly stopped (paid) may resume. Debtor 3 opted out:
    // only the one stopped because the debt was paid may, not the one stopped for the opt-out.
    await env.DB.prepare(
      `INSERT INTO schedules (id, owner_id, debtor_id, preset, frequency, time_zone, state, stopped_reason, created_at)
       VALUES (?1 || '-stopped-2', ?1, ?2, 'SINGLE_REMINDER', 'now', 'UTC', 'COMPLETED', 'paid', 1),
              (?1 || '-stopped-3a', ?1, ?3, 'SINGLE_REMINDER', 'now', 'UTC', 'COMPLETED', 'opted_out', 1),
              (?1 || '-stopped-3b', ?1, ?3, 'SINGLE_REMINDER', 'now', 'UTC', 'COMPLETED', 'paid', 1)`,
    )
      .bind(a.id, d2, d3)
      .run();
    await env.DB.prepare("UPDATE debtors SET status = 'opted_out' WHERE id = ?").bind(d3).run();
  });

  /** What the seeding gives debtor or schedule i (1-based), with debtor 1's extra deliveries. */
  const expectedSent = (i: number) => (i === 1 ? 3 : i % 2 === 0 ? 1 : 0);
  const ordinalOf = (id: number) => a.ids.indexOf(id) + 1;

  it("sent per debtor: the dashboard, its selected debtor and the debtors list", async () => {
    const [d1] = a.ids as [number];
    const { data } = await loaded(`/dashboard?debtor=${d1}`, "routes/dashboard", a);
    expect(data.selected).toMatchObject({ id: d1, emailsSent: 3 });
    expect(data.chart.at(-1).value).toBe(3);
    // The dashboard's card holds the first 10 debtors and says there are more.
    const page = data.debtors as Json[];
    expect(page.map((r) => r.id)).toEqual(a.ids.slice(0, 10));
    expect(data.moreDebtors).toBe(true);
    const few = await loaded(`/dashboard?debtor=${other.ids[0]}`, "routes/dashboard", other);
    expect([(few.data.debtors as Json[]).length, few.data.moreDebtors]).toEqual([3, false]);
    for (const row of page) expect(row.emailsSent, row.fullName).toBe(expectedSent(ordinalOf(row.id)));
    // Sorted by name, descending: the counts follow their rows.
    const list = await loaded("/debtors-list?sort=name&dir=desc", "routes/debtors-list", a);
    const rows = list.data.debtors as Json[];
    expect(rows).toHaveLength(25);
    expect(rows[0].fullName).toBe("Budget Debtor 060");
    for (const row of rows) expect(row.emailsSent, row.fullName).toBe(expectedSent(ordinalOf(row.id)));
    // Past the first page.
    const second = await loaded("/debtors-list?page=2", "routes/debtors-list", a);
    expect((second.data.debtors as Json[]).map((r) => [r.id, r.emailsSent])).toEqual(
      a.ids.slice(25, 50).map((id) => [id, expectedSent(ordinalOf(id))]),
    );
  });

  it("resumable schedules per debtor, as the payment rules say", async () => {
    const [d1, d2, d3] = a.ids as [number, number, number];
    const rows = (await loaded("/debtors-list", "routes/debtors-list", a)).data.debtors as Json[];
    const resumable = (id: number) => rows.find((r) => r.id === id)?.resumable;
    expect([resumable(d1), resumable(d2), resumable(d3)]).toEqual([0, 1, 1]);
  });

  it("sent per schedule: the schedules list, the dashboard's card and the configure modal", async () => {
    const rows = (await loaded("/schedules-list?sort=next", "routes/schedules-list", a)).data.schedules as Json[];
    expect(rows).toHaveLength(25);
    for (const row of rows) {
      const i = Number(/-s(\d+)$/.exec(row.id)?.[1] ?? 0);
      expect(row.emailsSent, row.id).toBe(i === 0 ? 0 : expectedSent(i));
    }
    const card = await loaded(`/dashboard?debtor=${a.ids[0]}`, "routes/dashboard", a);
    const s1 = (card.data.schedules as Json[]).find((s) => s.id === a.scheduleOf(1));
    expect(s1).toMatchObject({ emailsSent: 3, waiting: null });
    const details = await fetchCounted(`/schedules/${a.scheduleOf(1)}`, a);
    expect(JSON.parse(details.body).schedule).toMatchObject({ id: a.scheduleOf(1), emailsSent: 3 });
  });

  it("the other account sees its own counts only", async () => {
    const { data } = await loaded("/debtors-list", "routes/debtors-list", other);
    expect((data.debtors as Json[]).map((r) => r.emailsSent)).toEqual([4, 1, 0]);
    const schedules = (await loaded("/schedules-list", "routes/schedules-list", other)).data.schedules as Json[];
    expect(schedules.find((s) => s.id === other.scheduleOf(1))?.emailsSent).toBe(4);
  });
});
