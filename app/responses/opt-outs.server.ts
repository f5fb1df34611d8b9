import { and, asc, eq, isNull, sql } from "drizzle-orm";
import { debtorEventInsert, noticeInsert } from "~/activity/index.server";
import type { Db } from "~/db/client.server";
import { consentRenewedStatement, optedOutStatement } from "~/db/debtor-status";
import { debtorContacts, debtors, optOuts } from "~/db/schema";
import type { DataScope } from "~/platform/scope.server";
import { commit } from "~/reminders/index.server";

/**
 * Opt-outs: an address that asked one user to stop. Keyed by the owner and the
 * address, lower-cased, so every debtor of that user with that address is covered, and the same
 * address at another user is not.
 */

const normalize = (email: string) => email.trim().toLowerCase();

/** The owner's debtors with this address, whatever case it was stored in. */
const sameAddress = (ownerId: string, email: string) =>
  and(eq(debtors.ownerId, ownerId), sql`lower(${debtors.email}) = ${normalize(email)}`);

/**
 * Records that `email` opted out of `ownerId`'s reminders, in one batch (D1 runs it as a
 * transaction): the opt_outs row (kept once), every debtor of the owner with that address turns
 * 'opted_out', and every live schedule of those debtors completes with stopped_reason 'opted_out'
 * and no next run. Idempotent: a second call adds nothing and touches no schedule. Returns what it
 * touched (the lifecycle has disarmed the schedules' alarms).
 */
export async function optOutAddress(
  { env, db }: DataScope,
  ownerId: string,
  email: string,
  now = Date.now(),
  // A complaint tells the user itself ('complained', app/responses/mail-events.server.ts): no second notice.
  { notify = true }: { notify?: boolean } = {},
): Promise<{ debtorIds: number[]; scheduleIds: string[] }> {
  const address = normalize(email);
  const owned = db.select({ id: debtors.id }).from(debtors).where(sameAddress(ownerId, address));
  const { results, stopped } = await commit({ env, db, now }, (consequences) => [
    db.insert(optOuts).values({ ownerId, email: address, createdAt: now }).onConflictDoNothing(),
    optedOutStatement(db, ownerId, sameAddress(ownerId, address), now),
    consequences({ kind: "opted-out", ownerId, debtorIds: owned }),
    // The opt-out ends the consent to text these debtors too (decisions/069).
    db
      .update(debtors)
      .set({ textConsentAt: null, textConsentBy: null })
      .where(and(sameAddress(ownerId, address), sql`${debtors.textConsentAt} IS NOT NULL`)),
  ]);
  const touchedDebtors = results[1];
  // The timeline of each debtor that turned 'opted_out' now (a repeat touches none), and the
  // user's notice of each.
  const [firstEvent, ...otherEvents] = touchedDebtors.flatMap((row) => [
    debtorEventInsert(db, { ownerId, debtorId: row.id, type: "opted_out", at: now }),
    ...(notify ? [noticeInsert(db, { ownerId, debtorId: row.id, kind: "opted_out", at: now })] : []),
  ]);
  if (firstEvent) await db.batch([firstEvent, ...otherEvents]);
  return {
    debtorIds: touchedDebtors.map((row) => row.id),
    scheduleIds: stopped,
  };
}

/** Whether `email` opted out of `ownerId`'s reminders (and no renewed consent was recorded since). */
export async function isOptedOut(db: Db, ownerId: string, email: string): Promise<boolean> {
  const row = await db
    .select({ email: optOuts.email })
    .from(optOuts)
    .where(and(eq(optOuts.ownerId, ownerId), eq(optOuts.email, normalize(email))))
    .get();
  return Boolean(row);
}

/**
 * The user recorded that the debtor agreed to reminders again: the opt-out of the debtor's address
 * is deleted and the owner's debtors with that address that were 'opted_out' are 'active' again
 * ('paid' when nothing is outstanding). Schedules stay stopped; the user resumes them deliberately.
 * False (and nothing changes) when the debtor is not the owner's.
 */
export async function renewConsent(db: Db, ownerId: string, debtorId: number, now = Date.now()): Promise<boolean> {
  const debtor = await db
    .select({ email: debtors.email })
    .from(debtors)
    .where(and(eq(debtors.ownerId, ownerId), eq(debtors.id, debtorId)))
    .get();
  if (!debtor) return false;
  const address = normalize(debtor.email);
  await db.batch([
    db.delete(optOuts).where(and(eq(optOuts.ownerId, ownerId), eq(optOuts.email, address))),
    consentRenewedStatement(db, ownerId, sameAddress(ownerId, address), now),
    debtorEventInsert(db, { ownerId, debtorId, type: "consent_renewed", at: now }),
  ]);
  return true;
}

/**
 * The copies of one debtor's reminders that can be stopped on their opt-out page (decisions/057):
 * the debtor's other contacts copied now (CC on, not bouncing, not opted out), by id and address.
 */
export async function copiedContacts(db: Db, ownerId: string, debtorId: number) {
  return db
    .select({ id: debtorContacts.id, email: debtorContacts.email })
    .from(debtorContacts)
    .where(
      and(
        eq(debtorContacts.ownerId, ownerId),
        eq(debtorContacts.debtorId, debtorId),
        eq(debtorContacts.cc, true),
        isNull(debtorContacts.bouncedAt),
        sql`NOT EXISTS (SELECT 1 FROM "opt_outs" AS o WHERE o."owner_id" = "debtor_contacts"."owner_id" AND o."email" = "debtor_contacts"."email")`,
      ),
    )
    .orderBy(asc(debtorContacts.id));
}

/**
 * A copied contact's address opts out (decisions/057): the page's "stop only the copies to …", or a
 * complaint from that address. The address is opted out of the owner's reminders like any other
 * (optOutAddress: a debtor whose own address it is stops too), so no copy goes to it from any of the
 * owner's debtors, while the reminders to each debtor's own address go on. Each debtor with that
 * contact gets a timeline event the first time. Returns what optOutAddress touched.
 */
export async function optOutCopies(
  scope: DataScope,
  ownerId: string,
  email: string,
  now = Date.now(),
  { notify = true }: { notify?: boolean } = {},
) {
  const address = normalize(email);
  const already = await isOptedOut(scope.db, ownerId, address);
  const outcome = await optOutAddress(scope, ownerId, address, now, { notify });
  if (already) return outcome;
  const { db } = scope;
  const withContact = await db
    .selectDistinct({ debtorId: debtorContacts.debtorId })
    .from(debtorContacts)
    .where(and(eq(debtorContacts.ownerId, ownerId), eq(debtorContacts.email, address)));
  const [first, ...rest] = withContact.map((row) =>
    debtorEventInsert(db, {
      ownerId,
      debtorId: row.debtorId,
      type: "contact_opted_out",
      detail: address,
      at: now,
    }),
  );
  if (first) await db.batch([first, ...rest]);
  return outcome;
}
