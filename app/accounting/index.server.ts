/** The accounting feature's public face (decisions/060): connect Xero, import, sync, its local stand-in. */
import { eq } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { users } from "~/db/schema";
import { type AppConfig, accountCaps, linkOrigin, readConfig } from "~/platform/config.server";
import { connectionOf, connectionsOfTenants } from "./connection.server";
import { connectionsDue, syncNow } from "./sync.server";
import { type XeroSetup, xeroSetup, xeroWebhookKey } from "./xero/client.server";

export {
  type ConnectionRow,
  connectionOf,
  disconnectXero,
  finishXeroConnect,
  startXeroConnect,
  xeroSession,
} from "./connection.server";
export { confirmImport, type ImportPreview, previewImport, SYNC_EVERY_MS, syncedCounts, syncNow } from "./sync.server";
export { openToken, sealToken } from "./tokens.server";
export {
  XeroError,
  type XeroSetup,
  xeroRequest,
  xeroSetup,
  xeroUnavailable,
  xeroWebhookKey,
} from "./xero/client.server";
export type { XeroContact, XeroInvoice } from "./xero/mapping";
export { STANDIN_WEBHOOK_KEY } from "./xero/standin/config";
export {
  addStandInPayment,
  changeStandInInvoice,
  getObject as getStandInObject,
  listObjects as listStandInObjects,
  putObject as putStandInObject,
  seedTenant,
  sha256,
  voidStandInInvoice,
} from "./xero/standin/store.server";
export { readXeroPayload, verifyXeroSignature, xeroPayload, xeroSignature } from "./xero/webhook";

/** Connections the watchdog syncs per run: each is a few calls to Xero, well inside its 60 a minute. */
const SYNCS_PER_RUN = 5;

/**
 * The watchdog's sync (every run, bounded): the connections not synced for 15 minutes, oldest
 * first, each synced as "Sync now" would. A failure is the connection's last error, in words.
 */
export async function runAccountingSyncs(env: Env, now = Date.now()) {
  const config = readConfig(env);
  const setup = xeroSetup(config, env, linkOrigin(config));
  if (!setup) return 0;
  const db = getDb(env.DB);
  let synced = 0;
  for (const { ownerId } of await connectionsDue(db, now, SYNCS_PER_RUN)) {
    if ((await syncOwner(env, setup, ownerId, now)) === "synced") synced++;
  }
  return synced;
}

/**
 * The incremental sync of the owner's Xero connection, outside any request (the watchdog, a
 * webhook): the debtors it adds are in UTC, the user's default currency. 'synced' when it ran,
 * 'busy' when another sync of the account holds the lease.
 */
async function syncOwner(env: Env, setup: XeroSetup, ownerId: string, now: number) {
  const config = readConfig(env);
  const db = getDb(env.DB);
  const connection = await connectionOf(db, ownerId);
  if (connection?.provider !== "xero") return "skipped" as const;
  const user = await db
    .select({ defaultCurrency: users.defaultCurrency })
    .from(users)
    .where(eq(users.id, ownerId))
    .get();
  const outcome = await syncNow(
    {
      env,
      db,
      ownerId,
      now,
      timeZone: "UTC",
      today: new Date(now).toISOString().slice(0, 10),
      currency: user?.defaultCurrency ?? "USD",
      maxSchedules: accountCaps(config).schedules,
    },
    setup,
  ).catch((error) => {
    console.error(`[dunly] accounting sync failed for ${ownerId}`, error);
    return { ok: false as const };
  });
  if (outcome.ok) return "synced" as const;
  return "busy" in outcome ? ("busy" as const) : ("failed" as const);
}

/**
 * How long a webhook's sync waits, one wait after another, for a sync of the same account that is
 * under way (it read Xero before this change: the change would wait for the watchdog). About 17 s
 * in all, inside the 30 s a Worker's waitUntil has after the answer.
 */
const BUSY_RETRY_MS = [2000, 5000, 10_000] as const;

/**
 * A Xero webhook's organisations (decisions/062): the accounts connected to each (connected and
 * imported) sync now, one after another; one whose sync is under way is tried again a few
 * seconds later (BUSY_RETRY_MS). Returns how many synced. Runs after the webhook's answer.
 */
export async function syncXeroTenants(env: Env, tenantIds: readonly string[]) {
  const config = readConfig(env);
  const setup = xeroSetup(config, env, linkOrigin(config));
  if (!setup || tenantIds.length === 0) return 0;
  let synced = 0;
  for (const { ownerId } of await connectionsOfTenants(getDb(env.DB), "xero", tenantIds)) {
    let outcome = await syncOwner(env, setup, ownerId, Date.now());
    for (const wait of BUSY_RETRY_MS) {
      if (outcome !== "busy") break;
      await new Promise((resolve) => setTimeout(resolve, wait));
      outcome = await syncOwner(env, setup, ownerId, Date.now());
    }
    if (outcome === "synced") synced++;
  }
  return synced;
}

/** Whether Xero's webhooks can be taken here: a signing key (decisions/062) and Xero itself. */
export function xeroWebhookSetup(env: Env, config: AppConfig) {
  const key = xeroWebhookKey(config);
  return key && xeroSetup(config, env, linkOrigin(config)) ? { key } : null;
}
