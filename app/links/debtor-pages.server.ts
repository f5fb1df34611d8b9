import type { Db } from "~/db/client.server";
import type { AppConfig } from "~/platform/config.server";
import { debtorLink, type OptOutTarget, type SigningConfig, verifyDebtorToken } from "./signed-links.server";

/**
 * The debtor's two pages a reminder links to: their page `/d/<key>.<signature>` (statement and
 * answers) and "I've paid" `/p/<key>.<signature>`: the debtor's opt_out_key signed for the purpose,
 * so a link names no id, cannot be forged or moved to another debtor, and is no other page's token.
 */

/** The absolute URL of a debtor's page: `${linkOrigin(config)}/d/${token}`. Throws without OPT_OUT_SECRET. */
export function portalLink(
  db: Db,
  config: AppConfig,
  debtor: { id: number; ownerId: string; optOutKey: string | null },
): Promise<string> {
  return debtorLink(db, config, "portal", "/d/", debtor);
}

/** The debtor a portal token belongs to, or null (forged, altered, another purpose's, unknown). */
export function verifyPortalToken(
  db: Db,
  config: SigningConfig,
  token: string | null | undefined,
): Promise<OptOutTarget | null> {
  return verifyDebtorToken(db, config, "portal", token);
}

/** The absolute "I've paid" URL of a debtor: `${linkOrigin(config)}/p/${token}`. Throws without OPT_OUT_SECRET. */
export function paidClaimLink(
  db: Db,
  config: AppConfig,
  debtor: { id: number; ownerId: string; optOutKey: string | null },
): Promise<string> {
  return debtorLink(db, config, "paid", "/p/", debtor);
}

/** The debtor an "I've paid" token belongs to, or null (forged, altered, another purpose's, unknown). */
export function verifyPaidClaimToken(
  db: Db,
  config: SigningConfig,
  token: string | null | undefined,
): Promise<OptOutTarget | null> {
  return verifyDebtorToken(db, config, "paid", token);
}
