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
