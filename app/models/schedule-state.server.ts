import { and, eq, inArray, sql } from "drizzle-orm";
import { chunk, IDS_PER_STATEMENT, unique } from "~/db/chunk";
import type { Db } from "~/db/client.server";
import { debtors, schedules } from "~/db/schema";
import { outstandingCents } from "~/domain/money";
import { nextRunForFrequency } from "~/domain/schedule-time";
import { safeTimeZone } from "~/domain/time-zone";
import { debtorEventInsert } from "./debtor-event.server";
import { scheduleEventDetail } from "./timeline.server";

/** Records 'schedule_paused' or 'schedule_resumed' on the timeline of each changed schedule's debtor. */
async function recordStateEvents(
  db: Db,
  ownerId: string,
  type: "schedule_paused" | "schedule_resumed",
  changed: readonly { debtorId: number; frequency: string; preset: string }[],
  now: number,
) {
  const [first, ...rest] = changed.map((s) =>
    debtorEventInsert(db, { ownerId, debtorId: s.debtorId, type, detail: scheduleEventDetail(s), at: now }),
  );
  if (first) await db.batch([first, ...rest]);
}

/**
 * Pausing and resuming schedules (issue 10, item 5): state 'DISABLED' is a paused schedule, kept
 * with its preset, step and history, unlike a deleted one. Both are scoped to the owner: ids are
 * only a request, and another user's schedules are silently not touched. The caller disarms or
 * arms the alarms (app/lib/alarms.server.ts) after the write.
 */

/**
 * Pauses the owner's ENABLED schedules among `ids`: DISABLED, no next run, and no stopped_reason
 * (the user paused it, not Dunly). Returns the ids it changed; one batch, so all or none.
 */
export async function pauseSchedules(db: Db, ownerId: string, ids: readonly string[], now = Date.now()) {
  const [first, ...rest] = chunk(unique(ids), IDS_PER_STATEMENT).map((slice) =>
    db
      .update(schedules)
      .set({ state: "DISABLED", stoppedReason: null, nextRunAt: null, updatedAt: now })
      .where(and(eq(schedules.ownerId, ownerId), inArray(schedules.id, slice), eq(schedules.state, "ENABLED")))
      .returning({
        id: schedules.id,
        debtorId: schedules.debtorId,
        frequency: schedules.frequency,
        preset: schedules.preset,
      }),
  );
  if (!first) return [];
  const paused = (await db.batch([first, ...rest])).flat();
  await recordStateEvents(db, ownerId, "schedule_paused", paused, now);
  return paused.map((r) => r.id);
}

/** Why a paused schedule cannot resume: its debtor paid, opted out, owes nothing, or their address bounced. */
export type ResumeRefusal = "paid" | "opted_out" | "nothing_owed" | "bouncing";

export interface ResumeOutcome {
  /** The schedules that are ENABLED again, with their next run (to arm). */
  resumed: { id: string; nextRunAt: number }[];
  /** The owner's paused schedules that stay paused, with the debtor's name and why. */
  refused: { id: string; debtorName: string; reason: ResumeRefusal }[];
}

interface PausedRow {
  status: string;
  debtCents: number;
  paidCents: number;
  /** Whether a reminder to the debtor's current address bounced. */
  addressBounced: number | boolean;
}

function refusalOf(debtor: PausedRow): ResumeRefusal | null {
  if (debtor.status === "paid") return "paid";
  if (debtor.status === "opted_out") return "opted_out";
  // 'bouncing' with the address that bounced; once the user changed the address it may go again.
  if (debtor.status === "bouncing" && debtor.addressBounced) return "bouncing";
  if (outstandingCents(debtor) <= 0) return "nothing_owed";
  return null;
}

/**
 * Resumes the owner's DISABLED schedules among `ids`: ENABLED, stopped_reason cleared, next run
 * computed afresh from `now` in the schedule's own zone. A schedule whose debtor paid, opted out,
 * owes nothing or whose current address bounced stays paused and is listed in `refused`. A
 * 'bouncing' debtor whose address has changed since the bounce is 'active' again. Ids that are not
 * the owner's paused schedules appear in neither list.
 */
export async function resumeSchedules(
  db: Db,
  ownerId: string,
  ids: readonly string[],
  now = Date.now(),
): Promise<ResumeOutcome> {
  const reads = chunk(unique(ids), IDS_PER_STATEMENT).map((slice) =>
    db
      .select({
        id: schedules.id,
        frequency: schedules.frequency,
        preset: schedules.preset,
        timeZone: schedules.timeZone,
        // Not debtors.id: D1's batch answers rows keyed by column name, and "id" is the schedule's.
        debtorId: schedules.debtorId,
        debtorName: debtors.fullName,
        status: debtors.status,
        // Through the index on deliveries (debtor_id, created_at).
        addressBounced: sql<number>`exists (SELECT 1 FROM deliveries AS d WHERE d.debtor_id = ${schedules.debtorId} AND d.status = 'bounced' AND d.recipient = lower(${debtors.email}))`,
        debtCents: debtors.debtCents,
        paidCents: debtors.paidCents,
      })
      .from(schedules)
      .innerJoin(debtors, eq(debtors.id, schedules.debtorId))
      .where(and(eq(schedules.ownerId, ownerId), inArray(schedules.id, slice), eq(schedules.state, "DISABLED"))),
  );
  const [firstRead, ...otherReads] = reads;
  if (!firstRead) return { resumed: [], refused: [] };
  const paused = (await db.batch([firstRead, ...otherReads])).flat();

  const refused: ResumeOutcome["refused"] = [];
  const plans: { id: string; nextRunAt: number }[] = [];
  const readdressed = new Set<number>();
  for (const s of paused) {
    const reason = refusalOf(s);
    if (reason) refused.push({ id: s.id, debtorName: s.debtorName, reason });
    else plans.push({ id: s.id, nextRunAt: nextRunForFrequency(s.frequency, now, safeTimeZone(s.timeZone)) });
    if (!reason && s.status === "bouncing") readdressed.add(s.debtorId);
  }

  // One UPDATE per schedule (each has its own next run); still DISABLED, or it changed meanwhile.
  const [first, ...rest] = plans.map((p) =>
    db
      .update(schedules)
      .set({ state: "ENABLED", stoppedReason: null, nextRunAt: p.nextRunAt, updatedAt: now })
      .where(and(eq(schedules.ownerId, ownerId), eq(schedules.id, p.id), eq(schedules.state, "DISABLED")))
      .returning({ id: schedules.id, nextRunAt: schedules.nextRunAt }),
  );
  if (!first) return { resumed: [], refused };
  // The debtor's address changed since it bounced: no longer 'bouncing' (same batch, all or nothing).
  const readdress = chunk([...readdressed], IDS_PER_STATEMENT).map((slice) =>
    db
      .update(debtors)
      .set({ status: "active", updatedAt: now })
      .where(and(eq(debtors.ownerId, ownerId), inArray(debtors.id, slice), eq(debtors.status, "bouncing")))
      .returning({ debtorId: debtors.id }),
  );
  const results = await db.batch([first, ...rest, ...readdress]);
  const resumed = results
    .slice(0, plans.length)
    .flat()
    .flatMap((r) => ("id" in r ? [{ id: r.id, nextRunAt: r.nextRunAt ?? now }] : []));
  const resumedIds = new Set(resumed.map((r) => r.id));
  await recordStateEvents(
    db,
    ownerId,
    "schedule_resumed",
    paused.filter((s) => resumedIds.has(s.id)),
    now,
  );
  return { resumed, refused };
}
