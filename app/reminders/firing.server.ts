import { and, eq, getTableColumns, inArray, isNull, sql } from "drizzle-orm";
import { chunk, IDS_PER_STATEMENT, unique } from "~/db/chunk";
import type { Db } from "~/db/client.server";
import { debtors, deliveries, optOuts, organizations, schedules, stripeAccounts, users } from "~/db/schema";
import type { ContactRules } from "~/domain/contact-rules";
import { parseDueDates } from "~/domain/occurrence";
import type { PlanState } from "~/domain/plans";
import type { Statement } from "~/domain/statement";
import { debtorInstantsQuery } from "~/models/delivery.server";
import {
  type Debtor,
  type Schedule,
  SENDER_COLUMNS,
  SENDER_ORGANIZATION_COLUMNS,
  type Sender,
  type SenderOrganization,
  senderOf,
} from "~/models/schedule.server";
import { openDueDatesSql, parseStatement, statementColumns } from "~/models/statement.server";

/** Everything an alarm needs to fire a schedule's occurrence. */
export interface Firing {
  schedule: Schedule;
  user: Sender | undefined;
  /** The owner's plan (the sending limits depend on it). */
  plan: string | undefined;
  /** What decides the owner's plan now: without one, reminders hold (docs/decisions/019). */
  planState: PlanState | undefined;
  /** The account's own contact rules (null: the default), for contactRules(). */
  contact: Partial<ContactRules>;
  /** The schedule's debtor, when it is the owner's. */
  debtor: Debtor | undefined;
  /**
   * The debtor's statement (docs/architecture.md §5): their open invoices, oldest due first (the
   * first MAX_STATEMENT_LINES), and the totals over all of them; empty without a debtor.
   */
  statement: Statement;
  /** Whether the debtor's address opted out of the owner's reminders. */
  optedOut: boolean;
  org: SenderOrganization | undefined;
  /** The instants of the debtor's counted reminders since `since` (their contact cap counts them). */
  debtorInstants: number[];
  /** The due dates of the debtor's open invoices (a due-date schedule's steps follow them). */
  dueDates: string[];
  /** Whether the owner's connected Stripe account takes charges: Pay now starts Checkout (decisions/018). */
  chargeable: boolean;
}

/**
 * One round trip for an alarm (docs/architecture.md §4): the schedule and, keyed by its id in the
 * same batch, its owner, organization, debtor with their open invoices (the statement, read in the
 * debtor's query: app/models/statement.server.ts), the debtor's opt-out, the debtor's recent
 * reminders (since `since`) and whether the owner takes payments online. Undefined when the
 * schedule is gone.
 */
export async function loadFiring(db: Db, scheduleId: string, since: number): Promise<Firing | undefined> {
  const owner = db.select({ id: schedules.ownerId }).from(schedules).where(eq(schedules.id, scheduleId));
  const debtorId = db.select({ id: schedules.debtorId }).from(schedules).where(eq(schedules.id, scheduleId));
  const orgId = db.select({ id: schedules.organizationId }).from(schedules).where(eq(schedules.id, scheduleId));
  const [scheduleRows, userRows, orgRows, debtorRows, optOutRows, instantRows, chargeableRows] = await db.batch([
    db.select().from(schedules).where(eq(schedules.id, scheduleId)).limit(1),
    db.select(SENDER_COLUMNS).from(users).where(eq(users.id, owner)).limit(1),
    db
      .select(SENDER_ORGANIZATION_COLUMNS)
      .from(organizations)
      .where(and(eq(organizations.ownerId, owner), eq(organizations.id, orgId)))
      .limit(1),
    db
      .select({ ...getTableColumns(debtors), ...statementColumns(), openDueDates: openDueDatesSql() })
      .from(debtors)
      .where(and(eq(debtors.id, debtorId), eq(debtors.ownerId, owner)))
      .limit(1),
    db
      .select({ email: optOuts.email })
      .from(optOuts)
      .where(
        and(
          eq(optOuts.ownerId, owner),
          eq(
            optOuts.email,
            db
              .select({ email: sql<string>`lower(${debtors.email})` })
              .from(debtors)
              .where(eq(debtors.id, debtorId)),
          ),
        ),
      )
      .limit(1),
    debtorInstantsQuery(db, debtorId, since),
    db
      .select({ userId: stripeAccounts.userId })
      .from(stripeAccounts)
      .where(
        and(
          eq(stripeAccounts.userId, owner),
          isNull(stripeAccounts.disconnectedAt),
          eq(stripeAccounts.chargesEnabled, true),
        ),
      )
      .limit(1),
  ]);
  const schedule = scheduleRows[0];
  if (!schedule) return undefined;
  const [debtorRow] = debtorRows;
  let debtor: Debtor | undefined;
  let statement: Statement = { lines: [], totals: [] };
  let dueDates: string[] = [];
  if (debtorRow) {
    const { statementLines, statementTotals, openDueDates, ...row } = debtorRow;
    debtor = row;
    statement = parseStatement({ statementLines, statementTotals });
    dueDates = parseDueDates(openDueDates);
  }
  return {
    schedule,
    ...senderOf(userRows[0]),
    debtor,
    statement,
    optedOut: optOutRows.length > 0,
    org: orgRows[0],
    debtorInstants: instantRows.map((r) => r.at),
    dueDates,
    chargeable: chargeableRows.length > 0,
  };
}

/** Where a queued delivery stands when the consumer picks it up: its row and its debtor's state. */
export interface QueuedState {
  status: string;
  /** The batch it went into (docs/decisions/021): only that batch may send it. */
  batchKey: string | null;
  debtor: Pick<Debtor, "status" | "debtCents" | "paidCents"> | null;
  optedOut: boolean;
  /** The debtor's open invoices' due dates as they are now (a due-date schedule's next step follows them). */
  dueDates: string[];
}

/**
 * The mail queue consumer's look before sending (app/reminders/mail-queue.server.ts): for each delivery id, its
 * status and its debtor's (paid, opted out): a query per 50 ids, side by side.
 */
export async function queuedStates(db: Db, deliveryIds: readonly number[]): Promise<Map<number, QueuedState>> {
  const slices = chunk(unique(deliveryIds), IDS_PER_STATEMENT);
  const rows = (await Promise.all(slices.map((ids) => queuedStatesQuery(db, ids)))).flat();
  return new Map(
    rows.map((r) => [
      r.id,
      {
        status: r.status,
        batchKey: r.batchKey,
        debtor:
          r.debtorStatus === null || r.debtCents === null || r.paidCents === null
            ? null
            : { status: r.debtorStatus, debtCents: r.debtCents, paidCents: r.paidCents },
        optedOut: Boolean(r.optedOut),
        dueDates: parseDueDates(r.openDueDates),
      },
    ]),
  );
}

function queuedStatesQuery(db: Db, deliveryIds: number[]) {
  return db
    .select({
      id: deliveries.id,
      status: deliveries.status,
      batchKey: deliveries.batchKey,
      debtorStatus: debtors.status,
      debtCents: debtors.debtCents,
      paidCents: debtors.paidCents,
      optedOut: sql<number>`EXISTS (SELECT 1 FROM ${optOuts} WHERE ${optOuts.ownerId} = ${debtors.ownerId} AND ${optOuts.email} = lower(${debtors.email}))`,
      openDueDates: openDueDatesSql(deliveries.debtorId),
    })
    .from(deliveries)
    .leftJoin(debtors, eq(debtors.id, deliveries.debtorId))
    .where(inArray(deliveries.id, deliveryIds));
}
