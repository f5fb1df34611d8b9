import type { Db } from "~/db/client.server";
import type { AppConfig } from "~/platform/config.server";
import type { BooksSource } from "./books";
import { type ConnectionRow, connectionOf, disconnectXero, xeroSession } from "./connection.server";
import { type QuickBooksSetup, quickBooksSetup } from "./quickbooks/client.server";
import { disconnectQuickBooks, quickBooksSession } from "./quickbooks/connection.server";
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
