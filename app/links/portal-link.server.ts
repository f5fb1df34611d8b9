import type { Db } from "~/db/client.server";
import type { AppConfig } from "~/platform/config.server";
import { debtorLink, type OptOutTarget, type SigningConfig, verifyDebtorToken } from "./signed-links.server";

/**
 * The debtor's page (docs/architecture.md §10, "The debtor's page"): every reminder links to
 * `/d/<key>.<signature>`, the debtor's opt_out_key signed for the purpose "portal"
 * (app/links/signed-links.server.ts), so it names no id, cannot be forged or moved to another debtor, and
 * is no opt-out or "I've paid" token (nor they a portal token).
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
