import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { getDb } from "~/db/client.server";
import { purgeExpired } from "~/watchdog/housekeeping.server";
import { eventually } from "./data-helpers";
import { MINUTE } from "./engine-helpers";
import { makeUser } from "./fixtures";
import { DAY } from "./helpers";

/**
 * Housekeeping: expired magic links, OAuth states and sessions, and
 * rate-limit events older than 24 hours are purged, in batches, by the cron trigger.
 */

const db = () => getDb(env.DB);

let n = 0;
/** A fresh key per row, so rows of different tests never meet. */
function tag(label: string) {
  n += 1;
  return `hk-${label}-${Date.now().toString(36)}-${n}-${Math.random().toString(36).slice(2, 8)}`;
}

interface Rows {
  loginTokens: string[];
  oauthStates: string[];
  sessions: string[];
  rateLimitEvents: string[];
}

/**
 * One row per instant in each table: login tokens, OAuth states and sessions that expire at
 * `expiries`, and rate-limit events created at `events`. Returns the rows' keys.
 */
async function insertRows(userId: string, expiries: number[], events: number[]): Promise<Rows> {
  const rows: Rows = { loginTokens: [], oauthStates: [], sessions: [], rateLimitEvents: [] };
  const statements: D1PreparedStatement[] = [];
  for (const at of expiries) {
    const [token, state, session] = [tag("token"), tag("state"), tag("session")];
    rows.loginTokens.push(token);
    rows.oauthStates.push(state);
    rows.sessions.push(session);
    statements.push(
      env.DB.prepare("INSERT INTO login_tokens (hash, email, expires_at) VALUES (?, 'hk@example.com', ?)").bind(
        token,
        at,
      ),
      env.DB.prepare("INSERT INTO oauth_states (hash, code_verifier, expires_at) VALUES (?, 'verifier', ?)").bind(
        state,
        at,
      ),
      env.DB.prepare("INSERT INTO sessions (id, user_id, expires_at) VALUES (?, ?, ?)").bind(session, userId, at),
    );
  }
  for (const at of events) {
    const key = tag("event");
    rows.rateLimitEvents.push(key);
    statements.push(env.DB.prepare("INSERT INTO rate_limit_events (key, created_at) VALUES (?, ?)").bind(key, at));
  }
  await env.DB.batch(statements);
  return rows;
}

/** Which of `rows` are still in D1. */
async function remaining(rows: Rows): Promise<Rows> {
  const present = async (table: string, column: string, keys: string[]) => {
    const found = new Set<string>();
    for (const key of keys) {
      const row = await env.DB.prepare(`SELECT 1 AS one FROM ${table} WHERE ${column} = ?`).bind(key).first();
      if (row) found.add(key);
    }
    return keys.filter((k) => found.has(k));
  };
  return {
    loginTokens: await present("login_tokens", "hash", rows.loginTokens),
    oauthStates: await present("oauth_states", "hash", rows.oauthStates),
    sessions: await present("sessions", "id", rows.sessions),
    rateLimitEvents: await present("rate_limit_events", "key", rows.rateLimitEvents),
  };
}

/** The rows of `all` at `indexes`, per table (expiry rows by the first list, events by the second). */
function pick(all: Rows, expiryIndexes: number[], eventIndexes: number[]): Rows {
  const at = (keys: string[], indexes: number[]) => indexes.map((i) => keys[i]!);
  return {
    loginTokens: at(all.loginTokens, expiryIndexes),
    oauthStates: at(all.oauthStates, expiryIndexes),
    sessions: at(all.sessions, expiryIndexes),
    rateLimitEvents: at(all.rateLimitEvents, eventIndexes),
  };
}

/** `rows` old rate-limit events (key `key`) created before `before`, in one statement. */
async function insertOldEvents(key: string, rows: number, before: number) {
  await env.DB.prepare(
    `WITH RECURSIVE seq(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM seq WHERE n < ?1)
     INSERT INTO rate_limit_events (key, created_at) SELECT ?2, ?3 - n FROM seq`,
  )
    .bind(rows, key, before)
    .run();
}

async function eventsWithKey(key: string) {
  return (await env.DB.prepare("SELECT count(*) AS n FROM rate_limit_events WHERE key = ?")
    .bind(key)
    .first<{ n: number }>())!.n;
}

const NOTHING = { loginTokens: 0, oauthStates: 0, sessions: 0, rateLimitEvents: 0, webhookEvents: 0 };

describe("purgeExpired", () => {
  it("deletes what expired at or before now and rate-limit events 24 hours old or older, keeps the rest, and counts what it deleted", async () => {
    const now = Date.now();
    // Whatever earlier tests left that is already due goes first, so the counts below are ours.
    await purgeExpired(db(), now);
    const user = await makeUser();
    const rows = await insertRows(
      user.id,
      // expired: a day ago, a minute ago, exactly now; live: a millisecond and half an hour ahead
      [now - DAY, now - MINUTE, now, now + 1, now + 30 * MINUTE],
      // old: a month, a day and a millisecond, exactly a day; recent: a day less a millisecond, a minute, now
      [now - 30 * DAY, now - DAY - 1, now - DAY, now - DAY + 1, now - MINUTE, now],
    );

    expect(await purgeExpired(db(), now)).toEqual({
      ...NOTHING,
      loginTokens: 3,
      oauthStates: 3,
      sessions: 3,
      rateLimitEvents: 3,
    });
    expect(await remaining(rows)).toEqual(pick(rows, [3, 4], [3, 4, 5]));

    // Nothing more is due: a second run deletes nothing.
    expect(await purgeExpired(db(), now)).toEqual(NOTHING);
    expect(await remaining(rows)).toEqual(pick(rows, [3, 4], [3, 4, 5]));

    // Later, the rest is due too.
    expect(await purgeExpired(db(), now + DAY + 30 * MINUTE)).toEqual({
      ...NOTHING,
      loginTokens: 2,
      oauthStates: 2,
      sessions: 2,
      rateLimitEvents: 3,
    });
    expect(await remaining(rows)).toEqual(pick(rows, [], []));
  });

  it("deletes a user's expired session, not the live one, and never the user", async () => {
    const now = Date.now();
    await purgeExpired(db(), now);
    const user = await makeUser();
    const rows = await insertRows(user.id, [now - MINUTE, now + DAY], []);
    await purgeExpired(db(), now);
    const left = await env.DB.prepare("SELECT id FROM sessions WHERE user_id = ?").bind(user.id).all<{ id: string }>();
    expect(left.results.map((r) => r.id)).toEqual([rows.sessions[1]]);
    // The user is untouched.
    expect(await env.DB.prepare("SELECT id FROM users WHERE id = ?").bind(user.id).first()).toEqual({ id: user.id });
  });

  it("purges a backlog larger than one batch (2,500 old rate-limit events) in one run", async () => {
    const now = Date.now();
    await purgeExpired(db(), now);
    const key = tag("backlog");
    await insertOldEvents(key, 2500, now - DAY);
    const recent = await insertRows("unused", [], [now - MINUTE]);

    const purged = await purgeExpired(db(), now);
    expect(purged).toEqual({ ...NOTHING, rateLimitEvents: 2500 });
    expect(await eventsWithKey(key)).toBe(0);
    expect(await remaining(recent)).toEqual(recent);
  });

  it("deletes at most 20 batches of 1,000 per table per run; the next run takes the rest", async () => {
    const now = Date.now();
    await purgeExpired(db(), now);
    const key = tag("huge");
    await insertOldEvents(key, 20_500, now - DAY);

    expect(await purgeExpired(db(), now)).toEqual({ ...NOTHING, rateLimitEvents: 20_000 });
    expect(await eventsWithKey(key)).toBe(500);
    expect(await purgeExpired(db(), now)).toEqual({ ...NOTHING, rateLimitEvents: 500 });
    expect(await eventsWithKey(key)).toBe(0);
  });
});

describe("the built Worker's cron trigger", () => {
  it("purges expired rows and old rate-limit events, and keeps the rest", async () => {
    const now = Date.now();
    const user = await makeUser();
    const rows = await insertRows(
      user.id,
      [now - DAY, now - MINUTE, now + DAY],
      [now - 2 * DAY, now - DAY - MINUTE, now - MINUTE],
    );
    const live = pick(rows, [2], [2]);

    // scheduled() answers before its waitUntil() work is done, hence the polling.
    const worker = exports.default as unknown as {
      scheduled(options: { scheduledTime: Date; cron: string }): Promise<unknown>;
    };
    await worker.scheduled({ scheduledTime: new Date(), cron: "*/5 * * * *" });
    const purged = async () => JSON.stringify(await remaining(rows)) === JSON.stringify(live);
    expect(await eventually(purged, 5000)).toBe(true);
    expect(await remaining(rows)).toEqual(live);
  });
});
