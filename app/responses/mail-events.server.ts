import { and, count, eq, sql } from "drizzle-orm";
import { debtorEventInsert, noticeInsert } from "~/activity/index.server";
import type { Bindable, Db } from "~/db/client.server";
import { bouncingStatement } from "~/db/debtor-status";
import { debtors, deliveries, webhookEvents } from "~/db/schema";
import type { DataScope } from "~/platform/scope.server";
import { commit } from "~/reminders/index.server";
import { optOutAddress } from "./opt-outs.server";

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
export async function recordHardBounce({ env, db }: DataScope, providerId: string, message: string, now = Date.now()) {
  const delivery = await deliveryByProviderId(db, providerId);
  if (!delivery) return NO_MATCH;
  const error = clip(message.trim() || "The recipient's address bounced.");
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
) {
  const delivery = await deliveryByProviderId(db, providerId);
  if (!delivery) return NO_MATCH;
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
