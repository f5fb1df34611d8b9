import { generateCodeVerifier, generateState } from "arctic";
import { and, eq, inArray, isNotNull, lt, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { accountingConnections, accountingOauthStates } from "~/db/schema";
import { BooksError, type BooksGrant, type BooksProvider, type BooksSession } from "./books";
import { openToken, sealToken } from "./tokens.server";
import {
  deleteXeroConnection,
  exchangeCode,
  refreshGrant,
  revokeGrant,
  XeroError,
  type XeroSession,
  type XeroSetup,
  xeroAuthorizationUrl,
  xeroConnections,
} from "./xero/client.server";

/**
 * The account's connection to its accounting tool (decisions/060): connect (OAuth 2.0 with PKCE,
 * the state bound to the signed-in owner), the tokens sealed at rest, refreshed with rotation, and
 * disconnect (revoked at the tool, the row deleted). Every function acts for one owner.
 */

export const STATE_TTL = 10 * 60_000;
/** Refresh a little before the access token expires: a request never carries one that dies on the way. */
const EARLY_MS = 60_000;

export async function hash(text: string) {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

export type ConnectionRow = typeof accountingConnections.$inferSelect;

export function connectionOf(db: Db, ownerId: string) {
  return db.select().from(accountingConnections).where(eq(accountingConnections.ownerId, ownerId)).get();
}

/**
 * The accounts connected to these organisations of the provider (a webhook names organisations,
 * not accounts: decisions/062), connected and imported: the ones a sync would run for. Through
 * accounting_connections_tenant_idx; one account per row, so never more than the ids' few accounts.
 */
export function connectionsOfTenants(db: Db, provider: "xero" | "quickbooks", tenantIds: readonly string[]) {
  return db
    .select({ ownerId: accountingConnections.ownerId })
    .from(accountingConnections)
    .where(
      and(
        eq(accountingConnections.provider, provider),
        inArray(accountingConnections.tenantId, [...tenantIds]),
        eq(accountingConnections.status, "connected"),
        isNotNull(accountingConnections.importedAt),
      ),
    );
}

/** "Connect Xero": the consent page's URL, with the state and verifier kept for this owner. */
export async function startXeroConnect(db: Db, setup: XeroSetup, ownerId: string, origin: string, now = Date.now()) {
  const state = generateState();
  const codeVerifier = generateCodeVerifier();
  await db.batch([
    db.delete(accountingOauthStates).where(lt(accountingOauthStates.expiresAt, now)),
    db
      .insert(accountingOauthStates)
      .values({ hash: await hash(state), ownerId, provider: "xero", codeVerifier, expiresAt: now + STATE_TTL }),
  ]);
  return xeroAuthorizationUrl(setup, origin, state, codeVerifier);
}

/** The state of a connection under way, taken once: this owner's, this tool's; null when unknown or expired. */
export async function takeOauthState(db: Db, ownerId: string, provider: BooksProvider, state: string, now: number) {
  const [row] = await db
    .delete(accountingOauthStates)
    .where(
      and(
        eq(accountingOauthStates.hash, await hash(state)),
        eq(accountingOauthStates.ownerId, ownerId),
        eq(accountingOauthStates.provider, provider),
      ),
    )
    .returning();
  return row && row.expiresAt >= now ? row : null;
}

/**
 * The owner's connection after a consent (either tool): the tokens sealed into the owner's row,
 * replacing any earlier connection with everything synced from it counted afresh. The same
 * organisation of the same tool again keeps its write-back account (decisions/063); another, or the
 * other tool's, starts with it off (an account id of other books means nothing here).
 */
export async function storeConnection(
  db: Db,
  tokenKey: string,
  connection: {
    ownerId: string;
    provider: BooksProvider;
    tenantId: string;
    tenantName: string | null;
    connectionId: string | null;
    grant: BooksGrant;
  },
  now: number,
) {
  const { ownerId, provider, grant } = connection;
  const values = {
    ownerId,
    provider,
    tenantId: connection.tenantId,
    tenantName: connection.tenantName,
    connectionId: connection.connectionId,
    accessToken: await sealToken(tokenKey, ownerId, grant.accessToken),
    refreshToken: await sealToken(tokenKey, ownerId, grant.refreshToken),
    accessExpiresAt: grant.expiresAt,
    refreshLockUntil: null,
    status: "connected" as const,
    importedAt: null,
    syncCursor: null,
    syncLeaseUntil: null,
    lastSyncAt: null,
    lastError: null,
    lastErrorAt: null,
    syncedPayments: 0,
    reconnectToldAt: null,
    importPage: null,
    importSkipped: 0,
    connectedAt: now,
    updatedAt: now,
  };
  const same = sql`${accountingConnections.provider} = ${provider} AND ${accountingConnections.tenantId} = excluded.tenant_id`;
  await db
    .insert(accountingConnections)
    .values(values)
    .onConflictDoUpdate({
      target: accountingConnections.ownerId,
      set: {
        ...values,
        writebackAccountId: sql`CASE WHEN ${same} THEN ${accountingConnections.writebackAccountId} END`,
        writebackAccountName: sql`CASE WHEN ${same} THEN ${accountingConnections.writebackAccountName} END`,
      },
    });
}

export type ConnectOutcome = { ok: true; tenantName: string | null } | { ok: false; message: string };

/**
 * The consent page's answer: the state must be this owner's and fresh (used once), the code is
 * exchanged with its verifier, the first organisation of the grant is the account's, and the
 * tokens are sealed into the owner's row (replacing any earlier connection).
 */
export async function finishXeroConnect(
  db: Db,
  setup: XeroSetup,
  ownerId: string,
  origin: string,
  params: { state: string | null; code: string | null; error: string | null },
  now = Date.now(),
): Promise<ConnectOutcome> {
  if (params.error) return { ok: false, message: "Xero was not connected: the access was not allowed." };
  if (!params.state || !params.code)
    return { ok: false, message: "Xero was not connected: its answer was incomplete." };
  const row = await takeOauthState(db, ownerId, "xero", params.state, now);
  if (!row) return { ok: false, message: "Xero was not connected: the link expired. Try again." };
  try {
    const grant = await exchangeCode(setup, origin, params.code, row.codeVerifier, now);
    const session: XeroSession = {
      tenantId: null,
      accessToken: async () => grant.accessToken,
      refresh: async () => {
        throw new XeroError("reconnect", "Xero refused the new connection. Try again.");
      },
    };
    const tenants = (await xeroConnections(setup, session)).filter((t) => t.tenantType === "ORGANISATION");
    const tenant = tenants[0];
    if (!tenant) return { ok: false, message: "Xero was not connected: no organisation was chosen." };
    await storeConnection(
      db,
      setup.tokenKey,
      {
        ownerId,
        provider: "xero",
        tenantId: tenant.tenantId,
        tenantName: tenant.tenantName,
        connectionId: tenant.id,
        grant,
      },
      now,
    );
    return { ok: true, tenantName: tenant.tenantName };
  } catch (error) {
    if (error instanceof BooksError) return { ok: false, message: `Xero was not connected. ${error.message}` };
    throw error;
  }
}

/**
 * The owner's session with their organisation, whichever the tool: the access token, refreshed
 * when it is about to expire. Xero and QuickBooks both rotate the refresh token, so two refreshes
 * must not race: a refresh first claims the row (a conditional UPDATE on the refresh token it holds
 * and no other claim), and only the claimant calls the tool (`refreshGrant`); a request that finds
 * the claim taken waits for the new tokens and uses them. The new tokens are stored `WHERE
 * refresh_token` is still the one used. A refresh token the tool refuses marks the connection
 * 'reconnect': nothing syncs until the user connects again. `label` names the tool in the words.
 */
export function booksSession(
  db: Db,
  tokenKey: string,
  connection: ConnectionRow,
  label: string,
  refreshGrant: (refreshToken: string) => Promise<BooksGrant>,
): BooksSession {
  const ownerId = connection.ownerId;
  const reconnectMessage = `${label} refused: the connection has expired. Connect ${label} again.`;
  let current = connection;
  const access = async (row: ConnectionRow) => {
    const token = await openToken(tokenKey, ownerId, row.accessToken);
    if (!token) throw await markReconnect(db, ownerId, row.refreshToken, reconnectMessage);
    return token;
  };
  const refresh = async (): Promise<string> => {
    const used = current.refreshToken;
    const now = Date.now();
    const [claimed] = await db
      .update(accountingConnections)
      .set({ refreshLockUntil: now + REFRESH_LOCK_MS })
      .where(
        and(
          eq(accountingConnections.ownerId, ownerId),
          eq(accountingConnections.refreshToken, used),
          eq(accountingConnections.status, "connected"),
          sql`coalesce(${accountingConnections.refreshLockUntil}, 0) < ${now}`,
        ),
      )
      .returning({ ownerId: accountingConnections.ownerId });
    if (!claimed) return waitForRefresh(used);
    const refreshToken = await openToken(tokenKey, ownerId, used);
    if (!refreshToken) throw await markReconnect(db, ownerId, used, reconnectMessage);
    let grant: BooksGrant;
    try {
      grant = await refreshGrant(refreshToken);
    } catch (error) {
      if (error instanceof BooksError && error.kind === "reconnect") {
        throw await markReconnect(db, ownerId, used, reconnectMessage);
      }
      await db
        .update(accountingConnections)
        .set({ refreshLockUntil: null })
        .where(and(eq(accountingConnections.ownerId, ownerId), eq(accountingConnections.refreshToken, used)));
      throw error;
    }
    const sealed = {
      accessToken: await sealToken(tokenKey, ownerId, grant.accessToken),
      refreshToken: await sealToken(tokenKey, ownerId, grant.refreshToken),
      accessExpiresAt: grant.expiresAt,
      refreshLockUntil: null,
      updatedAt: Date.now(),
    };
    await db
      .update(accountingConnections)
      .set(sealed)
      .where(and(eq(accountingConnections.ownerId, ownerId), eq(accountingConnections.refreshToken, used)));
    current = { ...current, ...sealed };
    return grant.accessToken;
  };
  /** Another request is refreshing: its tokens, once stored. */
  const waitForRefresh = async (used: string): Promise<string> => {
    for (let i = 0; i < REFRESH_WAIT_STEPS; i++) {
      const row = await connectionOf(db, ownerId);
      if (row?.status !== "connected") throw new BooksError("reconnect", reconnectMessage);
      if (row.refreshToken !== used) {
        current = row;
        return access(row);
      }
      await new Promise((resolve) => setTimeout(resolve, REFRESH_WAIT_MS));
    }
    throw new BooksError("unreachable", `${label} did not answer: Dunly tries again at the next sync.`);
  };
  return {
    tenantId: connection.tenantId,
    accessToken: async () => (current.accessExpiresAt - EARLY_MS > Date.now() ? access(current) : refresh()),
    refresh,
  };
}

/** The owner's Xero session (booksSession with Xero's refresh). */
export function xeroSession(db: Db, setup: XeroSetup, connection: ConnectionRow): XeroSession {
  return booksSession(db, setup.tokenKey, connection, "Xero", (token) => refreshGrant(setup, token));
}

/** How long a refresh may hold the row, and how long another request waits for its tokens. */
const REFRESH_LOCK_MS = 20_000;
const REFRESH_WAIT_MS = 250;
const REFRESH_WAIT_STEPS = 60;

async function markReconnect(db: Db, ownerId: string, used: string, message: string) {
  await db
    .update(accountingConnections)
    .set({
      status: "reconnect",
      refreshLockUntil: null,
      lastError: message,
      lastErrorAt: Date.now(),
      updatedAt: Date.now(),
    })
    .where(and(eq(accountingConnections.ownerId, ownerId), eq(accountingConnections.refreshToken, used)));
  return new BooksError("reconnect", message);
}

/**
 * Disconnect: the organisation's connection removed and the refresh token revoked at Xero (best
 * effort: a refusal there still forgets the tokens here), then the row and its tokens deleted. The
 * synced debtors and invoices stay, as Dunly's own now.
 */
export async function disconnectXero(db: Db, setup: XeroSetup | null, ownerId: string) {
  const connection = await connectionOf(db, ownerId);
  if (!connection) return false;
  if (setup && connection.provider === "xero") {
    const refreshToken = await openToken(setup.tokenKey, ownerId, connection.refreshToken);
    const session = xeroSession(db, setup, connection);
    if (connection.connectionId && connection.status === "connected") {
      await deleteXeroConnection(setup, session, connection.connectionId).catch(() => false);
    }
    const latest = await connectionOf(db, ownerId);
    const token = latest ? await openToken(setup.tokenKey, ownerId, latest.refreshToken) : refreshToken;
    if (token) await revokeGrant(setup, token);
  }
  await db.delete(accountingConnections).where(eq(accountingConnections.ownerId, ownerId));
  return true;
}

/** Takes the connection's sync lease for `ms`; false when another sync holds it. */
export async function takeLease(db: Db, ownerId: string, now: number, ms: number) {
  const [row] = await db
    .update(accountingConnections)
    .set({ syncLeaseUntil: now + ms })
    .where(
      and(
        eq(accountingConnections.ownerId, ownerId),
        eq(accountingConnections.status, "connected"),
        sql`coalesce(${accountingConnections.syncLeaseUntil}, 0) < ${now}`,
      ),
    )
    .returning({ ownerId: accountingConnections.ownerId });
  return Boolean(row);
}
