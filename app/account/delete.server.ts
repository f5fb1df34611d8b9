import { and, eq, getTableName, isNotNull, isNull, or, type SQL, sql } from "drizzle-orm";
import type { SQLiteTable } from "drizzle-orm/sqlite-core";
import { getBilling } from "~/billing/index.server";
import { type Db, getDb } from "~/db/client.server";
import { debtors, rateLimitEvents, schedules, sessions, stripeAccounts, users } from "~/db/schema";
import { archivePrefix } from "~/domain/archive-months";
import type { AppConfig } from "~/platform/config.server";
import { deleteObjectsUnder } from "~/platform/r2.server";
import { deleteAccountSchedules } from "~/reminders/index.server";
import { isMissingAtStripe, stripeSetup } from "~/stripe/index.server";
import { removeSendingDomain } from "./sending-domain.server";
import { ACCOUNT_TABLES, type AccountKey } from "./tables.server";

/**
 * Deleting an account (docs/decisions/023, 046) is a background job.
 *
 * The request only starts it (startAccountDeletion), in one D1 batch: the account is marked
 * deleting, every session of it ends (signed out everywhere) and its debtors' links stop (each is
 * signed over the debtor's key, so without it they answer like unknown links). From then on
 * nothing of it is read or sent: a session of it is not valid, an alarm or a queued reminder of it
 * finds no sender, and a reply to its reply address is refused.
 *
 * The job (continueAccountDeletion, on the jobs queue) does the rest in bounded steps, each safe to
 * run again: what is left is found the same way. First what Dunly made at Stripe: the subscription
 * is cancelled (nobody is charged for an account that is gone), the customer deleted, the
 * connected account let go. Then every row it owns in every table of ACCOUNT_TABLES, in that order,
 * a bounded slice per statement; its schedules' alarms are disarmed right after their rows went.
 * Last its R2 objects, its own rate-limit counters and its user row. A step that runs out of time
 * puts the next one on the queue; the watchdog puts back any account still marked deleting, so a
 * lost message or a restart only delays it.
 */

/** Rows one DELETE removes (as the housekeeping job's purge). */
const ROWS_PER_DELETE = 1000;

/** How long one step of the job deletes before it hands over to the next (a queue message). */
export const DELETION_STEP_MS = 10_000;

/** The jobs queue's message (wrangler.toml `dunly-jobs`). */
export type AccountJob = { kind: "delete-account"; userId: string };

export type DeletionStep =
  /** Every row, object and counter of the account is gone. */
  | { kind: "done"; rows: Record<string, number>; objects: number }
  /** Out of time: the next step is on the queue. */
  | { kind: "more"; rows: Record<string, number> }
  /** No account is being deleted under that id (finished already, or never asked). */
  | { kind: "gone" };

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
    if (isMissingAtStripe(error)) return true;
    console.error("[dunly] account deletion: the subscription could not be cancelled", error);
    return false;
  }
}

/**
 * What Dunly made at Stripe for the account, closed: the subscription cancelled now, the customer
 * deleted, the connected account let go (deleted where Stripe allows it; a live account Stripe is
 * liable for stays the user's own, only no longer Dunly's to reach). Each is recorded as done at
 * once, so a step run again does not repeat it. False when Stripe could not be reached: the job is
 * retried, and nothing more is deleted until it is.
 */
async function closeStripe(env: Env, config: AppConfig, db: Db, userId: string): Promise<boolean> {
  if (!(await cancelSubscription(env, config, db, userId))) return false;
  const stripe = stripeSetup(config, env);
  if (!stripe) return true;
  const billing = await getBilling(db, userId);
  try {
    if (billing?.stripeCustomerId) {
      await ignoreMissing(stripe.client.customers.del(billing.stripeCustomerId));
      await db.update(users).set({ stripeCustomerId: null }).where(eq(users.id, userId));
    }
    const connected = await db
      .select({ accountId: stripeAccounts.accountId })
      .from(stripeAccounts)
      .where(eq(stripeAccounts.userId, userId))
      .get();
    if (connected) {
      await ignoreMissing(stripe.client.accounts.del(connected.accountId)).catch((error: unknown) => {
        // Stripe keeps a live account it is liable for: it stays the user's, and Dunly keeps nothing of it.
        console.warn(`[dunly] account deletion: Stripe kept connected account ${connected.accountId}`, error);
      });
      await db.delete(stripeAccounts).where(eq(stripeAccounts.userId, userId));
    }
    return true;
  } catch (error) {
    console.error("[dunly] account deletion: Stripe could not be reached; the job is retried", error);
    return false;
  }
}

/** A Stripe deletion whose object is already gone is done. */
async function ignoreMissing(call: Promise<unknown>) {
  try {
    await call;
  } catch (error) {
    if (!isMissingAtStripe(error)) throw error;
  }
}

/** The account's own rate-limit counters: its password checks in Settings, and sign-ins to its address. */
function ownRateLimits(key: AccountKey): SQL {
  // D1 refuses a long LIKE pattern: the address is compared as the key's end instead.
  const tail = `:${key.email}`;
  return or(
    eq(rateLimitEvents.key, `password-user:${key.id}`),
    and(
      or(sql`${rateLimitEvents.key} LIKE 'signin-email:%'`, sql`${rateLimitEvents.key} LIKE 'password-email:%'`),
      sql`substr(${rateLimitEvents.key}, ${-tail.length}) = ${tail}`,
    ),
  ) as SQL;
}

/**
 * Deletes the account's R2 objects: its profile photos (app/account/images.server.ts), its archived
 * deliveries (archivePrefix, docs/decisions/022) and its invoices' PDFs (docs/decisions/053).
 */
async function deleteObjects(env: Env, userId: string) {
  return (
    (await deleteObjectsUnder(env.IMAGES, `${userId}/`)) +
    (await deleteObjectsUnder(env.ARCHIVE, archivePrefix(userId))) +
    (await deleteObjectsUnder(env.DOCUMENTS, `${userId}/`))
  );
}

/**
 * Starts deleting the account (see above): marked deleting, signed out everywhere and its debtors'
 * links stopped, in one batch; then the job is queued. Answers at once whatever the account's size.
 */
export async function startAccountDeletion(env: Env, userId: string, now = Date.now()) {
  const db = getDb(env.DB);
  await db.batch([
    db
      .update(users)
      .set({ deletingAt: now })
      .where(and(eq(users.id, userId), isNull(users.deletingAt))),
    db.delete(sessions).where(eq(sessions.userId, userId)),
    db.update(debtors).set({ optOutKey: null }).where(eq(debtors.ownerId, userId)),
  ]);
  await queueAccountDeletion(env, userId);
}

/** Puts the account's next deletion step on the jobs queue. */
export async function queueAccountDeletion(env: Env, userId: string) {
  await env.JOBS_QUEUE.send({ kind: "delete-account", userId } satisfies AccountJob);
}

/** Accounts still being deleted, oldest first: the watchdog queues their next step again. */
export async function accountsBeingDeleted(db: Db, limit: number): Promise<string[]> {
  const rows = await db
    .select({ id: users.id })
    .from(users)
    .where(isNotNull(users.deletingAt))
    .orderBy(users.deletingAt)
    .limit(limit);
  return rows.map((r) => r.id);
}

/**
 * One step of the job: Stripe first, then the rows table by table until `budgetMs` has passed,
 * then (when nothing else is left) the objects, the counters and the user row. Throws when Stripe
 * or D1 fails part way: the queue retries the message, and what is left is found the same way.
 */
export async function continueAccountDeletion(
  env: Env,
  config: AppConfig,
  userId: string,
  options: { budgetMs?: number; now?: () => number } = {},
): Promise<DeletionStep> {
  const { budgetMs = DELETION_STEP_MS, now = Date.now } = options;
  const db = getDb(env.DB);
  const user = await db
    .select({ id: users.id, email: users.email, deletingAt: users.deletingAt })
    .from(users)
    .where(eq(users.id, userId))
    .get();
  if (!user || user.deletingAt === null) return { kind: "gone" };
  const started = now();
  if (!(await closeStripe(env, config, db, userId))) throw new Error("Stripe could not be reached");
  // Its sending domain at Resend (decisions/059) goes too; one Resend could not remove is tried again.
  const domain = await removeSendingDomain(env, db, userId);
  if (!domain.ok && !("notFound" in domain)) throw new Error("Resend could not remove the sending domain");
  const key = { id: user.id, email: user.email.toLowerCase() };
  const rows: Record<string, number> = {};
  for (const { table, rows: where } of ACCOUNT_TABLES) {
    const name = getTableName(table);
    if (table === users) break;
    if (table === schedules) {
      // Through the lifecycle: their rows go, then their alarms (at most an account's 2,000).
      rows[name] = await deleteAccountSchedules(env, db, user.id, now());
      continue;
    }
    rows[name] = 0;
    for (;;) {
      const n = await deleteSlice(db, table, where(key));
      rows[name] += n;
      if (n < ROWS_PER_DELETE) break;
      if (now() - started > budgetMs) {
        await queueAccountDeletion(env, userId);
        return { kind: "more", rows };
      }
    }
  }
  const objects = await deleteObjects(env, user.id);
  rows[getTableName(rateLimitEvents)] = await deleteAll(db, rateLimitEvents, ownRateLimits(key));
  rows[getTableName(users)] = await deleteAll(db, users, eq(users.id, user.id));
  return { kind: "done", rows, objects };
}

/** The part of a queue message the jobs consumer uses (Cloudflare's Message, or a test's stand-in). */
export interface AccountJobMessage {
  readonly body: AccountJob;
  ack(): void;
  retry(options?: { delaySeconds?: number }): void;
}

/**
 * The jobs queue's consumer: one deletion step per message. A step that fails (Stripe or D1 part
 * way) is retried after 30 s; what is left is found the same way.
 */
export async function consumeAccountJobs(env: Env, config: AppConfig, messages: readonly AccountJobMessage[]) {
  for (const m of messages) {
    if (m.body?.kind !== "delete-account") {
      m.ack();
      continue;
    }
    try {
      const step = await continueAccountDeletion(env, config, m.body.userId);
      if (step.kind === "done") console.log(`[dunly] account ${m.body.userId} deleted: ${JSON.stringify(step.rows)}`);
      m.ack();
    } catch (error) {
      console.error(`[dunly] account deletion step failed for ${m.body.userId}; retried`, error);
      m.retry({ delaySeconds: 30 });
    }
  }
}
