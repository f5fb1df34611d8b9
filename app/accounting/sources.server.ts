import type { Db } from "~/db/client.server";
import type { AppConfig } from "~/platform/config.server";
import type { BooksSource } from "./books";
import { type ConnectionRow, xeroSession } from "./connection.server";
import { type XeroSetup, xeroSetup } from "./xero/client.server";
import { xeroSource } from "./xero/source.server";

/**
 * The accounting tools this deployment can reach (decisions/061), each null when it cannot (fails
 * closed), and the books of a connection through its provider's client.
 */
export interface AccountingSetups {
  xero: XeroSetup | null;
}

export function accountingSetups(config: AppConfig, env: Env, origin: string): AccountingSetups {
  return { xero: xeroSetup(config, env, origin) };
}

/** The connection's books, or null when its provider is not available here. */
export function sourceFor(db: Db, setups: AccountingSetups, connection: ConnectionRow): BooksSource | null {
  if (connection.provider === "xero" && setups.xero) {
    return xeroSource(setups.xero, xeroSession(db, setups.xero, connection));
  }
  return null;
}
