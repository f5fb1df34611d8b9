import type { Db } from "~/db/client.server";
import type { AppConfig } from "~/platform/config.server";
import type { BooksSource } from "./books";
import {
  type ConnectionRow,
  connectionOf,
  disconnectXero,
  finishXeroConnect,
  startXeroConnect,
  xeroSession,
} from "./connection.server";
import { type QuickBooksSetup, quickBooksSetup } from "./quickbooks/client.server";
import {
  disconnectQuickBooks,
  finishQuickBooksConnect,
  quickBooksSession,
  startQuickBooksConnect,
} from "./quickbooks/connection.server";
import { quickBooksSource } from "./quickbooks/source.server";
import { type XeroSetup, xeroSetup } from "./xero/client.server";
import { xeroSource } from "./xero/source.server";

/**
 * The accounting tools this deployment can reach (decisions/061), each null when it cannot (fails
 * closed), and the books of a connection through its provider's one client.
 */
export interface AccountingSetups {
  xero: XeroSetup | null;
  quickbooks: QuickBooksSetup | null;
}

export function accountingSetups(config: AppConfig, env: Env, origin: string): AccountingSetups {
  return { xero: xeroSetup(config, env, origin), quickbooks: quickBooksSetup(config, env, origin) };
}

/** The connection's books, or null when its provider is not available here. */
export function sourceFor(db: Db, setups: AccountingSetups, connection: ConnectionRow): BooksSource | null {
  if (connection.provider === "xero" && setups.xero) {
    return xeroSource(setups.xero, xeroSession(db, setups.xero, connection));
  }
  if (connection.provider === "quickbooks" && setups.quickbooks) {
    return quickBooksSource(setups.quickbooks, quickBooksSession(db, setups.quickbooks, connection));
  }
  return null;
}

/** Disconnects whichever tool the owner has: revoked there (best effort), the row deleted. */
export async function disconnectBooks(db: Db, setups: AccountingSetups, ownerId: string) {
  const connection = await connectionOf(db, ownerId);
  if (!connection) return false;
  return connection.provider === "quickbooks"
    ? disconnectQuickBooks(db, setups.quickbooks, ownerId)
    : disconnectXero(db, setups.xero, ownerId);
}

/** The consent page's answer, as the callback's query carries it (QuickBooks adds the company's realmId). */
export interface ConsentAnswer {
  state: string | null;
  code: string | null;
  error: string | null;
  realmId: string | null;
}

/**
 * Connecting a tool from Settings → Accounting (decisions/060, 061): the consent page's URL for the
 * signed-in owner, and its answer taken. Null when the tool is not available here (fails closed).
 */
export function connectFlow(provider: string, setups: AccountingSetups, origin: string) {
  if (provider === "xero" && setups.xero) {
    const setup = setups.xero;
    return {
      start: (db: Db, ownerId: string) => startXeroConnect(db, setup, ownerId, origin),
      finish: (db: Db, ownerId: string, answer: ConsentAnswer) => finishXeroConnect(db, setup, ownerId, origin, answer),
    };
  }
  if (provider === "quickbooks" && setups.quickbooks) {
    const setup = setups.quickbooks;
    return {
      start: (db: Db, ownerId: string) => startQuickBooksConnect(db, setup, ownerId, origin),
      finish: (db: Db, ownerId: string, answer: ConsentAnswer) =>
        finishQuickBooksConnect(db, setup, ownerId, origin, answer),
    };
  }
  return null;
}
