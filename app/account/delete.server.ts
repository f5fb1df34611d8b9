import { eq, getTableName, type SQL, sql } from "drizzle-orm";
import type { SQLiteTable } from "drizzle-orm/sqlite-core";
import { getBilling } from "~/billing/index.server";
import { type Db, getDb } from "~/db/client.server";
import { debtors, schedules, users } from "~/db/schema";
import { archivePrefix } from "~/domain/archive-months";
import type { AppConfig } from "~/platform/config.server";
import { deleteAccountSchedules } from "~/reminders/index.server";
import { stripeSetup } from "~/stripe/index.server";
import { ACCOUNT_TABLES, type AccountKey } from "./tables.server";

/**
 * Deleting an account (docs/decisions/023): its subscription is
 * cancelled first (a deletion that cannot cancel stops there, nothing lost, so nobody is charged
 * for an account that is gone), then every row it owns in every table of ACCOUNT_TABLES, in that
 * order, a bounded slice per statement (one bound value each, D1 keeps a long delete from blocking
 * everyone else), its schedules' alarms are disarmed right after their rows went, and its R2
 * objects are deleted. Its debtors' links then name no debtor: they answer like any unknown link,
 * and a reply to its reply address is rejected as an unknown recipient. A mail job already queued
 * for one of its deliveries finds no row and is dropped (app/reminders/mail-queue.server.ts).
 */

/** Rows one DELETE removes (as the housekeeping job's purge). */
const ROWS_PER_DELETE = 1000;
/** R2 deletes at most 1,000 keys a call. */
const KEYS_PER_DELETE = 1000;

export type DeleteAccountResult =
  | { ok: true; rows: Record<string, number>; objects: number; disarmed: number }
  | { ok: false; reason: "subscription" };

/** Deletes up to ROWS_PER_DELETE of `table`'s rows matching `where`; how many it deleted. */
async function deleteSlice(db: Db, table: SQLiteTable, where: SQL) {
  const deleted = await db.all<{ n: number }>(
    sql`DELETE FROM ${table} WHERE rowid IN (SELECT rowid FROM ${table} WHERE ${where} LIMIT ${ROWS_PER_DELETE}) RETURNING 1 AS n`,
  );
  return deleted.length;
}

async function deleteAll(db: Db, table: SQLiteTable, where: SQL) {
  let total = 0;
  for (;;) {
    const n = await deleteSlice(db, table, where);
    total += n;
    if (n < ROWS_PER_DELETE) return total;
  }
}

/**
 * Cancels the account's subscription at Stripe, now (not at the period's end). True when there is
 * nothing left to charge: cancelled, already ended, unknown to Stripe, or no Stripe here at all
 * (production without a key sells nothing). False when Stripe could not be reached or refused.
 */
async function cancelSubscription(env: Env, config: AppConfig, db: Db, userId: string) {
  const billing = await getBilling(db, userId);
  const id = billing?.stripeSubscriptionId;
  if (!id || billing.subscriptionStatus === "canceled") return true;
  const stripe = stripeSetup(config, env);
  if (!stripe) return true;
  try {
    await stripe.client.subscriptions.cancel(id);
    // Recorded at once: a deletion run again after a failure part way does not cancel twice.
    await db.update(users).set({ subscriptionStatus: "canceled" }).where(eq(users.id, userId));
    return true;
  } catch (error) {
    // Already gone at Stripe: nothing to charge.
    if ((error as { statusCode?: number }).statusCode === 404) return true;
    console.error("[dunly] account deletion: the subscription could not be cancelled", error);
    return false;
  }
}

/** Deletes every R2 object of `bucket` under `prefix`; how many. */
async function deleteObjectsUnder(bucket: R2Bucket, prefix: string) {
  let deleted = 0;
  let cursor: string | undefined;
  do {
    const listed = await bucket.list({ prefix, cursor, limit: KEYS_PER_DELETE });
    const keys = listed.objects.map((o) => o.key);
    if (keys.length > 0) await bucket.delete(keys);
    deleted += keys.length;
    cursor = listed.truncated ? listed.cursor : undefined;
  } while (cursor);
  return deleted;
}

/**
 * Deletes the account's R2 objects: its profile photos (app/account/images.server.ts) and its archived
 * deliveries (archivePrefix, docs/decisions/022).
 */
async function deleteObjects(env: Env, userId: string) {
  return (
    (await deleteObjectsUnder(env.IMAGES, `${userId}/`)) +
    (await deleteObjectsUnder(env.ARCHIVE, archivePrefix(userId)))
  );
}

/**
 * Deletes the account and everything it owns (see above). `account.email` is its address as
 * stored (lower-cased): its unused sign-in links go too. Safe to run again after a failure part
 * way: what is left is found the same way.
 */
export async function deleteAccount(
  env: Env,
  config: AppConfig,
  account: AccountKey,
  now = Date.now(),
): Promise<DeleteAccountResult> {
  const db = getDb(env.DB);
  if (!(await cancelSubscription(env, config, db, account.id))) return { ok: false, reason: "subscription" };
  const key = { id: account.id, email: account.email.toLowerCase() };
  // The debtors' links stop first, before the long part: every one is signed over the debtor's key
  //, so without it they answer like unknown links at once.
  await db.update(debtors).set({ optOutKey: null }).where(eq(debtors.ownerId, account.id));
  const rows: Record<string, number> = {};
  let disarmed = 0;
  for (const { table, rows: where } of ACCOUNT_TABLES) {
    if (table === schedules) {
      // Through the lifecycle: their rows go, then their alarms.
      disarmed = await deleteAccountSchedules(env, db, account.id, now);
      rows[getTableName(table)] = disarmed;
      continue;
    }
    rows[getTableName(table)] = await deleteAll(db, table, where(key));
  }
  const objects = await deleteObjects(env, account.id);
  return { ok: true, rows, objects, disarmed };
}
