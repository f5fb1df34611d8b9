/** The accounting feature's public face (decisions/060, 061): connect Xero, import, sync, its local stand-in. */
import { and, eq, inArray } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { accountingConnections, users } from "~/db/schema";
import { accountCaps, linkOrigin, readConfig } from "~/platform/config.server";
import { accountingSetups } from "./sources.server";
import { connectionsDue, syncNow } from "./sync.server";

export {
  BOOKS_LABEL,
  type BooksDebtor,
  BooksError,
  type BooksInvoice,
  type BooksProvider,
  type BooksSource,
} from "./books";
export {
  booksSession,
  type ConnectionRow,
  connectionOf,
  disconnectXero,
  finishXeroConnect,
  startXeroConnect,
  xeroSession,
} from "./connection.server";
export {
  QUICKBOOKS_MINOR_VERSION,
  QuickBooksError,
  type QuickBooksSetup,
  quickBooksSetup,
  quickBooksUnavailable,
  quickBooksWebhookVerifier,
} from "./quickbooks/client.server";
export {
  disconnectQuickBooks,
  finishQuickBooksConnect,
  quickBooksSession,
  startQuickBooksConnect,
} from "./quickbooks/connection.server";
export type { QboCustomer, QboInvoice } from "./quickbooks/mapping";
export { notifiedRealms } from "./quickbooks/mapping";
export { quickBooksSource } from "./quickbooks/source.server";
export { STANDIN_WEBHOOK_VERIFIER as QUICKBOOKS_STANDIN_VERIFIER } from "./quickbooks/standin/config";
export {
  addQboPayment,
  changeQboDueDate,
  getQboObject,
  listQboObjects,
  putQboObject,
  qboInvoiceJson,
  qboStamp,
  type StoredInvoice as StoredQboInvoice,
  seedCompany,
  voidQboInvoice,
} from "./quickbooks/standin/store.server";
export { type AccountingSetups, accountingSetups, disconnectBooks, sourceFor } from "./sources.server";
export { confirmImport, type ImportPreview, previewImport, SYNC_EVERY_MS, syncedCounts, syncNow } from "./sync.server";
export { openToken, sealToken } from "./tokens.server";
export {
  XeroError,
  type XeroSetup,
  xeroRequest,
  xeroSetup,
  xeroUnavailable,
} from "./xero/client.server";
export type { XeroContact, XeroInvoice } from "./xero/mapping";
export {
  addStandInPayment,
  getObject as getStandInObject,
  listObjects as listStandInObjects,
  putObject as putStandInObject,
  seedTenant,
  sha256,
  voidStandInInvoice,
} from "./xero/standin/store.server";

/** Connections the watchdog syncs per run: each is a few calls to the tool, well inside its limits. */
const SYNCS_PER_RUN = 5;

/**
 * One owner's incremental sync outside a request (the watchdog, a webhook): in UTC (no request
 * carries the user's zone), in the user's default currency. A failure is the connection's last
 * error, in words; false when nothing was synced.
 */
export async function syncOwner(env: Env, ownerId: string, now = Date.now()) {
  const config = readConfig(env);
  const setups = accountingSetups(config, env, linkOrigin(config));
  const db = getDb(env.DB);
  const user = await db
    .select({ defaultCurrency: users.defaultCurrency })
    .from(users)
    .where(eq(users.id, ownerId))
    .get();
  if (!user) return false;
  const outcome = await syncNow(
    {
      env,
      db,
      ownerId,
      now,
      timeZone: "UTC",
      today: new Date(now).toISOString().slice(0, 10),
      currency: user.defaultCurrency ?? "USD",
      maxSchedules: accountCaps(config).schedules,
    },
    setups,
  ).catch((error) => {
    console.error(`[dunly] accounting sync failed for ${ownerId}`, error);
    return { ok: false as const };
  });
  return outcome.ok;
}

/**
 * The watchdog's sync (every run, bounded): the connections not synced for 15 minutes, oldest
 * first, each synced as "Sync now" would, whichever its tool.
 */
export async function runAccountingSyncs(env: Env, now = Date.now()) {
  const db = getDb(env.DB);
  let synced = 0;
  for (const { ownerId } of await connectionsDue(db, now, SYNCS_PER_RUN)) {
    if (await syncOwner(env, ownerId, now)) synced++;
  }
  return synced;
}

/** The owners whose QuickBooks connection is one of these companies (realm ids), connected and imported. */
export async function quickBooksOwnersOf(env: Env, realmIds: readonly string[]) {
  if (realmIds.length === 0) return [];
  const rows = await getDb(env.DB)
    .select({ ownerId: accountingConnections.ownerId, importedAt: accountingConnections.importedAt })
    .from(accountingConnections)
    .where(
      and(
        eq(accountingConnections.provider, "quickbooks"),
        eq(accountingConnections.status, "connected"),
        inArray(accountingConnections.tenantId, [...realmIds]),
      ),
    );
  return rows.filter((r) => r.importedAt !== null).map((r) => r.ownerId);
}
