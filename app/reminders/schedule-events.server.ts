import { type SQL, sql } from "drizzle-orm";
import type { DebtorEventType } from "~/activity/index.server";
import type { Db } from "~/db/client.server";
import { debtorEvents, schedules } from "~/db/schema";
import { FREQUENCIES, type FrequencyId } from "~/domain/frequencies";
import { PRESETS } from "~/domain/presets";

// Timeline events of schedule changes -----------------------------------------------------------

const FREQUENCY_SHORT: Record<FrequencyId, string> = {
  daily: "Daily",
  weekly: "Weekly",
  now: "Once",
  due: "Follows the due date",
};

/** A string literal for SQL (our own constants only). */
const literal = (value: string) => sql.raw(`'${value.replaceAll("'", "''")}'`);

/** A schedule event's detail ("Weekly · Escalating Reminders"), in SQL over the schedules row: no bound values, whatever the batch binds. */
const EVENT_DETAIL_SQL = sql`(CASE ${schedules.frequency} ${sql.join(
  FREQUENCIES.map((f) => sql`WHEN ${literal(f.id)} THEN ${literal(FREQUENCY_SHORT[f.id])}`),
  sql` `,
)} ELSE ${schedules.frequency} END) || ${literal(" · ")} || (CASE ${schedules.preset} ${sql.join(
  PRESETS.map((p) => sql`WHEN ${literal(p.id)} THEN ${literal(p.name)}`),
  sql` `,
)} ELSE ${schedules.preset} END)`;

/**
 * The timeline event `type` of every schedule matching `where`, as an INSERT … SELECT to put in
 * the batch before the change (statements of a batch run in order, so it sees the rows as they
 * were, and an event is recorded exactly for the schedules the change touches).
 */
export function eventsOfSchedules(db: Db, type: DebtorEventType, where: SQL | undefined, now: number) {
  return db.insert(debtorEvents).select(
    db
      .select({
        // Every column in the table's order (INSERT … SELECT lists them all); id: the next one.
        id: sql<number>`null`.as("id"),
        ownerId: schedules.ownerId,
        debtorId: schedules.debtorId,
        type: sql<string>`${literal(type)}`.as("type"),
        detail: sql<string>`${EVENT_DETAIL_SQL}`.as("detail"),
        createdAt: sql<number>`${sql.raw(String(Math.trunc(now)))}`.as("created_at"),
      })
      .from(schedules)
      .where(where),
  );
}
