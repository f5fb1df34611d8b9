import { and, eq, isNull } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { accountingConnections, users } from "~/db/schema";
import { formatDate } from "~/domain/dates";
import { userLocale } from "~/domain/number-locale";
import { sendRecorded } from "~/mail/index.server";
import { type AppConfig, linkOrigin } from "~/platform/config.server";

/**
 * The e-mail asking the user to connect their accounting tool again (decisions/060): once per lost
 * connection (status 'reconnect', not told yet), recorded and retried like every e-mail Dunly sends
 * a user (Settings → E-mails lists it). Connecting again clears `reconnect_told_at`.
 */

const TOOL: Record<string, string> = { xero: "Xero", quickbooks: "QuickBooks" };
/** Lost connections told per watchdog run. */
const TOLD_PER_RUN = 25;

export async function tellReconnects(
  env: Pick<Env, "MAILER">,
  db: Db,
  config: Pick<AppConfig, "APP_ENV" | "APP_ORIGIN">,
  now = Date.now(),
) {
  const lost = await db
    .select({
      ownerId: accountingConnections.ownerId,
      provider: accountingConnections.provider,
      connectedAt: accountingConnections.connectedAt,
      email: users.email,
      locale: users.locale,
    })
    .from(accountingConnections)
    .innerJoin(users, eq(users.id, accountingConnections.ownerId))
    .where(
      and(
        eq(accountingConnections.status, "reconnect"),
        isNull(accountingConnections.reconnectToldAt),
        isNull(users.deletingAt),
      ),
    )
    .limit(TOLD_PER_RUN);
  let told = 0;
  for (const row of lost) {
    // Claimed first: two runs at once tell the user once.
    const [claimed] = await db
      .update(accountingConnections)
      .set({ reconnectToldAt: now })
      .where(
        and(
          eq(accountingConnections.ownerId, row.ownerId),
          eq(accountingConnections.status, "reconnect"),
          isNull(accountingConnections.reconnectToldAt),
        ),
      )
      .returning({ ownerId: accountingConnections.ownerId });
    if (!claimed) continue;
    const tool = TOOL[row.provider] ?? row.provider;
    const recorded = sendRecorded(env, db, {
      ownerId: row.ownerId,
      // One lost connection, one e-mail: a retry of the same record sends nothing twice.
      key: `books_reconnect:${row.ownerId}:${row.connectedAt}`,
      email: {
        kind: "account-notice",
        message: {
          to: row.email,
          kind: "books_reconnect",
          date: formatDate(new Date(now).toISOString().slice(0, 10), userLocale(row.locale)),
          about: tool,
          actionUrl: `${linkOrigin(config)}/iam/accounting`,
        },
      },
    }).catch(async (error: unknown) => {
      // Not even recorded (a database error): the next run tells the user instead.
      console.error(`[dunly] reconnect notice for ${row.ownerId} not recorded`, error);
      await db
        .update(accountingConnections)
        .set({ reconnectToldAt: null })
        .where(eq(accountingConnections.ownerId, row.ownerId));
      return null;
    });
    if (await recorded) told++;
  }
  return told;
}
