import { and, eq, inArray, ne, type SQL, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { debtors, textOptOuts } from "~/db/schema";

/**
 * A number's STOP and START (decisions/069), for the inbound texts' webhook and the user. Keyed by
 * the owner and the E.164 number, so every debtor of that user with that number is covered and the
 * same number at another user is not. The caller tells the user and writes the timeline (it knows
 * the message); these only change what may be sent, each in one batch.
 */

/**
 * The consent to text `phone` ended for every debtor of `owners` that carries it (a STOP), or given
 * back as the debtor's own ("START from <number>") where it had none (a START). One statement for
 * one owner here and for all the owners a keyword reached (receiveText); the caller keeps `owners`
 * under D1's bound values (90 with the four others).
 */
export function consentStatement(
  db: Db,
  keyword: "stop" | "start",
  owners: readonly string[],
  phone: string,
  now: number,
  extra?: SQL,
) {
  const reached = and(eq(debtors.phone, phone), inArray(debtors.ownerId, [...owners]), extra);
  return keyword === "stop"
    ? db
        .update(debtors)
        .set({ textConsentAt: null, textConsentBy: null, updatedAt: now })
        .where(and(reached, sql`${debtors.textConsentAt} IS NOT NULL`))
        .returning({ id: debtors.id })
    : db
        .update(debtors)
        .set({ textConsentAt: now, textConsentBy: `START from ${phone}`, updatedAt: now })
        .where(and(reached, sql`${debtors.textConsentAt} IS NULL`))
        .returning({ id: debtors.id });
}

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
    consentStatement(db, "stop", [ownerId], phone, now),
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
    consentStatement(db, "start", [ownerId], phone, now, stopped),
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
