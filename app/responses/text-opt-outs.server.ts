import { and, eq, ne, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { debtors, textOptOuts } from "~/db/schema";

/**
 * A number's STOP and START (decisions/069), for the inbound texts' webhook and the user. Keyed by
 * the owner and the E.164 number, so every debtor of that user with that number is covered and the
 * same number at another user is not. The caller tells the user and writes the timeline (it knows
 * the message); these only change what may be sent, each in one batch.
 */

/**
 * The number opted out of `ownerId`'s texts at once: the text_opt_outs row (kept once, its first
 * source kept) and the consent of every debtor of the owner with that number cleared. No text
 * leaves for the number while the row exists, whatever a consent says. Idempotent. Returns the
 * debtors whose consent it ended now (none on a repeat).
 */
export async function optOutNumber(
  db: Db,
  ownerId: string,
  phone: string,
  source: "keyword" | "user" | "carrier",
  now = Date.now(),
): Promise<{ debtorIds: number[] }> {
  const [, ended] = await db.batch([
    db.insert(textOptOuts).values({ ownerId, number: phone, source, at: now }).onConflictDoNothing(),
    db
      .update(debtors)
      .set({ textConsentAt: null, textConsentBy: null, updatedAt: now })
      .where(and(eq(debtors.ownerId, ownerId), eq(debtors.phone, phone), sql`${debtors.textConsentAt} IS NOT NULL`))
      .returning({ id: debtors.id }),
  ]);
  return { debtorIds: ended.map((row) => row.id) };
}

/**
 * The number texted START: its opt-out row goes, and the debtors of the owner with that number
 * have the debtor's own consent, recorded as given by "START from <number>" now. Nothing happens
 * for a number that had not opted out, nor for one the user opted out themselves (source 'user':
 * only the user lifts it). Returns the debtors given consent.
 */
export async function optInNumber(db: Db, ownerId: string, phone: string, now = Date.now()) {
  const stopped = sql`EXISTS (SELECT 1 FROM ${textOptOuts} WHERE ${textOptOuts.ownerId} = ${ownerId} AND ${textOptOuts.number} = ${phone} AND ${textOptOuts.source} != 'user')`;
  const [consented] = await db.batch([
    db
      .update(debtors)
      .set({ textConsentAt: now, textConsentBy: `START from ${phone}`, updatedAt: now })
      .where(
        and(eq(debtors.ownerId, ownerId), eq(debtors.phone, phone), sql`${debtors.textConsentAt} IS NULL`, stopped),
      )
      .returning({ id: debtors.id }),
    db
      .delete(textOptOuts)
      .where(and(eq(textOptOuts.ownerId, ownerId), eq(textOptOuts.number, phone), ne(textOptOuts.source, "user"))),
  ]);
  return { debtorIds: consented.map((row) => row.id) };
}

/** Whether the number opted out of the owner's texts (STOP and no START since). */
export async function isTextOptedOut(db: Db, ownerId: string, phone: string): Promise<boolean> {
  const row = await db
    .select({ phone: textOptOuts.number })
    .from(textOptOuts)
    .where(and(eq(textOptOuts.ownerId, ownerId), eq(textOptOuts.number, phone)))
    .get();
  return row !== undefined;
}
