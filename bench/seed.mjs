// Seeds the local D1 database straight into its SQLite file (node:sqlite, one transaction), while
// no wrangler dev has it open. Rows look like the app's own: debtors owing three invoices each
// (numbered or not), with payments allocated oldest due first, time zones and opt-out keys;
// schedules of both presets in every state (enabled ones due in the future, so no alarm fires
// during the page measurements); deliveries over six months in a mix of statuses with some test
// sends ('test:' keys); timeline events; sessions for signing in.
import { createHash, randomBytes, randomUUID } from "node:crypto";

// node:sqlite is marked experimental in Node 22: its one-time warning says nothing useful here.
const emitWarning = process.emitWarning;
process.emitWarning = (warning, ...rest) =>
  String(warning).includes("SQLite") ? undefined : emitWarning.call(process, warning, ...rest);
const { DatabaseSync } = await import("node:sqlite");

export function openDb(path, { readOnly = false } = {}) {
  const db = new DatabaseSync(path, { readOnly });
  db.exec("PRAGMA busy_timeout = 5000");
  return db;
}

const DAY = 86_400_000;
const BASE32 = "abcdefghijklmnopqrstuvwxyz234567";

/** A random id like the app's (16 bytes, base32 lower case). */
export function newUserId() {
  const bytes = randomBytes(16);
  let bits = 0;
  let value = 0;
  let out = "";
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += BASE32[(value << (5 - bits)) & 31];
  return out;
}

/** A deterministic pseudo-random source (mulberry32), so every run seeds the same shape of data. */
function rng(seed) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    pick: (list) => list[Math.floor(next() * list.length)],
    /** One of the keys of `weights` ({ key: weight }), by weight. */
    weighted: (weights) => {
      const total = Object.values(weights).reduce((s, w) => s + w, 0);
      let r = next() * total;
      for (const [key, w] of Object.entries(weights)) {
        r -= w;
        if (r < 0) return key;
      }
      return Object.keys(weights).at(-1);
    },
  };
}

const FIRST =
  "Ada Ben Carla Dmitri Elena Farid Grace Hugo Ines Jonas Kemal Lena Marco Nadia Oskar Priya Quinn Rosa Sven Tomas Uma Victor Wen Ximena Yusuf Zoe".split(
    " ",
  );
const LAST =
  "Abbott Becker Castillo Dubois Eriksen Fischer Garcia Haddad Ivanova Jensen Kowalski Lindqvist Moreau Nakamura Okafor Petrov Quispe Rossi Schmidt Tanaka Umarov Varga Weber Xu Yilmaz Zielinski".split(
    " ",
  );
const COMPANY = "Northwind Contoso Fabrikam Tailspin Wingtip Litware Adatum Proseware Lucerne Fourth-Coffee".split(" ");
const ZONES = [
  "America/New_York",
  "America/Chicago",
  "America/Los_Angeles",
  "Europe/London",
  "Europe/Berlin",
  "Europe/Madrid",
  "Asia/Tokyo",
  "Australia/Sydney",
  "UTC",
];
const FRIENDLY = ["initial", "follow-up", "second-follow-up", "final-notice"];

/** The session token for a user: the cookie value; D1 keeps hex(SHA-256(token)) (app/auth/session.server.ts). */
function insertSession(db, userId, now) {
  const token = randomBytes(25).toString("hex");
  const id = createHash("sha256").update(token).digest("hex");
  // 30 days: far from the last 15, so no request renews (writes) it during the run.
  db.prepare("INSERT INTO sessions (id, user_id, expires_at, created_at) VALUES (?, ?, ?, ?)").run(
    id,
    userId,
    now + 30 * DAY,
    now,
  );
  return token;
}

/**
 * A seeded account, subscribed to `plan` (docs/decisions/019: an account past its trial without a
 * subscription has no plan, and its reminders hold).
 */
function insertUser(db, { id, email, fullName, plan, createdAt }) {
  db.prepare(
    "INSERT INTO users (id, email, full_name, email_verified_at, plan, subscription_status, created_at) VALUES (?, ?, ?, ?, ?, 'active', ?)",
  ).run(id, email, fullName, createdAt, plan, createdAt);
}

/** Runs `fn` in one transaction. */
function transaction(db, fn) {
  db.exec("BEGIN");
  try {
    const result = fn();
    db.exec("COMMIT");
    return result;
  } catch (error) {
    db.exec("ROLLBACK");
    throw error;
  }
}

/**
 * One account with `debtors` debtors, `schedules` schedules (one per debtor, cycling) and
 * `deliveries` deliveries spread over the last 180 days. Returns { userId, email, token,
 * debtorIds, scheduleIds }: the session token signs in, the ids name real rows for the pages.
 */
export function seedAccount(
  path,
  { tag, debtors, schedules, deliveries, invoicesPerDebtor = 3, seed = 1, now = Date.now() },
) {
  const db = openDb(path);
  const r = rng(seed);
  try {
    return transaction(db, () => {
      const userId = newUserId();
      const email = `${tag}@bench.example`;
      insertUser(db, { id: userId, email, fullName: `Bench ${tag}`, plan: "aggressive", createdAt: now - 200 * DAY });
      const token = insertSession(db, userId, now);

      const orgIds = [];
      const insOrg = db.prepare(
        "INSERT INTO organizations (owner_id, name, address, payment_url, created_at) VALUES (?, ?, ?, ?, ?)",
      );
      for (let i = 0; i < Math.min(3, Math.ceil(debtors / 10)); i++) {
        const info = insOrg.run(
          userId,
          `${COMPANY[i]} Ltd`,
          `${i + 1} Market Street\nSpringfield`,
          i === 0 ? "https://pay.example/invoice" : null,
          now - 190 * DAY,
        );
        orgIds.push(Number(info.lastInsertRowid));
      }

      const insDebtor = db.prepare(
        `INSERT INTO debtors (owner_id, kind, full_name, email, debt_cents, currency, active_strategy, paid_cents,
           status, time_zone, paid_claimed_at, opt_out_key, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      );
      const insPayment = db.prepare(
        "INSERT INTO payments (owner_id, debtor_id, amount_cents, currency, paid_on, note, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
      );
      const insInvoice = db.prepare(
        `INSERT INTO invoices (owner_id, debtor_id, number, amount_cents, currency, issued_on, due_on, status, paid_cents,
           created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      );
      const insAllocation = db.prepare(
        "INSERT INTO payment_allocations (payment_id, invoice_id, amount_cents) VALUES (?, ?, ?)",
      );
      const insEvent = db.prepare(
        "INSERT INTO debtor_events (owner_id, debtor_id, type, detail, created_at) VALUES (?, ?, ?, ?, ?)",
      );
      const insOptOut = db.prepare("INSERT OR IGNORE INTO opt_outs (owner_id, email, created_at) VALUES (?, ?, ?)");
      const rows = [];
      for (let i = 0; i < debtors; i++) {
        const company = r.next() < 0.15;
        const name = company
          ? `${r.pick(COMPANY)} ${r.pick(["Ltd", "GmbH", "Inc.", "LLC"])} ${i}`
          : `${r.pick(FIRST)} ${r.pick(LAST)}`;
        const debtorEmail = `${name.toLowerCase().replace(/[^a-z0-9]+/g, ".")}.${i}@${tag}.example`;
        const status = r.weighted({ active: 80, paid: 12, opted_out: 5, bouncing: 3 });
        const debt = r.int(50, 20_000) * 100 + r.int(0, 99);
        const paid = status === "paid" ? debt : r.next() < 0.3 ? Math.floor(debt * r.next() * 0.8) : 0;
        const createdAt = now - r.int(2, 180) * DAY - r.int(0, DAY - 1);
        const timeZone = r.pick(ZONES);
        const currency = r.weighted({ USD: 80, EUR: 10, GBP: 10 });
        const optOutKey = randomUUID().replaceAll("-", "");
        const info = insDebtor.run(
          userId,
          company ? "company" : "person",
          name,
          debtorEmail,
          debt,
          currency,
          r.int(1, 3),
          paid,
          status,
          timeZone,
          status === "active" && r.next() < 0.01 ? now - r.int(1, 5) * DAY : null,
          optOutKey,
          createdAt,
          createdAt,
        );
        const id = Number(info.lastInsertRowid);
        rows.push({ id, email: debtorEmail, status, createdAt, timeZone, optOutKey });
        insEvent.run(userId, id, r.next() < 0.3 ? "imported" : "schedule_created", "", createdAt);
        // The debt as `invoicesPerDebtor` invoices (the last takes the rest), due a month apart.
        const invoices = [];
        let rest = debt;
        const count = debt >= invoicesPerDebtor * 100 ? invoicesPerDebtor : 1;
        for (let k = 0; k < count; k++) {
          const amount = k === count - 1 ? rest : Math.max(100, Math.floor((debt / count) * (0.5 + r.next())));
          rest -= amount;
          const issued = createdAt - (count - k) * 30 * DAY;
          const number = r.next() < 0.7 ? `INV-${tag}-${String(i + 1).padStart(5, "0")}-${k + 1}` : null;
          const day = (ms) => new Date(ms).toISOString().slice(0, 10);
          invoices.push({ amount, paid: 0, number, issued: day(issued), due: day(issued + 30 * DAY) });
        }
        let left = paid;
        const payments = [];
        for (let p = 0; left > 0 && p < 3; p++) {
          const amount = p === 2 || r.next() < 0.4 ? left : Math.max(1, Math.floor(left / 2));
          left -= amount;
          const paidAt = createdAt + r.int(1, 60) * DAY;
          const info = insPayment.run(
            userId,
            id,
            amount,
            currency,
            new Date(Math.min(paidAt, now)).toISOString().slice(0, 10),
            "",
            paidAt,
          );
          payments.push({ id: Number(info.lastInsertRowid), amount });
        }
        // Each payment pays the invoices oldest due first, as the app allocates it.
        const allocations = [];
        for (const payment of payments) {
          let due = payment.amount;
          for (const [k, invoice] of invoices.entries()) {
            const take = Math.min(due, invoice.amount - invoice.paid);
            if (take <= 0) continue;
            invoice.paid += take;
            due -= take;
            allocations.push([payment.id, k, take]);
            if (due === 0) break;
          }
        }
        const invoiceIds = invoices.map((invoice) =>
          Number(
            insInvoice.run(
              userId,
              id,
              invoice.number,
              invoice.amount,
              currency,
              invoice.issued,
              invoice.due,
              invoice.paid >= invoice.amount ? "paid" : "open",
              invoice.paid,
              createdAt,
              createdAt,
            ).lastInsertRowid,
          ),
        );
        for (const [paymentId, k, take] of allocations) insAllocation.run(paymentId, invoiceIds[k], take);
        if (status === "opted_out") {
          insOptOut.run(userId, debtorEmail.toLowerCase(), createdAt + DAY);
          insEvent.run(userId, id, "opted_out", "", createdAt + DAY);
        }
        if (status === "bouncing") insEvent.run(userId, id, "bounced", "", createdAt + DAY);
      }

      const insSchedule = db.prepare(
        `INSERT INTO schedules (id, owner_id, debtor_id, organization_id, preset, template_step, frequency, time_zone,
           due_date, state, stopped_reason, next_run_at, last_run_at, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      );
      const scheduleOf = new Map();
      const scheduleIds = [];
      for (let i = 0; i < schedules; i++) {
        const d = rows[i % rows.length];
        const id = `${userId}-${randomUUID()}`;
        const preset = r.next() < 0.75 ? "FRIENDLY_REMINDER" : "SINGLE_REMINDER";
        const frequency = r.weighted({ weekly: 60, daily: 35, now: 5 });
        const stopped = d.status === "paid" ? "paid" : d.status === "opted_out" ? "opted_out" : null;
        const state = stopped || frequency === "now" ? "COMPLETED" : r.next() < 0.85 ? "ENABLED" : "DISABLED";
        const createdAt = d.createdAt + r.int(0, 2) * DAY;
        insSchedule.run(
          id,
          userId,
          d.id,
          r.next() < 0.2 && orgIds.length > 0 ? r.pick(orgIds) : null,
          preset,
          r.int(0, 4),
          frequency,
          d.timeZone,
          r.next() < 0.6 ? new Date(createdAt + 30 * DAY).toISOString().slice(0, 10) : null,
          state,
          stopped,
          // Due in the future: nothing is overdue, so no watchdog or alarm works during the pages.
          state === "ENABLED" ? now + r.int(1, 7) * DAY + r.int(0, DAY - 1) : null,
          Math.min(now - DAY, createdAt + 7 * DAY),
          createdAt,
          createdAt,
        );
        if (!scheduleOf.has(d.id)) scheduleOf.set(d.id, { id, preset });
        scheduleIds.push(id);
      }

      const insDelivery = db.prepare(
        `INSERT INTO deliveries (owner_id, schedule_id, debtor_id, occurrence_key, template, tone, status, recipient,
           provider_id, error, created_at, sent_at, delivered_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      );
      const used = new Set();
      for (let i = 0; i < deliveries; i++) {
        const d = rows[i % rows.length];
        const s = scheduleOf.get(d.id);
        let createdAt = now - r.int(0, 180 * DAY);
        const testSend = r.next() < 0.02;
        const nonce = randomBytes(4).toString("hex");
        const keyAt = (at) =>
          testSend ? `test:${userId}:${at}:${nonce}` : `${s?.id ?? `${userId}-gone-${d.id}`}:${at}`;
        while (used.has(keyAt(createdAt))) createdAt += 1;
        const key = keyAt(createdAt);
        used.add(key);
        const status = testSend
          ? "sent"
          : r.weighted({ sent: 82, failed: 7, deferred: 3, bounced: 3, complained: 0.5, sending: 0.5, delivered: 4 });
        const template = s?.preset === "SINGLE_REMINDER" ? "single" : r.pick(FRIENDLY);
        const sent = status === "sent" || status === "bounced" || status === "complained" || status === "delivered";
        const error =
          status === "failed"
            ? r.pick([
                "Gave up after 5 attempts. Resend 429: Too many requests",
                "Resend 422: The to address is invalid",
                "Not sent: the debt was paid in full before this reminder went out.",
              ])
            : status === "deferred"
              ? "Daily limit of 50 reminders reached for this account. It will be sent after Jun 3, 2026, 10:00 AM."
              : null;
        insDelivery.run(
          userId,
          s?.id ?? null,
          d.id,
          key,
          template,
          r.int(1, 3),
          status === "delivered" ? "sent" : status,
          testSend ? email : d.email.toLowerCase(),
          sent ? `re_${randomBytes(12).toString("hex")}` : null,
          error,
          createdAt,
          sent ? createdAt + r.int(200, 3000) : null,
          status === "delivered" ? createdAt + r.int(3000, 60_000) : null,
        );
      }
      return {
        userId,
        email,
        token,
        debtorIds: rows.map((d) => d.id),
        // The first debtor's opt_out_key: the benchmark signs their page's link (/d/<token>) with it.
        firstDebtorKey: rows[0]?.optOutKey ?? null,
        scheduleIds,
      };
    });
  } finally {
    db.close();
  }
}

/**
 * The engine run's schedules: `count` ENABLED daily schedules all due at `dueAt`, each to its own
 * debtor at its own address, in `perAccount` per account (plan 'aggressive': 50 a day, so no
 * sending limit holds one back), in `timeZone` (where it is daytime now: contact rules). `armAtDue`:
 * also an alarm_repairs row per schedule, so the watchdog arms every object at `dueAt`.
 * `withSessions`: also a session per account, returned as `sessions` (user id → cookie value).
 */
export function seedEngine(
  path,
  { count, perAccount, dueAt, timeZone, armAtDue = false, withSessions = false, now = Date.now() },
) {
  const db = openDb(path);
  try {
    return transaction(db, () => {
      const insDebtor = db.prepare(
        `INSERT INTO debtors (owner_id, kind, full_name, email, debt_cents, currency, active_strategy, paid_cents, status,
           time_zone, opt_out_key, created_at, updated_at)
         VALUES (?, 'person', ?, ?, ?, 'USD', 1, 0, 'active', ?, ?, ?, ?)`,
      );
      const insInvoice = db.prepare(
        `INSERT INTO invoices (owner_id, debtor_id, number, amount_cents, currency, issued_on, due_on, created_at, updated_at)
         VALUES (?, ?, ?, ?, 'USD', ?, ?, ?, ?)`,
      );
      const insSchedule = db.prepare(
        `INSERT INTO schedules (id, owner_id, debtor_id, preset, template_step, frequency, time_zone, state, next_run_at,
           created_at, updated_at)
         VALUES (?, ?, ?, 'FRIENDLY_REMINDER', 0, 'daily', ?, 'ENABLED', ?, ?, ?)`,
      );
      // With armAtDue, each schedule is also recorded in alarm_repairs: the watchdog's repairAlarms then
      // arms its Durable Object at next_run_at through the lifecycle's own arm() (what creating a
      // schedule in the app does), so the run can start with every alarm set, as in production.
      const insRepair = db.prepare("INSERT INTO alarm_repairs (schedule_id, error, failed_at) VALUES (?, ?, ?)");
      let userId = null;
      const accounts = [];
      // With withSessions, a signed-in session per account: the run records payments through the API.
      const sessions = {};
      for (let i = 0; i < count; i++) {
        if (i % perAccount === 0) {
          userId = newUserId();
          insertUser(db, {
            id: userId,
            email: `engine-owner-${accounts.length}@bench.example`,
            fullName: `Engine Owner ${accounts.length}`,
            plan: "aggressive",
            createdAt: now - 30 * DAY,
          });
          accounts.push(userId);
          if (withSessions) sessions[userId] = insertSession(db, userId, now);
        }
        const info = insDebtor.run(
          userId,
          `Debtor ${i}`,
          `engine-debtor-${i}@bench.example`,
          10_000 + i,
          timeZone,
          randomUUID().replaceAll("-", ""),
          now - DAY,
          now - DAY,
        );
        const day = new Date(now - DAY).toISOString().slice(0, 10);
        insInvoice.run(userId, Number(info.lastInsertRowid), `INV-${i}`, 10_000 + i, day, day, now - DAY, now - DAY);
        const scheduleId = `${userId}-${randomUUID()}`;
        insSchedule.run(scheduleId, userId, Number(info.lastInsertRowid), timeZone, dueAt, now - DAY, now - DAY);
        if (armAtDue) insRepair.run(scheduleId, "bench: arm before the due instant", now + i);
      }
      return { accounts: accounts.length, sessions };
    });
  } finally {
    db.close();
  }
}

/** Runs `sql` (a SELECT) on the D1 file and returns all rows; safe while wrangler dev runs (WAL, read-only). */
export function query(path, sql, ...params) {
  const db = openDb(path, { readOnly: true });
  try {
    return db.prepare(sql).all(...params);
  } finally {
    db.close();
  }
}

/**
 * An IANA zone where it is about 13:00 now (tests/support/daytime-zone.ts): the engine's debtors
 * get it, so the contact rules (08:00-21:00 in the debtor's zone) let every reminder out at once
 * and for hours after.
 */
export function daytimeZone(now = Date.now()) {
  const offset = ((13 - new Date(now).getUTCHours() + 36) % 24) - 12;
  if (offset === 0) return "UTC";
  return `Etc/GMT${offset > 0 ? "-" : "+"}${Math.abs(offset)}`;
}
