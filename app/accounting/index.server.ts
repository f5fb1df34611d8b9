/** The accounting feature's public face (decisions/060): connect Xero, import, sync, its local stand-in. */
import { eq } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { users } from "~/db/schema";
import { accountCaps, linkOrigin, readConfig } from "~/platform/config.server";
import { connectionOf } from "./connection.server";
import { connectionsDue, syncNow } from "./sync.server";
import { sendWritebacks } from "./writeback.server";
import { xeroSetup } from "./xero/client.server";

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
  type BankAccount,
  MAX_WRITEBACK_ATTEMPTS,
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
} from "./xero/client.server";
export type { XeroContact, XeroInvoice } from "./xero/mapping";
export {
  addStandInPayment,
  getObject as getStandInObject,
  listObjects as listStandInObjects,
  putObject as putStandInObject,
  type StandInPayment,
  seedTenant,
  sha256,
  voidStandInInvoice,
  type XeroAccount,
} from "./xero/standin/store.server";

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
    const connection = await connectionOf(db, ownerId);
    if (connection?.provider !== "xero") continue;
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
    if (outcome.ok) synced++;
  }
  return synced;
}

/** The watchdog's write-back (decisions/063): the payments due to go to the books, a bounded number a run. */
export async function runWritebacks(env: Env, now = Date.now()) {
  const config = readConfig(env);
  return sendWritebacks(getDb(env.DB), xeroSetup(config, env, linkOrigin(config)), { now });
}

/**
 * Right after a payment the account writes back (decisions/063): its rows (or, without an owner,
 * after a verified Stripe event, every account's due rows, bounded) go to the books after the
 * answer (`waitUntil`); what does not go now, the watchdog sends.
 */
export function writeBackAfter(ctx: Pick<ExecutionContext, "waitUntil">, env: Env, ownerId?: string) {
  const config = readConfig(env);
  ctx.waitUntil(
    sendWritebacks(getDb(env.DB), xeroSetup(config, env, linkOrigin(config)), { ownerId }).catch((error) =>
      console.error(`[dunly] writing payments back failed${ownerId ? ` for ${ownerId}` : ""}`, error),
    ),
  );
}
