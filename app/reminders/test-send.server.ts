import { and, eq, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { deliveries } from "~/db/schema";
import { TEST_SEND_PREFIX } from "~/domain/delivery-labels";
import { LIMIT_WINDOW_MS } from "~/domain/limits";
import type { Tone } from "~/domain/strategies";

/** A test send: the previewed reminder, to the user's own address. */
export interface TestSend {
  ownerId: string;
  /** The debtor whose values it shows (deliveries.debtor_id is required). */
  debtorId: number;
  template: string;
  tone: Tone;
  /** The user's own address, lower-cased. */
  recipient: string;
  /** The account's daily quota (sendingLimits(plan).accountDaily). */
  accountDaily: number;
}

/** The occurrence key of a test send: never a schedule's (`{scheduleId}:{scheduledAt}`), unique per send. */
export function testSendKey(ownerId: string, now: number) {
  return `${TEST_SEND_PREFIX}${ownerId}:${now}:${crypto.randomUUID().slice(0, 8)}`;
}

/**
 * Records a test send as a delivery ('sending', no schedule) when the account's daily quota has
 * room, so it counts toward the quota like any reminder. One batch, the
 * quota check part of the UPDATE, as claimOccurrence does, so two concurrent test sends cannot slip
 * past it. Returns the delivery's id and key, or null when the quota is used up (nothing is kept).
 */
export async function claimTestSend(db: Db, t: TestSend, now = Date.now()) {
  const key = testSendKey(t.ownerId, now);
  const since = now - LIMIT_WINDOW_MS;
  const counted = sql`(SELECT count(*) FROM deliveries AS d WHERE d.owner_id = ${t.ownerId} AND d.created_at > ${since} AND d.status IN ('sending', 'sent', 'bounced', 'complained'))`;
  const [, , rows] = await db.batch([
    db.insert(deliveries).values({
      ownerId: t.ownerId,
      scheduleId: null,
      debtorId: t.debtorId,
      occurrenceKey: key,
      template: t.template,
      tone: t.tone,
      status: "deferred",
      recipient: t.recipient,
      createdAt: now,
    }),
    db
      .update(deliveries)
      .set({ status: "sending" })
      .where(and(eq(deliveries.occurrenceKey, key), sql`${counted} < ${t.accountDaily}`)),
    db
      .select({ id: deliveries.id, status: deliveries.status })
      .from(deliveries)
      .where(eq(deliveries.occurrenceKey, key)),
    // Over the quota: nothing of it is kept.
    db.delete(deliveries).where(and(eq(deliveries.occurrenceKey, key), eq(deliveries.status, "deferred"))),
  ]);
  const row = rows[0];
  return row && row.status === "sending" ? { id: row.id, key } : null;
}
