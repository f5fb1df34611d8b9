import { and, desc, eq } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { bindParam, OWNER_ID, preparedQuery } from "~/db/prepared.server";
import { debtorReplies } from "~/db/schema";

/**
 * A debtor's e-mail replies as the debtor's page lists them (docs/decisions/020): its own module,
 * with only the query, so the page's batch (app/debtors/timeline.server.ts) reads them in its one
 * round trip.
 */
export interface ReplyView {
  id: number;
  fromAddress: string;
  subject: string;
  text: string;
  attachments: { name: string; size: number }[];
  auto: boolean;
  handledAt: number | null;
  createdAt: number;
}

function attachmentsOf(json: string): { name: string; size: number }[] {
  try {
    const value = JSON.parse(json);
    return Array.isArray(value) ? value : [];
  } catch {
    return [];
  }
}

/** The owner's debtor's replies, newest first (at most 50), for a page's batch (ownerId, debtorId bound). */
export const debtorRepliesQuery = preparedQuery((db) =>
  db
    .select()
    .from(debtorReplies)
    .where(and(eq(debtorReplies.ownerId, OWNER_ID), eq(debtorReplies.debtorId, bindParam("debtorId"))))
    .orderBy(desc(debtorReplies.createdAt), desc(debtorReplies.id))
    .limit(50),
);

/** The owner's debtor's replies, newest first (at most 50). */
export async function repliesOf(db: Db, ownerId: string, debtorId: number): Promise<ReplyView[]> {
  const rows = await db
    .select()
    .from(debtorReplies)
    .where(and(eq(debtorReplies.ownerId, ownerId), eq(debtorReplies.debtorId, debtorId)))
    .orderBy(desc(debtorReplies.createdAt), desc(debtorReplies.id))
    .limit(50);
  return replyViewsOf(rows);
}

/** Stored replies as the page shows them. */
export function replyViewsOf(rows: readonly (typeof debtorReplies.$inferSelect)[]): ReplyView[] {
  return rows.map((r) => ({
    id: r.id,
    fromAddress: r.fromAddress,
    subject: r.subject,
    text: r.text,
    attachments: attachmentsOf(r.attachments),
    auto: r.auto,
    handledAt: r.handledAt,
    createdAt: r.createdAt,
  }));
}
