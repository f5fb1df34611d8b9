import { sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";

/**
 * Records one attempt under `key` unless `limit` attempts already happened within `windowMs`.
 * One INSERT … SELECT statement, so concurrent requests cannot both slip under the limit.
 * Returns true when the attempt is allowed.
 */
export async function takeRateLimit(db: Db, key: string, limit: number, windowMs: number, now = Date.now()) {
  const since = now - windowMs;
  const rows = await db.all<{ id: number }>(sql`
    INSERT INTO rate_limit_events (key, created_at)
    SELECT ${key}, ${now}
    WHERE (SELECT count(*) FROM rate_limit_events WHERE key = ${key} AND created_at > ${since}) < ${limit}
    RETURNING id`);
  if (rows.length > 0) {
    // Keep the table small: rows of this key older than the window are no longer needed.
    await db.run(sql`DELETE FROM rate_limit_events WHERE key = ${key} AND created_at <= ${since}`);
  }
  return rows.length > 0;
}

/** What a refused password guess says, on sign-in and in Settings alike. */
export const TOO_MANY_PASSWORD_GUESSES = "Too many attempts. Please wait a few minutes and try again.";

/**
 * One password check: allowed while the client has made
 * fewer than 30 in the hour (every password check it makes, sign-in and Settings together) and
 * `subject` fewer than 10 in 15 minutes. Sign-in's subject is the address from that client (so
 * guesses from elsewhere never lock the owner out); Settings' "current password" is the account
 * itself, whoever holds a session, since each guess there costs a full PBKDF2 like a sign-in.
 */
export async function allowPasswordGuess(db: Db, client: string, subject: string, now = Date.now()) {
  return (
    (await takeRateLimit(db, `password-client:${client}`, 30, 60 * 60_000, now)) &&
    (await takeRateLimit(db, subject, 10, 15 * 60_000, now))
  );
}
