/** The accounting feature's public face (decisions/060, 061): connect Xero, import, sync, its local stand-in. */
import { getDb } from "~/db/client.server";
import { linkOrigin, readConfig } from "~/platform/config.server";
import { backgroundScope, requeueStalledImports } from "./import-job.server";
import { tellReconnects } from "./reconnect.server";
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
  type BooksImportJob,
  consumeBooksJobs,
  IMPORT_STEP_DELAY_S,
  queueNextStep,
} from "./import-job.server";
export { tellReconnects } from "./reconnect.server";
export { type AccountingSetups, accountingSetups, sourceFor } from "./sources.server";
export {
  IMPORT_PAGES_PER_STEP,
  type ImportPreview,
  type ImportStep,
  importStep,
  previewImport,
  SYNC_EVERY_MS,
  startImport,
  syncedCounts,
  syncNow,
} from "./sync.server";
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
  const scope = await backgroundScope(env, ownerId, now);
  if (!scope) return false;
  const outcome = await syncNow(scope, accountingSetups(config, env, linkOrigin(config))).catch((error) => {
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
  // The users whose connection was lost are told first: a sync cannot help them.
  await tellReconnects(env, db, readConfig(env), now);
  // Imports whose queued step was lost go on.
  await requeueStalledImports(env, db, now);
  let synced = 0;
  for (const { ownerId } of await connectionsDue(db, now, SYNCS_PER_RUN)) {
    if (await syncOwner(env, ownerId, now)) synced++;
  }
  return synced;
}
