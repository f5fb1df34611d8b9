/** The accounting feature's public face (decisions/060, 061): connect Xero, import, sync, its local stand-in. */
import { getDb } from "~/db/client.server";
import { type AppConfig, linkOrigin, readConfig } from "~/platform/config.server";
import { connectionsOfTenants } from "./connection.server";
import { backgroundScope, requeueStalledImports } from "./import-job.server";
import { tellReconnects } from "./reconnect.server";
import { accountingSetups } from "./sources.server";
import { connectionsDue, syncNow } from "./sync.server";
import { sendWritebacks } from "./writeback.server";
import { xeroSetup, xeroWebhookKey } from "./xero/client.server";

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
  type QboAccount,
  qboInvoiceJson,
  qboStamp,
  receiveQboPayment,
  type StoredInvoice as StoredQboInvoice,
  type StoredQboPayment,
  seedCompany,
  voidQboInvoice,
} from "./quickbooks/standin/store.server";
export { tellReconnects } from "./reconnect.server";
export {
  type AccountingSetups,
  accountingSetups,
  type ConsentAnswer,
  connectFlow,
  disconnectBooks,
  sourceFor,
} from "./sources.server";
export {
  IMPORT_INVOICES_PER_STEP,
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
  type BankAccount,
  bankAccountsOfBooks,
  MAX_WRITEBACK_ATTEMPTS,
  quickBooksBankAccounts,
  quickBooksRequestId,
  retryWriteback,
  sendWritebacks,
  setWriteback,
  writebackKey,
  writebackView,
  xeroBankAccounts,
} from "./writeback.server";
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
  type StandInPayment,
  seedTenant,
  sha256,
  voidStandInInvoice,
  type XeroAccount,
} from "./xero/standin/store.server";
export { readXeroPayload, verifyXeroSignature, xeroPayload, xeroSignature } from "./xero/webhook";

/** Connections the watchdog syncs per run: each is a few calls to the tool, well inside its limits. */
const SYNCS_PER_RUN = 5;

/**
 * One owner's incremental sync outside a request (the watchdog, a webhook): in UTC (no request
 * carries the user's zone), in the user's default currency. A failure is the connection's last
 * error, in words. 'synced' when it ran, 'busy' when another sync of the account holds the lease.
 */
export async function syncOwner(env: Env, ownerId: string, now = Date.now()) {
  const config = readConfig(env);
  const scope = await backgroundScope(env, ownerId, now);
  if (!scope) return "skipped" as const;
  const outcome = await syncNow(scope, accountingSetups(config, env, linkOrigin(config))).catch((error) => {
    console.error(`[dunly] accounting sync failed for ${ownerId}`, error);
    return { ok: false as const };
  });
  if (outcome.ok) return "synced" as const;
  return "busy" in outcome ? ("busy" as const) : ("failed" as const);
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
    if ((await syncOwner(env, ownerId, now)) === "synced") synced++;
  }
  return synced;
}

/**
 * How long a webhook's sync waits, one wait after another, for a sync of the same account that is
 * under way (it read the books before this change: the change would wait for the watchdog). About
 * 17 s in all, inside the 30 s a Worker's waitUntil has after the answer.
 */
const BUSY_RETRY_MS = [2000, 5000, 10_000] as const;

/**
 * A webhook's organisations (decisions/062): the accounts connected to each (connected and
 * imported) sync now, one after another; one whose sync is under way is tried again a few seconds
 * later (BUSY_RETRY_MS). Returns how many synced. Runs after the webhook's answer.
 */
export async function syncTenants(env: Env, provider: "xero" | "quickbooks", tenantIds: readonly string[]) {
  if (tenantIds.length === 0) return 0;
  let synced = 0;
  for (const { ownerId } of await connectionsOfTenants(getDb(env.DB), provider, tenantIds)) {
    let outcome = await syncOwner(env, ownerId, Date.now());
    for (const wait of BUSY_RETRY_MS) {
      if (outcome !== "busy") break;
      await new Promise((resolve) => setTimeout(resolve, wait));
      outcome = await syncOwner(env, ownerId, Date.now());
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

/** The watchdog's write-back (decisions/063): the payments due to go to the books, a bounded number a run. */
export async function runWritebacks(env: Env, now = Date.now()) {
  const config = readConfig(env);
  return sendWritebacks(getDb(env.DB), accountingSetups(config, env, linkOrigin(config)), { now });
}

/**
 * Right after a payment the account writes back (decisions/063): its rows (or, without an owner,
 * after a verified Stripe event, every account's due rows, bounded) go to the books after the
 * answer (`waitUntil`); what does not go now, the watchdog sends.
 */
export function writeBackAfter(ctx: Pick<ExecutionContext, "waitUntil">, env: Env, ownerId?: string) {
  const config = readConfig(env);
  ctx.waitUntil(
    sendWritebacks(getDb(env.DB), accountingSetups(config, env, linkOrigin(config)), { ownerId }).catch((error) =>
      console.error(`[dunly] writing payments back failed${ownerId ? ` for ${ownerId}` : ""}`, error),
    ),
  );
}
