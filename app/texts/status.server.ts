import { and, eq, inArray, sql } from "drizzle-orm";
import { chunk, IDS_PER_STATEMENT, unique } from "~/db/chunk";
import type { Db } from "~/db/client.server";
import { deliveries, textMessages } from "~/db/schema";

/**
 * Twilio's status callbacks (decisions/068) as recorded on the text and its reminder's delivery:
 * accepted, queued, sending, sent, delivered, undelivered, failed. A status never moves back (a late
 * 'sent' after 'delivered' changes nothing); delivered, undelivered and failed are final.
 */
export const TEXT_STATUSES = [
  "accepted",
  "scheduled",
  "queued",
  "sending",
  "sent",
  "delivered",
  "undelivered",
  "failed",
  "canceled",
] as const;
export type TextStatus = (typeof TEXT_STATUSES)[number];

const RANK: Record<TextStatus, number> = {
  accepted: 1,
  scheduled: 1,
  queued: 2,
  sending: 3,
  sent: 4,
  delivered: 5,
  undelivered: 5,
  failed: 5,
  canceled: 5,
};

export function isTextStatus(value: string): value is TextStatus {
  return (TEXT_STATUSES as readonly string[]).includes(value);
}

/** The rank of a status column's value in SQL (pending and refused: 0; a final one: 5). */
const rankSql = sql`CASE ${textMessages.status}
  WHEN 'accepted' THEN 1 WHEN 'scheduled' THEN 1 WHEN 'queued' THEN 2 WHEN 'sending' THEN 3 WHEN 'sent' THEN 4
  WHEN 'delivered' THEN 5 WHEN 'undelivered' THEN 5 WHEN 'failed' THEN 5 WHEN 'canceled' THEN 5 ELSE 0 END`;

export interface TextStatusChange {
  id: number;
  ownerId: string;
  debtorId: number | null;
  deliveryId: number | null;
  status: TextStatus;
}

/**
 * Records one status callback of the text with Twilio's `sid`: only forward. Delivered sets the
 * delivery's delivered_at; undelivered or failed marks a 'sent' delivery 'failed' with Twilio's
 * error code, so the timeline says the text did not arrive. Null when the SID is not one of ours or
 * the status is not news.
 */
export async function recordTextStatus(
  db: Db,
  sid: string,
  status: TextStatus,
  errorCode: string | null,
  now: number,
): Promise<TextStatusChange | null> {
  const [changed] = await db
    .update(textMessages)
    .set({ status, statusAt: now, errorCode: errorCode ?? sql`${textMessages.errorCode}` })
    .where(and(eq(textMessages.sid, sid), sql`${rankSql} < ${RANK[status]}`))
    .returning({
      id: textMessages.id,
      ownerId: textMessages.ownerId,
      debtorId: textMessages.debtorId,
      deliveryId: textMessages.deliveryId,
    });
  if (!changed) return null;
  if (changed.deliveryId !== null) {
    const ofDelivery = and(eq(deliveries.id, changed.deliveryId), eq(deliveries.ownerId, changed.ownerId));
    if (status === "delivered") {
      await db
        .update(deliveries)
        .set({ deliveredAt: now })
        .where(and(ofDelivery, sql`${deliveries.deliveredAt} IS NULL`));
    } else if (status === "undelivered" || status === "failed") {
      const error = `The text was ${status}${errorCode ? ` (Twilio error ${errorCode})` : ""}`;
      await db
        .update(deliveries)
        .set({ status: "failed", error })
        .where(and(ofDelivery, eq(deliveries.status, "sent")));
    }
  }
  return { ...changed, status };
}

export interface TextFate {
  sid: string | null;
  status: string;
  errorCode: string | null;
  error: string | null;
}

/**
 * What became of the texts under these idempotency keys, by key (absent: never asked). For the
 * engine recording a send: a status callback may have arrived before it records the delivery
 * 'sent' (an undelivered or failed text then records the delivery 'failed' itself).
 */
export async function textFatesOf(db: Db, keys: readonly string[]): Promise<Map<string, TextFate>> {
  const fates = new Map<string, TextFate>();
  for (const part of chunk(unique(keys), IDS_PER_STATEMENT)) {
    const rows = await db
      .select({
        key: textMessages.idempotencyKey,
        sid: textMessages.sid,
        status: textMessages.status,
        errorCode: textMessages.errorCode,
        error: textMessages.error,
      })
      .from(textMessages)
      .where(inArray(textMessages.idempotencyKey, part));
    for (const { key, ...fate } of rows) fates.set(key, fate);
  }
  return fates;
}
