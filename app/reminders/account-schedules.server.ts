import { and, asc, eq, gt, inArray } from "drizzle-orm";
import { chunk, IDS_PER_STATEMENT } from "~/db/chunk";
import type { Db } from "~/db/client.server";
import { schedules } from "~/db/schema";
import { followAlarms } from "./alarms.server";

/** Schedule ids read a page at a time. */
const IDS_PER_PAGE = 500;

/** Every schedule id of the account, read in pages by id (the schedules' primary key). */
async function scheduleIdsOf(db: Db, ownerId: string) {
  const ids: string[] = [];
  for (let after = ""; ; ) {
    const page = await db
      .select({ id: schedules.id })
      .from(schedules)
      .where(and(eq(schedules.ownerId, ownerId), gt(schedules.id, after)))
      .orderBy(asc(schedules.id))
      .limit(IDS_PER_PAGE);
    ids.push(...page.map((r) => r.id));
    const last = page[page.length - 1];
    if (!last || page.length < IDS_PER_PAGE) return ids;
    after = last.id;
  }
}

/**
 * Deletes every schedule of a deleted account, then disarms their alarms (an alarm that fires
 * before that finds no row and sends nothing). Returns how many rows went.
 */
export async function deleteAccountSchedules(env: Env, db: Db, ownerId: string, now: number): Promise<number> {
  let deleted = 0;
  // Until none is left: one made while the account was being deleted goes too.
  for (let ids = await scheduleIdsOf(db, ownerId); ids.length > 0; ids = await scheduleIdsOf(db, ownerId)) {
    const before = deleted;
    for (const slice of chunk(ids, IDS_PER_STATEMENT)) {
      const gone = await db
        .delete(schedules)
        .where(and(eq(schedules.ownerId, ownerId), inArray(schedules.id, slice)))
        .returning({ id: schedules.id });
      deleted += gone.length;
    }
    await followAlarms({ env, db }, { disarm: ids }, now);
    // This pass deleted nothing (another request took them first): stop rather than loop.
    if (deleted === before) break;
  }
  return deleted;
}
