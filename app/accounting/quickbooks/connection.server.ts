import { generateState } from "arctic";
import { eq, lt } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { accountingConnections, accountingOauthStates } from "~/db/schema";
import { BooksError, type BooksSession } from "../books";
import {
  booksSession,
  type ConnectionRow,
  type ConnectOutcome,
  connectionOf,
  hash,
  STATE_TTL,
  storeConnection,
  takeOauthState,
} from "../connection.server";
import { openToken } from "../tokens.server";
import {
  exchangeQuickBooksCode,
  type QuickBooksSetup,
  quickBooksAuthorizationUrl,
  quickBooksCompanyName,
  refreshQuickBooksGrant,
  revokeQuickBooksGrant,
} from "./client.server";

/**
 * The account's connection to QuickBooks Online (decisions/061): connect (OAuth 2.0, the state
 * bound to the signed-in owner; Intuit names the company in the callback's realmId), the tokens
 * sealed at rest and refreshed by the race-safe booksSession, and disconnect (the refresh token
 * revoked at Intuit, the row deleted). Every function acts for one owner.
 */

/** "Connect QuickBooks": the consent page's URL, with the state kept for this owner. */
export async function startQuickBooksConnect(
  db: Db,
  setup: QuickBooksSetup,
  ownerId: string,
  origin: string,
  now = Date.now(),
) {
  const state = generateState();
  await db.batch([
    db.delete(accountingOauthStates).where(lt(accountingOauthStates.expiresAt, now)),
    // Intuit's flow has no PKCE verifier: the state alone ties the answer to this owner.
    db.insert(accountingOauthStates).values({
      hash: await hash(state),
      ownerId,
      provider: "quickbooks",
      codeVerifier: "",
      expiresAt: now + STATE_TTL,
    }),
  ]);
  return quickBooksAuthorizationUrl(setup, origin, state);
}

/** The owner's QuickBooks session (booksSession with Intuit's refresh). */
export function quickBooksSession(db: Db, setup: QuickBooksSetup, connection: ConnectionRow): BooksSession {
  return booksSession(db, setup.tokenKey, connection, "QuickBooks", (token) => refreshQuickBooksGrant(setup, token));
}

/**
 * The consent page's answer: the state must be this owner's, fresh and QuickBooks' (used once), the
 * code is exchanged, the realm is the company, its name read from CompanyInfo, and the tokens are
 * sealed into the owner's row (replacing any earlier connection, Xero's included).
 */
export async function finishQuickBooksConnect(
  db: Db,
  setup: QuickBooksSetup,
  ownerId: string,
  origin: string,
  params: { state: string | null; code: string | null; realmId: string | null; error: string | null },
  now = Date.now(),
): Promise<ConnectOutcome> {
  if (params.error) return { ok: false, message: "QuickBooks was not connected: the access was not allowed." };
  if (!params.state || !params.code || !params.realmId || !/^\d{1,32}$/.test(params.realmId)) {
    return { ok: false, message: "QuickBooks was not connected: its answer was incomplete." };
  }
  const row = await takeOauthState(db, ownerId, "quickbooks", params.state, now);
  if (!row) return { ok: false, message: "QuickBooks was not connected: the link expired. Try again." };
  try {
    const grant = await exchangeQuickBooksCode(setup, origin, params.code, now);
    const session: BooksSession = {
      tenantId: params.realmId,
      accessToken: async () => grant.accessToken,
      refresh: async () => {
        throw new BooksError("reconnect", "QuickBooks refused the new connection. Try again.");
      },
    };
    const companyName = await quickBooksCompanyName(setup, session);
    await storeConnection(
      db,
      setup.tokenKey,
      { ownerId, provider: "quickbooks", tenantId: params.realmId, tenantName: companyName, connectionId: null, grant },
      now,
    );
    return { ok: true, tenantName: companyName };
  } catch (error) {
    if (error instanceof BooksError) return { ok: false, message: `QuickBooks was not connected. ${error.message}` };
    throw error;
  }
}

/**
 * Disconnect: the refresh token revoked at Intuit (best effort: a refusal there still forgets the
 * tokens here), then the row and its tokens deleted. The synced debtors and invoices stay.
 */
export async function disconnectQuickBooks(db: Db, setup: QuickBooksSetup | null, ownerId: string) {
  const connection = await connectionOf(db, ownerId);
  if (!connection) return false;
  if (setup && connection.provider === "quickbooks") {
    const token = await openToken(setup.tokenKey, ownerId, connection.refreshToken);
    if (token) await revokeQuickBooksGrant(setup, token);
  }
  await db.delete(accountingConnections).where(eq(accountingConnections.ownerId, ownerId));
  return true;
}
