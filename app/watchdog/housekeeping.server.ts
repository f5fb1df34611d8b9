import { sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";

/** Every rate limit counts over at most this long (sign-in: 15 min and 1 h); older events are dead. */
export const RATE_LIMIT_RETENTION_MS = 24 * 60 * 60_000;

/** Webhook event ids are kept this long: providers retry for at most a few days. */
export const WEBHOOK_EVENT_RETENTION_MS = 30 * 24 * 60 * 60_000;

/** Rows one statement deletes, so a large backlog never makes one long write that blocks D1. */
export const PURGE_BATCH = 1000;

/** Most batches per table per run; what is left over goes on the next run, five minutes later. */
const MAX_BATCHES = 20;

export interface PurgeCounts {
  loginTokens: number;
  oauthStates: number;
  sessions: number;
  rateLimitEvents: number;
  webhookEvents: number;
}

/** Deletes up to PURGE_BATCH rows of `table` whose `column` is at or before `cutoff`; returns how many. */
async function purgeBatch(db: Db, table: string, column: string, cutoff: number) {
  const deleted = await db.all<{ n: number }>(
    sql`DELETE FROM ${sql.identifier(table)} WHERE rowid IN (
      SELECT rowid FROM ${sql.identifier(table)} WHERE ${sql.identifier(column)} <= ${cutoff} LIMIT ${PURGE_BATCH}
    ) RETURNING 1 AS n`,
  );
  return deleted.length;
}

async function purgeTable(db: Db, table: string, column: string, cutoff: number) {
  let total = 0;
  for (let batch = 0; batch < MAX_BATCHES; batch++) {
    const n = await purgeBatch(db, table, column, cutoff);
    total += n;
    if (n < PURGE_BATCH) break;
  }
  return total;
}

/**
 * The housekeeping job: what only ever piles up is
 * removed once it can no longer be used: expired magic links, OAuth states and sessions, and
 * rate-limit events older than the longest window, webhook event ids after 30 days. Each delete uses an index on its time column.
 */
export async function purgeExpired(db: Db, now = Date.now()): Promise<PurgeCounts> {
  return {
    loginTokens: await purgeTable(db, "login_tokens", "expires_at", now),
    oauthStates: await purgeTable(db, "oauth_states", "expires_at", now),
    sessions: await purgeTable(db, "sessions", "expires_at", now),
    rateLimitEvents: await purgeTable(db, "rate_limit_events", "created_at", now - RATE_LIMIT_RETENTION_MS),
    webhookEvents: await purgeTable(db, "webhook_events", "received_at", now - WEBHOOK_EVENT_RETENTION_MS),
  };
}
