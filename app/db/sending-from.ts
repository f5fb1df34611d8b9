import { and, eq, inArray, type SQLWrapper } from "drizzle-orm";
import type { Db } from "./client.server";
import { sendingDomains } from "./schema";

/**
 * Which address an account's e-mails to debtors go from (docs/decisions/059-sending-domains.md):
 * its own domain's, only while Resend says it is verified; otherwise none here, and the mail
 * Worker uses Dunly's (MAIL_FROM_ADDRESS). Read where the message is made, so a domain that fails
 * or is removed is left at once.
 */

/** The verified domains of the owners `owners` selects (a subquery or an id list): owner, local part, name. */
export function verifiedDomainsQuery(db: Db, owners: SQLWrapper | readonly string[]) {
  return db
    .select({ ownerId: sendingDomains.ownerId, localPart: sendingDomains.localPart, name: sendingDomains.name })
    .from(sendingDomains)
    .where(
      and(inArray(sendingDomains.ownerId, owners as SQLWrapper | string[]), eq(sendingDomains.status, "verified")),
    );
}

/** "billing@example.com" of a verified domain row. */
export const fromAddressOf = (row: { localPart: string; name: string }) => `${row.localPart}@${row.name}`;

/** One owner's From address now: their verified domain's, or null (Dunly's). */
export async function ownerFromAddress(db: Db, ownerId: string): Promise<string | null> {
  const [row] = await verifiedDomainsQuery(db, [ownerId]);
  return row ? fromAddressOf(row) : null;
}
