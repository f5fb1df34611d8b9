import { and, eq, inArray, type SQL, type SQLWrapper, sql } from "drizzle-orm";
import type { BatchItem, BatchResponse } from "drizzle-orm/batch";
import type { Db } from "~/db/client.server";
import { owesSql } from "~/db/owed";
import { debtors, schedules } from "~/db/schema";
import type { DataScope } from "~/platform/scope.server";
import { followAlarms } from "./alarms.server";
import type { DebtorHoldReason } from "./holds.server";

/**
 * What a change elsewhere means for a debtor's reminders. The feature that makes the change (a
 * payment, an opt-out, a bounce, a promise…) names the consequence; the lifecycle turns it into the
 * schedule statement, commits it in the same batch as the change (one transaction, so a refused or
 * repeated change stops nothing), and then disarms the stopped schedules' alarms.
 */
export type Consequence =
  /** Nothing is owed any more: live schedules complete with 'paid'. */
  | { kind: "paid"; ownerId: string; debtorId: number }
  /** The debtor answered or bounced: ENABLED schedules wait (DISABLED with the reason, no next run). */
  | { kind: "held"; ownerId: string; debtorId: number; reason: HoldReason; onlyIf?: SQL }
  /** The debtors (a subquery) opted out: live schedules complete with 'opted_out'. */
  | { kind: "opted-out"; ownerId: string; debtorIds: SQLWrapper }
  /** The debtor is being deleted: their schedules go first, so their Durable Objects are told. */
  | { kind: "debtor-deleted"; ownerId: string; debtorId: number };

/** Why schedules wait: a debtor's answer, a pending online payment, a bounce, or "I've paid". */
export type HoldReason = DebtorHoldReason | "bounced" | "paid_claimed";

/** What `commit` needs: the bindings for the alarms, the database and the time of the change. */
export interface CommitScope extends DataScope {
  now: number;
}

/** Puts a consequence into the batch being built, where the caller places it. */
export type Consequences = (consequence: Consequence) => BatchItem<"sqlite">;

type Statements = readonly [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]];

/**
 * Commits the caller's statements with the consequences it placed among them (`build` receives the
 * function that makes each), in one batch; then disarms the alarms of every schedule they stopped.
 * Returns the batch's results, in order, and the ids of the stopped schedules. An alarm call that
 * fails is the watchdog's to repair, never an error here: the change is committed.
 */
export async function commit<T extends Statements>(
  scope: CommitScope,
  build: (consequences: Consequences) => T,
): Promise<{ results: BatchResponse<T>; stopped: string[] }> {
  const placed = new Set<unknown>();
  const statements = build((consequence) => {
    const statement = consequenceStatement(scope.db, consequence, scope.now);
    placed.add(statement);
    return statement;
  });
  const results = await scope.db.batch(statements);
  const stopped = statements.flatMap((statement, i) =>
    placed.has(statement) ? (results[i] as { id: string }[]).map((row) => row.id) : [],
  );
  if (stopped.length > 0) await followAlarms(scope, { disarm: stopped }, scope.now);
  return { results, stopped };
}

/** The schedule statement of a consequence; each returns the ids of the schedules it stopped. */
function consequenceStatement(db: Db, c: Consequence, now: number) {
  switch (c.kind) {
    case "paid":
      return db
        .update(schedules)
        .set({ state: "COMPLETED", stoppedReason: "paid", nextRunAt: null, updatedAt: now })
        .where(
          and(
            eq(schedules.ownerId, c.ownerId),
            eq(schedules.debtorId, c.debtorId),
            inArray(schedules.state, ["ENABLED", "DISABLED"]),
            sql`EXISTS (SELECT 1 FROM ${debtors} WHERE ${debtors.id} = ${c.debtorId} AND ${debtors.ownerId} = ${c.ownerId} AND NOT ${owesSql(c.debtorId)})`,
          ),
        )
        .returning({ id: schedules.id });
    case "held":
      // `onlyIf` is the change's own condition, checked after the statements before it in the batch.
      return db
        .update(schedules)
        .set({ state: "DISABLED", stoppedReason: c.reason, nextRunAt: null, updatedAt: now })
        .where(
          and(
            eq(schedules.ownerId, c.ownerId),
            eq(schedules.debtorId, c.debtorId),
            eq(schedules.state, "ENABLED"),
            c.onlyIf,
          ),
        )
        .returning({ id: schedules.id });
    case "opted-out":
      return db
        .update(schedules)
        .set({ state: "COMPLETED", stoppedReason: "opted_out", nextRunAt: null, updatedAt: now })
        .where(
          and(
            eq(schedules.ownerId, c.ownerId),
            inArray(schedules.debtorId, c.debtorIds),
            inArray(schedules.state, ["ENABLED", "DISABLED"]),
          ),
        )
        .returning({ id: schedules.id });
    case "debtor-deleted":
      // No timeline event: the debtor's timeline goes with them.
      return db
        .delete(schedules)
        .where(and(eq(schedules.ownerId, c.ownerId), eq(schedules.debtorId, c.debtorId)))
        .returning({ id: schedules.id });
  }
}
