import { env } from "cloudflare:workers";
import { count, getTableName, is } from "drizzle-orm";
import { SQLiteTable } from "drizzle-orm/sqlite-core";
import { describe, expect, it } from "vitest";
import { continueAccountDeletion } from "~/account/delete.server";
import { EXPORT_FORMAT, EXPORTED_TABLES, ROWS_PER_PAGE } from "~/account/export.server";
import { ACCOUNT_TABLES, type AccountKey, GLOBAL_TABLES } from "~/account/tables.server";
import * as schema from "~/db/schema";
import { archiveObjectKey, archivePrefix } from "~/domain/archive-months";
import { paidClaimLink, portalLink } from "~/links/debtor-pages.server";
import { optOutLink, replyAddress } from "~/links/signed-links.server";
import { readConfig } from "~/platform/config.server";
import { fireSchedule } from "~/reminders/engine.server";
import { ACCOUNT_DELETED } from "~/schemas/messages";
import { DELETE_MISMATCH_MESSAGE } from "~/schemas/profile";
import { runHousekeeping } from "~/watchdog/index.server";
import { eventually, formAction, imagesOf, replyErrors } from "./data-helpers";
import { alarmAt, consumeJobs, HOUR, queuedJob, resendRequests, stubOf } from "./engine-helpers";
import { db, makeDebtor, makeOrg, makeSchedule, makeSignedInUser, payInvoice, userRow } from "./fixtures";
import { get, ORIGIN, postForm, request, sessionCookieName, visibleText } from "./helpers";

/**
 * Users own their data (docs/decisions/023): every table of the
 * schema is either the account's (deleted with it, exported) or global with a reason; deleting an
 * account leaves none of its rows, objects, alarms, sessions or subscription and touches no other
 * account's; the export holds every row the account owns and no secret.
 */

const config = () => readConfig(env);
const INVALID_TEXT = "This link is no longer valid.";

type Account = Awaited<ReturnType<typeof makeSignedInUser>>;
const cookieOf = (a: Account) => `${sessionCookieName()}=${a.token}`;
const keyOf = (a: Account): AccountKey => ({ id: a.id, email: a.email.toLowerCase() });

/** Rows in every account table for `a`: each table holds at least one of theirs. */
async function seedAccount(a: Account) {
  const now = Date.now();
  const debtor = await makeDebtor(a.id, { fullName: `Debtor of ${a.fullName}`, debtCents: 50_000 });
  await payInvoice(a.id, debtor.id, debtor.invoiceId, 10_000);
  const org = await makeOrg(a.id, `${a.fullName} Ltd`, "1 Main St");
  const scheduleId = await makeSchedule(a.id, debtor.id, { timeZone: "UTC" });
  await stubOf(scheduleId).arm(scheduleId, now + HOUR, { force: true });
  const event = await env.DB.prepare(
    "INSERT INTO debtor_events (owner_id, debtor_id, type, detail) VALUES (?, ?, 'paid_claimed', '') RETURNING id",
  )
    .bind(a.id, debtor.id)
    .first<{ id: number }>();
  const sessionId = `cs_${a.id}`;
  await env.DB.batch([
    env.DB.prepare("INSERT INTO oauth_accounts (provider, provider_user_id, user_id) VALUES ('google', ?, ?)").bind(
      `g-${a.id}`,
      a.id,
    ),
    env.DB.prepare(
      "INSERT INTO password_credentials (user_id, hash, salt, iterations) VALUES (?, 'secret-hash-value', 'secret-salt-value', 100000)",
    ).bind(a.id),
    env.DB.prepare("INSERT INTO login_tokens (hash, email, expires_at) VALUES (?, ?, ?)").bind(
      `login-hash-${a.id}`,
      a.email.toLowerCase(),
      now + HOUR,
    ),
    env.DB.prepare("INSERT INTO opt_outs (owner_id, email) VALUES (?, ?)").bind(a.id, `gone-${a.id}@example.com`),
    // A debtor's other contact (decisions/057).
    env.DB.prepare("INSERT INTO debtor_contacts (owner_id, debtor_id, name, email) VALUES (?, ?, 'Carl Copy', ?)").bind(
      a.id,
      debtor.id,
      `copy-${a.id}@example.com`,
    ),
    env.DB.prepare(
      "INSERT INTO deliveries (owner_id, schedule_id, debtor_id, occurrence_key, template, tone, status, sent_at) VALUES (?, ?, ?, ?, 'single', 1, 'sent', ?)",
    ).bind(a.id, scheduleId, debtor.id, `seed-${a.id}`, now),
    // A text message (decisions/070): its own counts, text_status_counts.
    env.DB.prepare(
      "INSERT INTO deliveries (owner_id, schedule_id, debtor_id, occurrence_key, template, tone, status, sent_at, channel, recipient) VALUES (?, ?, ?, ?, 'single', 1, 'sent', ?, 'text', '+447700900123')",
    ).bind(a.id, scheduleId, debtor.id, `seed-${a.id}:text`, now),
    env.DB.prepare(
      "INSERT INTO debtor_replies (owner_id, debtor_id, from_address, subject, text) VALUES (?, ?, ?, 'Re: invoice', 'Paid')",
    ).bind(a.id, debtor.id, debtor.email),
    env.DB.prepare(
      "INSERT INTO text_messages (owner_id, debtor_id, idempotency_key, \"to\", body, sid, provider, status, attempted_at) VALUES (?, ?, ?, '+447700900123', 'You owe', ?, 'standin', 'delivered', ?)",
    ).bind(a.id, debtor.id, `seed-text-${a.id}`, `SMseed${a.id}`, now),
    env.DB.prepare(
      "INSERT INTO text_opt_outs (owner_id, number, source, at) VALUES (?, '+447700900124', 'keyword', ?)",
    ).bind(a.id, now),
    env.DB.prepare(
      "INSERT INTO user_notifications (owner_id, kind, debtor_id, event_id, event_key) VALUES (?, 'paid_claimed', ?, ?, ?)",
    ).bind(a.id, debtor.id, event!.id, `paid_claimed:${event!.id}`),
    env.DB.prepare(
      "INSERT INTO emails (owner_id, kind, debtor_id, recipient, idem_key, payload, status, created_at) VALUES (?, 'reply-copy', ?, ?, ?, '{}', 'sent', ?)",
    ).bind(a.id, debtor.id, a.email, `reply:seed-${a.id}`, now),
    env.DB.prepare(
      "INSERT INTO account_cadences (owner_id, cadence_steps, send_hour, autopilot) VALUES (?, '-3,0,7,14,30,45', 10, 1)",
    ).bind(a.id),
    env.DB.prepare(
      "INSERT INTO bank_accounts (owner_id, currency, holder, iban) VALUES (?, 'EUR', 'Ada', 'DE89370400440532013000')",
    ).bind(a.id),
    env.DB.prepare(
      "INSERT INTO message_templates (owner_id, template, tone, language, subject, body) VALUES (?, 'initial', 1, 'de', 'Hallo', '{statement}')",
    ).bind(a.id),
    env.DB.prepare(
      "INSERT INTO sending_domains (owner_id, name, local_part, provider_id, status) VALUES (?, ?, 'billing', ?, 'verified')",
    ).bind(a.id, `${a.id}.example.com`, `dom_seed_${a.id}`),
    env.DB.prepare(
      "INSERT INTO accounting_connections (owner_id, provider, access_token, refresh_token, access_expires_at, connected_at, updated_at) VALUES (?, 'xero', 'v1.sealed', 'v1.sealed', 0, 0, 0)",
    ).bind(a.id),
    // A payment written back to the books (decisions/063).
    env.DB.prepare(
      "INSERT INTO accounting_writebacks (owner_id, payment_id, invoice_id, provider, amount_cents, currency, account_id, created_at, updated_at) SELECT owner_id, id, ?, 'xero', 100, 'USD', 'bank-account', ?, ? FROM payments WHERE owner_id = ? LIMIT 1",
    ).bind(debtor.invoiceId, now, now, a.id),
    env.DB.prepare(
      "INSERT INTO accounting_oauth_states (hash, owner_id, provider, code_verifier, expires_at) VALUES (?, ?, 'xero', 'verifier', 0)",
    ).bind(`state-${a.id}`, a.id),
    env.DB.prepare(
      "INSERT INTO stripe_accounts (user_id, account_id, connected_at, updated_at) VALUES (?, ?, ?, ?)",
    ).bind(a.id, `acct_${a.id}`, now, now),
    env.DB.prepare(
      "INSERT INTO online_payments (session_id, owner_id, debtor_id, account_id, amount_cents, currency, created_at, updated_at) VALUES (?, ?, ?, ?, 100, 'USD', ?, ?)",
    ).bind(sessionId, a.id, debtor.id, `acct_${a.id}`, now, now),
    // Texts (decisions/069): a number's STOP, the account's settings, a month's count.
    env.DB.prepare(
      "INSERT INTO text_opt_outs (owner_id, number, source, at) VALUES (?, '+447400123456', 'keyword', ?)",
    ).bind(a.id, now),
    env.DB.prepare("INSERT INTO text_settings (owner_id, enabled, countries) VALUES (?, 1, 'GB')").bind(a.id),
    env.DB.prepare("INSERT INTO text_usage (owner_id, month, used) VALUES (?, '2026-11', 3)").bind(a.id),
    // Late-payment charges (decisions/065): the terms, a charge, what a payment paid on it, a pause.
    env.DB.prepare("INSERT INTO late_charge_terms (owner_id, enabled, rule) VALUES (?, 1, 'gb')").bind(a.id),
    env.DB.prepare(
      "INSERT INTO charges (owner_id, debtor_id, invoice_id, kind, currency, amount_cents, paid_cents, basis, accrued_through) VALUES (?, ?, ?, 'fee', 'USD', 500, 100, '{}', '2026-01-01')",
    ).bind(a.id, debtor.id, debtor.invoiceId),
    env.DB.prepare(
      "INSERT INTO charge_allocations (payment_id, charge_id, amount_cents) SELECT p.id, c.id, 100 FROM payments AS p JOIN charges AS c ON c.owner_id = p.owner_id WHERE p.owner_id = ? LIMIT 1",
    ).bind(a.id),
    env.DB.prepare(
      "INSERT INTO charge_pauses (owner_id, invoice_id, reason, from_on) VALUES (?, ?, 'dispute', '2026-01-01')",
    ).bind(a.id, debtor.invoiceId),
    // A payment plan (decisions/066), its instalment and the invoice it covers.
    env.DB.prepare(
      "INSERT INTO payment_plans (owner_id, debtor_id, currency, status, proposed_by, total_cents, first_on) VALUES (?, ?, 'USD', 'declined', 'debtor', 100, '2026-12-01')",
    ).bind(a.id, debtor.id),
    env.DB.prepare(
      "INSERT INTO plan_instalments (owner_id, plan_id, seq, due_on, amount_cents) SELECT owner_id, id, 1, '2026-12-01', 100 FROM payment_plans WHERE owner_id = ?",
    ).bind(a.id),
    env.DB.prepare(
      "INSERT INTO plan_invoices (owner_id, plan_id, invoice_id) SELECT p.owner_id, p.id, i.id FROM payment_plans AS p JOIN invoices AS i ON i.debtor_id = p.debtor_id WHERE p.owner_id = ? LIMIT 1",
    ).bind(a.id),
  ]);
  await env.IMAGES.put(`${a.id}/photo${a.id}`, new Uint8Array([1, 2, 3]));
  // A month of deliveries moved to the archive (docs/decisions/022): its counts, its file's record and the file.
  const archived = [
    { id: 900_001, ownerId: a.id, status: "sent", occurrenceKey: `old-1-${a.id}` },
    { id: 900_002, ownerId: a.id, status: "failed", occurrenceKey: `old-2-${a.id}` },
  ];
  const file = `${archived.map((d) => JSON.stringify(d)).join("\n")}\n`;
  await env.ARCHIVE.put(archiveObjectKey(a.id, "2024-01"), file);
  await env.DB.batch([
    env.DB.prepare(
      "INSERT INTO delivery_rollups (owner_id, debtor_id, month, status, test_send, schedule_id, n) VALUES (?, ?, '2024-01', 'sent', 0, ?, 1)",
    ).bind(a.id, debtor.id, scheduleId),
    env.DB.prepare(
      "INSERT INTO delivery_archives (owner_id, month, object_key, rows, bytes) VALUES (?, '2024-01', ?, 2, ?)",
    ).bind(a.id, archiveObjectKey(a.id, "2024-01"), file.length),
  ]);
  return { debtor, org, scheduleId, archived };
}

/** How many rows of the account each account table holds. */
async function countsOf(key: AccountKey) {
  const counts: Record<string, number> = {};
  for (const t of ACCOUNT_TABLES) {
    const row = await db().select({ n: count() }).from(t.table).where(t.rows(key)).get();
    counts[getTableName(t.table)] = row?.n ?? 0;
  }
  return counts;
}

/** Every row of the account in every account table. */
async function rowsOf(key: AccountKey) {
  const rows: Record<string, unknown[]> = {};
  for (const t of ACCOUNT_TABLES) rows[getTableName(t.table)] = await db().select().from(t.table).where(t.rows(key));
  return rows;
}

/** A subscription in the local Stripe stand-in, as Checkout leaves it, made the account's. */
async function subscribe(a: Account) {
  const id = `sub_${a.id}`;
  await env.DB.prepare("INSERT INTO dev_stripe_objects (id, object, data) VALUES (?, 'subscription', ?)")
    .bind(id, JSON.stringify({ id, object: "subscription", status: "active", customer: `cus_${a.id}` }))
    .run();
  await env.DB.prepare("INSERT INTO dev_stripe_objects (id, object, data) VALUES (?, 'customer', ?)")
    .bind(`cus_${a.id}`, JSON.stringify({ id: `cus_${a.id}`, object: "customer", email: a.email }))
    .run();
  await env.DB.prepare(
    "UPDATE users SET stripe_customer_id = ?, stripe_subscription_id = ?, subscription_status = 'active' WHERE id = ?",
  )
    .bind(`cus_${a.id}`, id, a.id)
    .run();
  return id;
}

async function standInStatus(id: string) {
  return (await standInObject(id)).status;
}

async function standInObject(id: string) {
  const row = await env.DB.prepare("SELECT data FROM dev_stripe_objects WHERE id = ?")
    .bind(id)
    .first<{ data: string }>();
  return JSON.parse(row!.data) as { status?: string; deleted?: boolean };
}

/** The stand-in's object of the connected account seedAccount gave `a`. */
async function connect(a: Account) {
  const id = `acct_${a.id}`;
  await env.DB.prepare("INSERT INTO dev_stripe_objects (id, object, data) VALUES (?, 'account', ?)")
    .bind(id, JSON.stringify({ id, object: "account", charges_enabled: true }))
    .run();
  return id;
}

function deleteForm(a: Account, typed: string) {
  return postForm("/iam/info", { intent: "account-delete", confirm_email: typed }, { cookie: cookieOf(a) });
}

describe("the schema's tables", () => {
  const tables = (Object.values(schema) as unknown[]).filter((value): value is SQLiteTable => is(value, SQLiteTable));

  it("each is the account's or global with a reason, never both, and the lists hold nothing else", () => {
    expect(tables.length).toBeGreaterThan(20);
    const account = new Set(ACCOUNT_TABLES.map((t) => t.table));
    for (const table of tables) {
      const name = getTableName(table);
      const global = GLOBAL_TABLES.get(table);
      expect(account.has(table) || global !== undefined, `${name}: add it to ACCOUNT_TABLES or GLOBAL_TABLES`).toBe(
        true,
      );
      expect(account.has(table) && global !== undefined, `${name} is in both lists`).toBe(false);
      if (global !== undefined) expect(global.length, `${name}: say why it is global`).toBeGreaterThan(20);
    }
    expect(account.size + GLOBAL_TABLES.size).toBe(tables.length);
    expect(account.size).toBe(ACCOUNT_TABLES.length);
  });

  it("every account table is in the export, but for those that hold only secrets (each says why)", () => {
    const exported = new Set(EXPORTED_TABLES.map((t) => t.table));
    for (const t of ACCOUNT_TABLES) {
      if ("no" in t.exported) {
        expect(exported.has(t.table)).toBe(false);
        expect(t.exported.no).toMatch(/secret/);
      } else expect(exported.has(t.table), getTableName(t.table)).toBe(true);
    }
    expect(
      ACCOUNT_TABLES.filter((t) => "no" in t.exported)
        .map((t) => getTableName(t.table))
        .sort(),
    ).toEqual(["accounting_oauth_states", "login_tokens", "password_credentials"]);
  });
});

describe("Settings → Delete account", () => {
  it("a wrong address is a field error and deletes nothing; so is an empty one", async () => {
    const a = await makeSignedInUser("Ada Stays");
    await seedAccount(a);
    const before = await rowsOf(keyOf(a));
    for (const typed of [`x${a.email}`, "", "   ", "someone@example.com"]) {
      const { status, data } = await formAction(
        "/iam/info",
        { intent: "account-delete", confirm_email: typed },
        cookieOf(a),
      );
      expect(status, typed).toBe(400);
      expect(replyErrors(data).confirm_email?.[0]).toBeTruthy();
      if (typed.trim()) expect(replyErrors(data).confirm_email).toEqual([DELETE_MISMATCH_MESSAGE]);
    }
    // Without JavaScript (a document post): the page again, the error under the field, the text kept.
    const page = await deleteForm(a, "someone@example.com");
    expect(page.status).toBe(400);
    const html = await page.text();
    expect(html).toContain(DELETE_MISMATCH_MESSAGE.replace("'", "&#x27;"));
    expect(html).toContain('value="someone@example.com"');
    expect(await rowsOf(keyOf(a))).toEqual(before);
    expect((await get("/iam/info", { cookie: cookieOf(a) })).status).toBe(200);
  });

  it("answers at once, signed out and sending nothing; the job deletes every row, photo, alarm and what Dunly made at Stripe, and nothing of another account", async () => {
    const a = await makeSignedInUser("Ada Gone");
    const b = await makeSignedInUser("Bea Stays");
    const seeded = await seedAccount(a);
    const other = await seedAccount(b);
    const subscription = await subscribe(a);
    const otherSubscription = await subscribe(b);
    const connected = await connect(a);
    // Counters of the account's own (its password checks, sign-ins to its address) and of a client.
    const ownLimits = [`password-user:${a.id}`, `signin-email:1.2.3.4:${a.email.toLowerCase()}`];
    for (const key of [...ownLimits, "signin-client:1.2.3.4"]) {
      await env.DB.prepare("INSERT INTO rate_limit_events (key, created_at) VALUES (?, ?)").bind(key, Date.now()).run();
    }
    const before = await countsOf(keyOf(a));
    for (const [table, n] of Object.entries(before))
      expect(n, `${table} holds a row of the account`).toBeGreaterThan(0);
    const otherBefore = await rowsOf(keyOf(b));
    const otherImages = await imagesOf(b.id);
    expect(await imagesOf(a.id)).toHaveLength(1);
    expect(await alarmAt(seeded.scheduleId)).not.toBeNull();

    const debtor = { id: seeded.debtor.id, ownerId: a.id, optOutKey: null };
    const links = [
      await optOutLink(db(), config(), debtor),
      await paidClaimLink(db(), config(), debtor),
      await portalLink(db(), config(), debtor),
    ].map((url) => new URL(url).pathname);
    const reply = (await replyAddress(db(), config(), debtor))!;

    // A reminder in flight: queued for the provider before the account goes.
    await env.DB.prepare("UPDATE users SET plan = 'aggressive' WHERE id = ?").bind(a.id).run();
    await env.DB.prepare("UPDATE schedules SET next_run_at = ? WHERE id = ?")
      .bind(Date.now() - 1000, seeded.scheduleId)
      .run();
    const job = queuedJob(await fireSchedule(env, seeded.scheduleId, Date.now()));

    // Typed in another case with spaces around: still the account's address.
    const res = await deleteForm(a, `  ${a.email.toUpperCase()} `);
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/");
    // A document redirect (the landing page is not hydrated): the flashed message is read by it alone.
    expect(res.headers.get("X-Remix-Reload-Document")).toBe("true");
    const cookies = res.headers.getSetCookie();
    expect(cookies.some((c) => c.startsWith(`${sessionCookieName()}=;`))).toBe(true);
    expect(cookies.some((c) => decodeURIComponent(c).includes(ACCOUNT_DELETED))).toBe(true);

    // The job (the jobs queue) deletes the rest in the background.
    expect(await eventually(async () => (await userRow(a.id)) === null, 15_000)).toBe(true);
    expect(Object.values(await countsOf(keyOf(a))).every((n) => n === 0)).toBe(true);
    expect(await countsOf(keyOf(a))).toEqual(Object.fromEntries(Object.keys(before).map((k) => [k, 0])));
    expect(await userRow(a.id)).toBeNull();
    expect(await imagesOf(a.id)).toEqual([]);
    expect((await env.ARCHIVE.list({ prefix: archivePrefix(a.id) })).objects).toEqual([]);
    expect(await alarmAt(seeded.scheduleId)).toBeNull();
    expect(await standInStatus(subscription)).toBe("canceled");
    expect(await standInObject(`cus_${a.id}`)).toMatchObject({ deleted: true });
    expect(await standInObject(connected)).toMatchObject({ deleted: true });
    const limits = await env.DB.prepare("SELECT key FROM rate_limit_events WHERE key IN (?, ?, ?)")
      .bind(...ownLimits, "signin-client:1.2.3.4")
      .all<{ key: string }>();
    expect(limits.results.map((r) => r.key)).toEqual(["signin-client:1.2.3.4"]);
    // The other account: every row, object, alarm and its subscription as they were.
    expect(await rowsOf(keyOf(b))).toEqual(otherBefore);
    expect(await imagesOf(b.id)).toEqual(otherImages);
    expect((await env.ARCHIVE.list({ prefix: archivePrefix(b.id) })).objects).toHaveLength(1);
    expect(await alarmAt(other.scheduleId)).not.toBeNull();
    expect(await standInStatus(otherSubscription)).toBe("active");
    expect(await standInObject(`cus_${b.id}`)).not.toHaveProperty("deleted");
    expect((await get("/iam/info", { cookie: cookieOf(b) })).status).toBe(200);

    // Signed out: the old cookie is no session.
    const after = await get("/iam/info", { cookie: cookieOf(a) });
    expect(after.status).toBe(302);
    expect(after.headers.get("Location")).toMatch(/^\/404\?redirectTo=/);

    // The debtors' links answer that they are no longer valid, a page (not a 500 or a blank).
    for (const path of links) {
      const page = await request(path);
      expect(page.status, path).toBe(404);
      expect(await visibleText(page)).toContain(INVALID_TEXT);
    }
    const inbound = await request(`/dev/inbound?to=${encodeURIComponent(reply)}`, {
      method: "POST",
      headers: { Origin: ORIGIN, "Content-Type": "message/rfc822" },
      body: `From: <${seeded.debtor.email}>\r\nTo: ${reply}\r\nSubject: Re\r\n\r\nPaid.\r\n`,
    });
    expect(inbound.status).toBe(422);
    expect(await inbound.text()).toContain("unknown-recipient");

    // The reminder in flight finds its delivery gone: dropped, never sent.
    const { messages, requeued } = await consumeJobs([job]);
    expect(messages[0]?.acked).toBe(true);
    expect(requeued).toEqual([]);
    expect(await resendRequests(seeded.debtor.email)).toEqual([]);
  });
});

describe("the deletion job", () => {
  it("while deleting, nothing of the account is read or sent; it deletes in bounded steps, and the watchdog puts a lost step back", async () => {
    const a = await makeSignedInUser("Ada Slowly");
    const seeded = await seedAccount(a);
    await env.DB.prepare(
      `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 2500)
       INSERT INTO deliveries (owner_id, schedule_id, debtor_id, occurrence_key, template, tone, status)
       SELECT ?, ?, ?, ? || i, 'single', 1, 'sent' FROM n`,
    )
      .bind(a.id, seeded.scheduleId, seeded.debtor.id, `slow-${a.id}-`)
      .run();
    // Marked as the request marks it (its own queue message left out, as if lost).
    await env.DB.prepare("UPDATE users SET deleting_at = ?, plan = 'aggressive' WHERE id = ?")
      .bind(Date.now(), a.id)
      .run();

    // Nothing is read: a session of it is no session. Nothing is sent: its due reminder finds no sender.
    const page = await get("/iam/info", { cookie: cookieOf(a) });
    expect(page.status).toBe(302);
    await env.DB.prepare("UPDATE schedules SET next_run_at = ? WHERE id = ?")
      .bind(Date.now() - 1000, seeded.scheduleId)
      .run();
    expect(await fireSchedule(env, seeded.scheduleId, Date.now())).toMatchObject({ kind: "gone" });

    const queued: unknown[] = [];
    const jobsEnv = { ...env, JOBS_QUEUE: { send: async (body: unknown) => void queued.push(body) } } as unknown as Env;
    // One step with no time to spare: one slice of the deliveries, then the next step is queued.
    const first = await continueAccountDeletion(jobsEnv, config(), a.id, { budgetMs: 0 });
    expect(first.kind).toBe("more");
    expect(queued).toEqual([{ kind: "delete-account", userId: a.id }]);
    const left = await env.DB.prepare("SELECT count(*) AS n FROM deliveries WHERE owner_id = ?")
      .bind(a.id)
      .first<{ n: number }>();
    expect(left!.n).toBeGreaterThan(0);
    expect(left!.n).toBeLessThan(2501);

    // That message lost (a restart): the watchdog's run puts the account back on the queue.
    queued.length = 0;
    const housekeeping = await runHousekeeping(jobsEnv);
    expect(housekeeping.deletionsQueued).toBeGreaterThanOrEqual(1);
    expect(queued).toContainEqual({ kind: "delete-account", userId: a.id });

    let steps = 1;
    let step = first;
    while (step.kind === "more" && steps < 20) {
      step = await continueAccountDeletion(jobsEnv, config(), a.id, { budgetMs: 0 });
      steps += 1;
    }
    expect(step.kind).toBe("done");
    expect(steps).toBeGreaterThanOrEqual(3);
    expect(await userRow(a.id)).toBeNull();
    expect(Object.values(await countsOf(keyOf(a))).every((n) => n === 0)).toBe(true);
    // A step for an account already gone does nothing.
    expect(await continueAccountDeletion(jobsEnv, config(), a.id)).toEqual({ kind: "gone" });
  });
});

describe("Settings → Export my data", () => {
  it("streams one JSON document with every row the account owns, table by table, and no secret", async () => {
    const a = await makeSignedInUser("Ada Export");
    const b = await makeSignedInUser("Bea Other");
    const seeded = await seedAccount(a);
    await seedAccount(b);
    // The debtor's link key exists (made with their first link): it must not be exported.
    await optOutLink(db(), config(), { id: seeded.debtor.id, ownerId: a.id, optOutKey: null });
    // More deliveries than a page, so the keyset pages are walked.
    await env.DB.prepare(
      `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${ROWS_PER_PAGE * 2 + 7})
       INSERT INTO deliveries (owner_id, schedule_id, debtor_id, occurrence_key, template, tone, status)
       SELECT ?, ?, ?, ? || i, 'single', 1, 'sent' FROM n`,
    )
      .bind(a.id, seeded.scheduleId, seeded.debtor.id, `bulk-${a.id}-`)
      .run();
    const res = await get("/account-data.json", { cookie: cookieOf(a) });
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toBe("application/json; charset=utf-8");
    expect(res.headers.get("Content-Disposition")).toMatch(/^attachment; filename="dunly-data-\d{4}-\d\d-\d\d\.json"$/);
    expect(res.headers.get("Cache-Control")).toBe("private, no-store");
    const text = await res.text();
    const doc = JSON.parse(text) as {
      format: string;
      version: number;
      tables: Record<string, Record<string, unknown>[]>;
      archivedDeliveries: Record<string, unknown>[];
    };
    expect(doc.format).toBe(EXPORT_FORMAT);
    // Every delivery moved to the archive, as its month's file holds it.
    expect(doc.archivedDeliveries).toEqual(seeded.archived);
    expect(Object.keys(doc.tables)).toEqual(EXPORTED_TABLES.map((t) => getTableName(t.table)));
    const counts = await countsOf(keyOf(a));
    for (const [name, rows] of Object.entries(doc.tables)) {
      expect(rows.length, name).toBe(counts[name]);
      expect(rows.length, `${name} holds a row of the account`).toBeGreaterThan(0);
    }
    const ids = doc.tables.deliveries!.map((d) => d.id);
    // The bulk, the seeded e-mail and the seeded text.
    expect(new Set(ids).size).toBe(ROWS_PER_PAGE * 2 + 9);
    expect(doc.tables.users).toEqual([expect.objectContaining({ id: a.id, email: a.email.toLowerCase() })]);
    expect(doc.tables.debtors![0]).toMatchObject({ fullName: "Debtor of Ada Export" });
    // The account's only: nothing of B.
    expect(text).not.toContain(b.id);
    // No secret: no password hash or salt, session token hash, sign-in link or debtor link key.
    const debtorKey = (await env.DB.prepare("SELECT opt_out_key FROM debtors WHERE id = ?")
      .bind(seeded.debtor.id)
      .first<{ opt_out_key: string }>())!.opt_out_key;
    for (const secret of ["secret-hash-value", "secret-salt-value", `login-hash-${a.id}`, debtorKey, a.token]) {
      expect(text).not.toContain(secret);
    }
    expect(text).not.toMatch(/"optOutKey"|"hash"|"salt"/);
    expect(doc.tables.sessions![0]).not.toHaveProperty("id");
    expect(doc.tables.sessions![0]).toHaveProperty("expiresAt");
    // One row a line: a person can read it.
    expect(text.split("\n").length).toBeGreaterThan(ROWS_PER_PAGE * 2);
  });

  it("signed out: to the sign-in page, no data", async () => {
    const res = await get("/account-data.json");
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/404?redirectTo=%2Faccount-data.json");
  });
});
