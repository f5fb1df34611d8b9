import { and, eq, isNotNull, lt, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { getDb } from "~/db/client.server";
import { accountingConnections, users } from "~/db/schema";
import { accountCaps, linkOrigin, readConfig } from "~/platform/config.server";
import { accountingSetups } from "./sources.server";
import { type ImportStep, importStep, type SyncScope } from "./sync.server";

/**
 * The first import as a background job (decisions/060): the request that confirms it runs its first
 * step (a small organisation is done there and then); a larger one goes on through the jobs queue,
 * a step every IMPORT_STEP_DELAY_S seconds so the calls stay within the tool's limits, each step
 * recording where it got to on the connection. The watchdog puts back an import whose message was
 * lost, so a restart only delays it.
 */

/** The jobs queue's message (wrangler.toml `dunly-jobs`) for one step of an owner's import. */
export interface BooksImportJob {
  kind: "books-import";
  ownerId: string;
}

/** Between two steps: a step makes at most 27 calls, so two a minute stay under Xero's 60. */
export const IMPORT_STEP_DELAY_S = 30;
/** An import with no step for this long lost its message: the watchdog puts it back. */
const STALLED_MS = 5 * 60_000;

/** The owner's sync outside a request (the watchdog, the queue, a webhook): UTC, the user's currency. */
export async function backgroundScope(env: Env, ownerId: string, now = Date.now()): Promise<SyncScope | null> {
  const db = getDb(env.DB);
  const user = await db
    .select({ defaultCurrency: users.defaultCurrency })
    .from(users)
    .where(eq(users.id, ownerId))
    .get();
  if (!user) return null;
  return {
    env,
    db,
    ownerId,
    now,
    timeZone: "UTC",
    today: new Date(now).toISOString().slice(0, 10),
    currency: user.defaultCurrency ?? "USD",
    maxSchedules: accountCaps(readConfig(env)).schedules,
  };
}

/** Puts the owner's next import step on the jobs queue, `delaySeconds` from now. */
export function queueImportStep(env: Pick<Env, "JOBS_QUEUE">, ownerId: string, delaySeconds = IMPORT_STEP_DELAY_S) {
  return env.JOBS_QUEUE.send({ kind: "books-import", ownerId } satisfies BooksImportJob, { delaySeconds });
}

/** After a step: the next one on the queue while pages are left, a minute later when the tool was busy. */
export async function queueNextStep(env: Pick<Env, "JOBS_QUEUE">, ownerId: string, step: ImportStep) {
  if (step.kind === "more" || step.kind === "busy") await queueImportStep(env, ownerId);
  if (step.kind === "wait") await queueImportStep(env, ownerId, 2 * IMPORT_STEP_DELAY_S);
}

/** One queued step: run, and the next one queued while pages are left (or the lease was held). */
export async function runQueuedImportStep(env: Env, ownerId: string, now = Date.now()): Promise<ImportStep | null> {
  const scope = await backgroundScope(env, ownerId, now);
  if (!scope) return null;
  const config = readConfig(env);
  const step = await importStep(scope, accountingSetups(config, env, linkOrigin(config)));
  await queueNextStep(env, ownerId, step);
  return step;
}

/** The jobs queue's consumer of import steps: a step that throws is retried by the queue. */
export async function consumeBooksJobs(env: Env, messages: readonly Message<BooksImportJob>[]) {
  for (const m of messages) {
    try {
      const step = await runQueuedImportStep(env, m.body.ownerId);
      if (step?.kind === "done") {
        console.log(`[dunly] import of ${m.body.ownerId} done: ${step.invoices} invoices, ${step.debtors} debtors`);
      }
      m.ack();
    } catch (error) {
      console.error(`[dunly] import step failed for ${m.body.ownerId}; retried`, error);
      m.retry({ delaySeconds: IMPORT_STEP_DELAY_S });
    }
  }
}

/** The watchdog's net: imports under way with no step for STALLED_MS go on the queue again. */
export async function requeueStalledImports(env: Env, db: Db, now = Date.now()) {
  const stalled = await db
    .select({ ownerId: accountingConnections.ownerId })
    .from(accountingConnections)
    .where(
      and(
        isNotNull(accountingConnections.importPage),
        eq(accountingConnections.status, "connected"),
        lt(accountingConnections.updatedAt, now - STALLED_MS),
        sql`coalesce(${accountingConnections.syncLeaseUntil}, 0) < ${now}`,
      ),
    )
    .limit(25);
  for (const { ownerId } of stalled) {
    await db.update(accountingConnections).set({ updatedAt: now }).where(eq(accountingConnections.ownerId, ownerId));
    await queueImportStep(env, ownerId, 0);
  }
  return stalled.length;
}
