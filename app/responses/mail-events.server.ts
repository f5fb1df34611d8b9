import { and, count, eq, sql } from "drizzle-orm";
import { debtorEventInsert, noticeInsert } from "~/activity/index.server";
import type { Bindable, Db } from "~/db/client.server";
import { bouncingStatement } from "~/db/debtor-status";
import { debtorContacts, debtors, deliveries, webhookEvents } from "~/db/schema";
import type { DataScope } from "~/platform/scope.server";
import { commit } from "~/reminders/index.server";
import { optOutAddress, optOutCopies } from "./opt-outs.server";

/**
 * What the e-mail provider's webhook (app/http/webhooks.server.ts, Resend's events) changes in D1: the
 * delivery the event is about, found by the provider's message id, and through it the debtor and
 * their schedules. The owner is the delivery's: nothing here comes from a session.
 */

/** The longest provider message kept as a delivery's error. */
const MAX_ERROR_LENGTH = 500;

/**
 * Records a provider event's id; false when it was recorded before (a repeat that must change
 * nothing). The webhook handles an event only after this returned true.
 */
export async function recordWebhookEvent(db: Db, id: string, type: string, now = Date.now()) {
  const inserted = await db
    .insert(webhookEvents)
    .values({ id, type: type.slice(0, 100), receivedAt: now })
    .onConflictDoNothing()
    .returning({ id: webhookEvents.id });
  return inserted.length > 0;
}

/** Forgets an event whose handling failed, so the provider's retry is handled instead of ignored. */
export async function forgetWebhookEvent(db: Db, id: string) {
  await db.delete(webhookEvents).where(eq(webhookEvents.id, id));
}

/** The delivery the provider knows as `providerId`, or undefined when Dunly did not send it. */
async function deliveryByProviderId(db: Db, providerId: string) {
  return db
    .select({
      id: deliveries.id,
      ownerId: deliveries.ownerId,
      debtorId: deliveries.debtorId,
      recipient: deliveries.recipient,
      status: deliveries.status,
    })
    .from(deliveries)
    .where(eq(deliveries.providerId, providerId))
    .get();
}

const clip = (message: string) =>
  message.length > MAX_ERROR_LENGTH ? `${message.slice(0, MAX_ERROR_LENGTH - 1)}…` : message;

/** What a bounce or a complaint changed; `scheduleIds` are the schedules it stopped (already disarmed). */
export interface WebhookOutcome {
  /** False when no delivery has that provider id (nothing changed). */
  matched: boolean;
  scheduleIds: string[];
  /** The delivery's owner, whose notice the caller sends (sendNotices). */
  ownerId?: string;
}

const NO_MATCH: WebhookOutcome = { matched: false, scheduleIds: [] };

/**
 * A hard bounce, in one batch: the delivery turns 'bounced' with the provider's message as its
 * error, an active debtor turns 'bouncing' (an opted-out or paid one keeps that status), and every
 * ENABLED schedule of the debtor is paused (DISABLED, stopped_reason 'bounced', no next run).
 */
export async function recordHardBounce(
  { env, db }: DataScope,
  providerId: string,
  message: string,
  now = Date.now(),
  recipients: readonly string[] = [],
) {
  const delivery = await deliveryByProviderId(db, providerId);
  if (!delivery) return NO_MATCH;
  const error = clip(message.trim() || "The recipient's address bounced.");
  // A copy's address bounced, not the debtor's (decisions/057): that contact gets no more copies,
  // and the reminders to the debtor go on.
  const copy = await copyNamed(db, delivery, message, recipients);
  if (copy) {
    await recordCopyBounce(db, delivery.ownerId, copy, error, now);
    return { matched: true, scheduleIds: [], ownerId: delivery.ownerId };
  }
  const { stopped } = await commit({ env, db, now }, (consequences) => [
    db
      .update(deliveries)
      .set({ status: "bounced", error })
      .where(and(eq(deliveries.id, delivery.id), sql`${deliveries.status} <> 'complained'`)),
    bouncingStatement(db, delivery.ownerId, delivery.debtorId, now),
    consequences({ kind: "held", ownerId: delivery.ownerId, debtorId: delivery.debtorId, reason: "bounced" }),
    debtorEventInsert(db, {
      ownerId: delivery.ownerId,
      debtorId: delivery.debtorId,
      type: "bounced",
      detail: error,
      at: now,
    }),
    // The user is told.
    noticeInsert(db, { ownerId: delivery.ownerId, debtorId: delivery.debtorId, kind: "bounced", at: now }),
  ]);
  return { matched: true, scheduleIds: stopped, ownerId: delivery.ownerId };
}

/**
 * A complaint (the recipient marked the reminder as spam): the delivery turns 'complained' and the
 * address is opted out of the owner's reminders (app/responses/opt-outs.server.ts), which completes
 * the schedules of every debtor of the owner with that address.
 */
export async function recordComplaint(
  { env, db }: DataScope,
  providerId: string,
  fallbackRecipient: string | null,
  now = Date.now(),
  recipients: readonly string[] = [],
) {
  const delivery = await deliveryByProviderId(db, providerId);
  if (!delivery) return NO_MATCH;
  // A copy's address complained (decisions/057): it is opted out, which stops its copies only.
  const copy = await copyNamed(db, delivery, "", recipients);
  if (copy) {
    const optedOut = await optOutCopies({ env, db }, delivery.ownerId, copy, now, { notify: false });
    return { matched: true, scheduleIds: optedOut.scheduleIds, ownerId: delivery.ownerId };
  }
  const recipient =
    delivery.recipient ?? fallbackRecipient ?? (await debtorEmail(db, delivery.ownerId, delivery.debtorId));
  // The opt-out is idempotent; the delivery's mark is written after it, so a failure in between is
  // completed by the provider's retry.
  const optedOut = recipient
    ? await optOutAddress({ env, db }, delivery.ownerId, recipient, now, { notify: false })
    : { scheduleIds: [] };
  await db.batch([
    db
      .update(deliveries)
      .set({ status: "complained", error: "The recipient marked this reminder as spam." })
      .where(eq(deliveries.id, delivery.id)),
    debtorEventInsert(db, { ownerId: delivery.ownerId, debtorId: delivery.debtorId, type: "complained", at: now }),
    // The user is told; the opt-out above told nothing itself.
    noticeInsert(db, { ownerId: delivery.ownerId, debtorId: delivery.debtorId, kind: "complained", at: now }),
  ]);
  return { matched: true, scheduleIds: optedOut.scheduleIds, ownerId: delivery.ownerId };
}

/**
 * The copied contact's address an event is about (decisions/057), or null for the debtor's own.
 * Resend's event names the e-mail's recipients (`to`) and the receiving server's message. A copy is
 * the one that failed only when the message names exactly one of the debtor's contacts' addresses
 * and not the debtor's own, or, with a message naming none, when the event's only recipient is a
 * contact's. Anything less clear is the debtor's own address: held, the safe side.
 */
async function copyNamed(
  db: Db,
  delivery: { ownerId: string; debtorId: number; recipient: string | null },
  message: string,
  recipients: readonly string[],
): Promise<string | null> {
  const haystack = message.toLowerCase();
  if (haystack.trim() === "" && recipients.length === 0) return null;
  const [contacts, primary] = await Promise.all([
    db
      .select({ email: debtorContacts.email })
      .from(debtorContacts)
      .where(and(eq(debtorContacts.ownerId, delivery.ownerId), eq(debtorContacts.debtorId, delivery.debtorId))),
    delivery.recipient ?? debtorEmail(db, delivery.ownerId, delivery.debtorId),
  ]);
  const own = primary?.toLowerCase() ?? null;
  const addresses = contacts.map((c) => c.email).filter((address) => address !== own);
  const named = addresses.filter((address) => mentions(haystack, address));
  if (named.length === 1 && !(own && mentions(haystack, own))) return named[0] ?? null;
  if (named.length > 0 || (own && mentions(haystack, own))) return null;
  const [only, ...more] = recipients;
  return only && more.length === 0 && addresses.includes(only) ? only : null;
}

/** Whether `text` names `address` as a whole address (not inside a longer one). */
function mentions(text: string, address: string) {
  let at = text.indexOf(address);
  while (at !== -1) {
    const before = text[at - 1] ?? " ";
    const after = text[at + address.length] ?? " ";
    // A dot ends the address only when no more of a domain follows ("…@x.com." but not "…@x.com.au").
    const longer = /[a-z0-9-]/.test(after) || (after === "." && /[a-z0-9]/.test(text[at + address.length + 1] ?? ""));
    if (!/[a-z0-9._%+-]/.test(before) && !longer) return true;
    at = text.indexOf(address, at + 1);
  }
  return false;
}

/**
 * A copied contact's address bounced (decisions/057): every contact of the owner with that address
 * is marked bouncing (no copy goes to it until the user changes it) and each of their debtors'
 * timelines says so, in one batch. The debtors and their schedules are untouched.
 */
async function recordCopyBounce(db: Db, ownerId: string, address: string, error: string, now: number) {
  const marked = await db
    .update(debtorContacts)
    .set({ bouncedAt: now, bounceError: error, updatedAt: now })
    .where(
      and(
        eq(debtorContacts.ownerId, ownerId),
        eq(debtorContacts.email, address),
        sql`${debtorContacts.bouncedAt} IS NULL`,
      ),
    )
    .returning({ debtorId: debtorContacts.debtorId });
  const [first, ...rest] = [...new Set(marked.map((m) => m.debtorId))].map((debtorId) =>
    debtorEventInsert(db, { ownerId, debtorId, type: "contact_bounced", detail: address, at: now }),
  );
  if (first) await db.batch([first, ...rest]);
}

async function debtorEmail(db: Db, ownerId: string, debtorId: number) {
  const row = await db
    .select({ email: debtors.email })
    .from(debtors)
    .where(and(eq(debtors.ownerId, ownerId), eq(debtors.id, debtorId)))
    .get();
  return row?.email ?? null;
}

/** The provider delivered the message at `deliveredAt`: kept once (the first report wins). */
export async function recordDelivered(db: Db, providerId: string, deliveredAt: number) {
  const changed = await db
    .update(deliveries)
    .set({ deliveredAt })
    .where(and(eq(deliveries.providerId, providerId), sql`${deliveries.deliveredAt} IS NULL`))
    .returning({ id: deliveries.id });
  return changed.length > 0;
}

/**
 * How many of the owner's debtors have an address that bounces (the dashboard's notice): unrun (a
 * statement of the dashboard's batch); countOf reads it.
 */
export function countBouncingDebtors(db: Db, ownerId: Bindable<string>) {
  return db
    .select({ n: count() })
    .from(debtors)
    .where(and(eq(debtors.ownerId, ownerId), eq(debtors.status, "bouncing")));
}
