import { and, eq, isNull } from "drizzle-orm";
import { debtorEventInsert } from "~/activity/index.server";
import { debtorReplies } from "~/db/schema";
import type { OwnerScope } from "~/platform/scope.server";
import { resumeHeld } from "./holds.server";
import type { ResumeOutcome } from "./writes.server";

/** How the user answered a debtor's replies; each is what the timeline says. */
export type HandleHow = "resume" | "handled" | "paid";

const HANDLED_LABEL: Record<HandleHow, string> = {
  resume: "Reminders resumed",
  handled: "Marked handled",
  paid: "Payment recorded",
};

/**
 * Every unhandled reply of the owner's debtor is handled `how` (a payment recorded for the debtor
 * calls it with 'paid'): null when there was none.
 */
export async function handleRepliesOf(
  scope: OwnerScope,
  debtorId: number,
  how: HandleHow,
): Promise<ResumeOutcome | null> {
  const { db, ownerId, now } = scope;
  const marked = await db
    .update(debtorReplies)
    .set({ handledAt: now })
    .where(
      and(eq(debtorReplies.ownerId, ownerId), eq(debtorReplies.debtorId, debtorId), isNull(debtorReplies.handledAt)),
    )
    .returning({ id: debtorReplies.id, auto: debtorReplies.auto });
  if (!marked.some((r) => !r.auto)) return null;
  await debtorEventInsert(db, { ownerId, debtorId, type: "reply_handled", detail: HANDLED_LABEL[how], at: now });
  return resumeHeld(scope, debtorId, "replied");
}
