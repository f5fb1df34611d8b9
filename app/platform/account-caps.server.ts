import { sql } from "drizzle-orm";
import { chunk, IDS_PER_STATEMENT } from "~/db/chunk";
import type { Db } from "~/db/client.server";
import { AccountCapReached, type CappedKind } from "~/domain/account-caps";

/** What a model's create takes besides its input: the account's cap, and the time (tests). */
export interface CreateOptions {
  /** The cap of this kind (accountCaps(config)); the default cap when not given. */
  max?: number;
  /** The refusal when `max` is the plan's limit rather than the account cap (app/domain/plans.ts). */
  capMessage?: string;
  now?: number;
}

/** The owner's rows of `kind` that count against the cap (for schedules, the live ones). */
function liveFilter(kind: CappedKind) {
  return kind === "schedules" ? sql`AND state <> 'COMPLETED'` : sql``;
}

/**
 * Refuses (AccountCapReached) when the account has no room for one more row of `kind` that
 * already exists but does not count yet: a completed schedule that an edit makes live again.
 */
export async function assertRoomForOneMore(db: Db, kind: CappedKind, ownerId: string, max: number) {
  const row = await db.get<{ n: number }>(
    sql`SELECT count(*) AS n FROM ${sql.identifier(kind)} WHERE owner_id = ${ownerId} ${liveFilter(kind)}`,
  );
  if ((row?.n ?? 0) >= max) throw new AccountCapReached(kind, max);
}

/**
 * The owner's rows of `kind` up to and including rowid `upTo`, in rowid order (insertion order):
 * for schedules only the live ones (not COMPLETED), which are what the cap counts.
 */
function countUpTo(db: Db, kind: CappedKind, ownerId: string, upTo: number) {
  return db.get<{ n: number }>(
    sql`SELECT count(*) AS n FROM ${sql.identifier(kind)} WHERE owner_id = ${ownerId} AND rowid <= ${upTo} ${liveFilter(kind)}`,
  );
}

/**
 * Keeps an account within its cap after rows were inserted (`rowids`, this request's new rows).
 * Counting only the rows inserted up to ours makes it exact under concurrency: of two requests
 * racing for the last place, the one whose row came first keeps it and the other is refused.
 * When the new rows do not fit, they are deleted and AccountCapReached is thrown.
 */
export async function enforceCap(
  db: Db,
  kind: CappedKind,
  ownerId: string,
  rowids: readonly number[],
  max: number,
  message?: string,
) {
  if (rowids.length === 0) return;
  const last = Math.max(...rowids);
  const row = await countUpTo(db, kind, ownerId, last);
  if ((row?.n ?? 0) <= max) return;
  for (const slice of chunk(rowids, IDS_PER_STATEMENT)) {
    const ids = sql.join(
      slice.map((id) => sql`${id}`),
      sql`, `,
    );
    await db.run(sql`DELETE FROM ${sql.identifier(kind)} WHERE owner_id = ${ownerId} AND rowid IN (${ids})`);
  }
  throw new AccountCapReached(kind, max, message);
}
