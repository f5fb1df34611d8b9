import { and, asc, count, desc, eq, gt, gte, inArray, lt, sql } from "drizzle-orm";
import { chunk, IDS_PER_STATEMENT, unique } from "~/db/chunk";
import type { Bindable, Db } from "~/db/client.server";
import { debtors, optOuts, organizations, schedules, users } from "~/db/schema";
import { type MessageBrand, messageBrand } from "~/domain/brand";
import type { ContactRules } from "~/domain/contact-rules";
import {
  DEFAULT_SCHEDULE_SORT,
  SCHEDULE_SORTS,
  type ScheduleSort,
  type SortDirection,
  searchKey,
} from "~/domain/list-params";
import type { PlanState } from "~/domain/plans";
import { sentCountOf } from "./deliveries.server";
import { openInvoicesSql } from "./statement.server";

/** Rows on a page of /schedules-list and the dashboard's card (docs/decisions/009-list-page-size.md). */
export const SCHEDULE_PAGE_SIZE = 25;

export type Schedule = typeof schedules.$inferSelect;
export type Debtor = typeof debtors.$inferSelect;

/** The user a reminder is from. */
export interface Sender {
  fullName: string;
  email: string;
  /** The account's payment page: 'Pay now' in reminders sent as the person. */
  paymentUrl: string | null;
  /** The user's number and date format (users.locale); null: the default. */
  locale: string | null;
  /** The business they send as; null: their own name. */
  businessName: string | null;
  /**
   * Their brand (docs/decisions/058); the logo's URL is a path (`/logos/…`) the builder of an
   * e-mail makes absolute (withLogoOrigin), and the name is the reminder's sender's.
   */
  brand?: MessageBrand;
}
/** The organization a reminder goes out as, when it is sent as a company. */
export interface SenderOrganization {
  id: number;
  name: string;
  address: string;
  /** The organization's payment page; null: the user's is used. */
  paymentUrl: string | null;
}

/** What a send needs of its owner's user row (SENDER_COLUMNS), read by senderOf. */
export const SENDER_COLUMNS = {
  fullName: users.fullName,
  email: users.email,
  plan: users.plan,
  subscriptionStatus: users.subscriptionStatus,
  trialEndsAt: users.trialEndsAt,
  createdAt: users.createdAt,
  quietStartHour: users.quietStartHour,
  quietEndHour: users.quietEndHour,
  contactCap: users.contactCap,
  paymentUrl: users.paymentUrl,
  // Their number and date format: the reminder writes its dates in it.
  locale: users.locale,
  businessName: users.businessName,
  // The brand (docs/decisions/058): logo, accent, signature, "Powered by Dunly".
  brandLogo: users.brandLogo,
  brandAccent: users.brandAccent,
  brandSignature: users.brandSignature,
  brandPoweredBy: users.brandPoweredBy,
};

/** What a send needs of the organization it goes out as. */
export const SENDER_ORGANIZATION_COLUMNS = {
  id: organizations.id,
  name: organizations.name,
  address: organizations.address,
  paymentUrl: organizations.paymentUrl,
};

/** The sender, plan and contact rules of an owner's row read with SENDER_COLUMNS. */
export function senderOf(owner: Pick<typeof users.$inferSelect, keyof typeof SENDER_COLUMNS> | undefined): {
  user: Sender | undefined;
  plan: string | undefined;
  /** What decides the account's plan now (effectivePlan, docs/decisions/019). */
  planState: PlanState | undefined;
  /** The account's own contact rules (null: the default), for contactRules(). */
  contact: Partial<ContactRules>;
} {
  return {
    user: owner && {
      fullName: owner.fullName,
      email: owner.email,
      paymentUrl: owner.paymentUrl,
      locale: owner.locale,
      businessName: owner.businessName,
      brand: messageBrand(
        owner,
        owner.businessName || owner.fullName,
        {
          plan: owner.plan,
          subscriptionStatus: owner.subscriptionStatus,
          trialEndsAt: owner.trialEndsAt,
          createdAt: owner.createdAt,
        },
        "",
        Date.now(),
      ),
    },
    plan: owner?.plan ?? undefined,
    planState: owner && {
      plan: owner.plan,
      subscriptionStatus: owner.subscriptionStatus,
      trialEndsAt: owner.trialEndsAt,
      createdAt: owner.createdAt,
    },
    contact: {
      startHour: owner?.quietStartHour ?? undefined,
      endHour: owner?.quietEndHour ?? undefined,
      maxPerWindow: owner?.contactCap ?? undefined,
    },
  };
}

/**
 * The owner's user row, those of `debtorIds` that are the owner's debtors, and the organization
 * when `organizationId` is the owner's: everything a schedule or a send needs, in one batch. `plan`
 * is the owner's plan (the sending limits depend on it).
 */
export async function getSenderAndDebtors(
  db: Db,
  ownerId: string,
  debtorIds: readonly number[],
  organizationId: number | null = null,
): Promise<{
  user: Sender | undefined;
  plan: string | undefined;
  /** The account's own contact rules (null: the default), for contactRules(). */
  contact: Partial<ContactRules>;
  debtors: Debtor[];
  /** The addresses among the debtors' that opted out of this owner's reminders (lower-cased). */
  optedOut: Set<string>;
  org: SenderOrganization | undefined;
}> {
  const ids = unique(debtorIds);
  const [userRows, orgRows, optOutRows, ...debtorRows] = await db.batch([
    db.select(SENDER_COLUMNS).from(users).where(eq(users.id, ownerId)).limit(1),
    db
      .select(SENDER_ORGANIZATION_COLUMNS)
      .from(organizations)
      .where(and(eq(organizations.ownerId, ownerId), eq(organizations.id, organizationId ?? -1)))
      .limit(1),
    // Only the engine's single debtor needs it; for a list, the first slice's addresses are enough to ask.
    db
      .select({ email: optOuts.email })
      .from(optOuts)
      .where(
        and(
          eq(optOuts.ownerId, ownerId),
          inArray(
            optOuts.email,
            db
              .select({ email: sql<string>`lower(${debtors.email})` })
              .from(debtors)
              .where(and(eq(debtors.ownerId, ownerId), inArray(debtors.id, ids.slice(0, IDS_PER_STATEMENT)))),
          ),
        ),
      ),
    ...chunk(ids, IDS_PER_STATEMENT).map((ids) =>
      db
        .select()
        .from(debtors)
        .where(and(eq(debtors.ownerId, ownerId), inArray(debtors.id, ids))),
    ),
  ]);
  return {
    ...senderOf(userRows[0]),
    debtors: debtorRows.flat(),
    optedOut: new Set(optOutRows.map((r) => r.email)),
    org: orgRows[0],
  };
}

/** The owner's schedule row, or undefined: another user's id looks exactly like a missing one. */
export async function getSchedule(db: Db, ownerId: string, id: string) {
  return db
    .select()
    .from(schedules)
    .where(and(eq(schedules.ownerId, ownerId), eq(schedules.id, id)))
    .get();
}

export interface ScheduleListFilter {
  debtorId?: Bindable<number> | null;
  /** Created at or after this instant (the period dropdown). */
  createdFrom?: number | null;
  /** Created before this instant. */
  createdBefore?: number | null;
  limit?: Bindable<number>;
  offset?: Bindable<number>;
  /** The debtor's name or e-mail contains this (case-insensitive for ASCII letters); "" for all. */
  q?: string;
  sort?: ScheduleSort;
  dir?: SortDirection;
  /** Only schedules whose id (the spec's Name) starts with this (the API's NamePrefix). */
  namePrefix?: string;
}

/**
 * What a schedules list shows of each schedule: its debtor and sender organization (joined), the
 * real count of e-mails sent and the held-back reason. The last two are correlated subqueries, so
 * SQLite runs them for the rows a query outputs only (never over other schedules' or other
 * accounts' deliveries), each inside an index (deliveries (schedule_id, status), deliveries'
 * unique occurrence key).
 */
const scheduleFields = {
  id: schedules.id,
  state: schedules.state,
  preset: schedules.preset,
  frequency: schedules.frequency,
  templateStep: schedules.templateStep,
  timeZone: schedules.timeZone,
  dueDate: schedules.dueDate,
  // A due-date cadence's steps, repeat and hour; null for other frequencies.
  cadenceSteps: schedules.cadenceSteps,
  cadenceRepeatDays: schedules.cadenceRepeatDays,
  cadenceVoices: schedules.cadenceVoices,
  sendHour: schedules.sendHour,
  nextRunAt: schedules.nextRunAt,
  lastRunAt: schedules.lastRunAt,
  coveredAt: schedules.coveredAt,
  // A running due-date schedule's debtor's open invoices: what its next e-mail carries (nextRunWhat).
  openInvoices: sql<
    string | null
  >`(CASE WHEN ${schedules.frequency} = 'due' AND ${schedules.nextRunAt} IS NOT NULL THEN ${openInvoicesSql(schedules.debtorId)} END)`.as(
    "open_invoices",
  ),
  // Aliased: D1 returns a row's columns by name, and the schedule has a time_zone of its own.
  debtorTimeZone: sql<string>`${debtors.timeZone}`.as("debtor_time_zone"),
  createdAt: schedules.createdAt,
  updatedAt: schedules.updatedAt,
  debtorId: schedules.debtorId,
  organizationId: schedules.organizationId,
  debtorName: debtors.fullName,
  debtorEmail: debtors.email,
  debtCents: debtors.debtCents,
  paidCents: debtors.paidCents,
  currency: debtors.currency,
  activeStrategy: debtors.activeStrategy,
  organizationName: organizations.name,
  emailsSent: sentCountOf("schedule", schedules.id),
  // Why Dunly stopped or paused it ('paid', 'opted_out', 'bounced'), and the debtor's status.
  stoppedReason: schedules.stoppedReason,
  debtorStatus: debtors.status,
  // A schedule held by the debtor's promise says until when (app/domain/schedule-status.ts).
  debtorPromisedOn: debtors.promisedOn,
  // When its current occurrence is held back (contact rules, sending limits): why, and until when.
  waiting: sql<
    string | null
  >`(SELECT d.error FROM deliveries AS d WHERE d.occurrence_key = ${schedules.id} || ':' || ${schedules.nextRunAt} AND d.status = 'deferred')`,
};

/** Needs the debtors join: a search by the debtor, or the order by the debtor's name. */
const needsDebtor = (filter: ScheduleListFilter) => Boolean(filter.q) || filter.sort === "debtor";

function listWhere(ownerId: Bindable<string>, filter: ScheduleListFilter) {
  // One debtor's: through the index on schedules (debtor_id, …), their few rows. A unary + keeps
  // the owner's condition but not its index, which SQLite would otherwise walk for its order,
  // reading every schedule of the owner to find the debtor's.
  const where = [filter.debtorId ? sql`+${schedules.ownerId} = ${ownerId}` : eq(schedules.ownerId, ownerId)];
  if (filter.debtorId) where.push(eq(schedules.debtorId, filter.debtorId));
  if (filter.createdFrom != null) where.push(gte(schedules.createdAt, filter.createdFrom));
  if (filter.createdBefore != null) where.push(lt(schedules.createdAt, filter.createdBefore));
  if (filter.namePrefix)
    where.push(sql`substr(${schedules.id}, 1, ${filter.namePrefix.length}) = ${filter.namePrefix}`);
  // Needs the debtors join (needsDebtor).
  if (filter.q) {
    const key = searchKey(filter.q);
    where.push(sql`(instr(lower(${debtors.fullName}), ${key}) > 0 OR instr(lower(${debtors.email}), ${key}) > 0)`);
  }
  return and(...where);
}

/** The ORDER BY of a schedules list; the id breaks ties so pages never overlap. */
function scheduleOrder(sort: ScheduleSort = DEFAULT_SCHEDULE_SORT, dir: SortDirection = SCHEDULE_SORTS[sort]) {
  const by = dir === "desc" ? desc : asc;
  switch (sort) {
    case "next":
      // Schedules with no next run (completed) come last either way.
      return [sql`${schedules.nextRunAt} IS NULL`, by(schedules.nextRunAt), by(schedules.id)];
    case "debtor":
      return [by(sql`${debtors.fullName} COLLATE NOCASE`), by(schedules.createdAt), by(schedules.id)];
    default:
      return [by(schedules.createdAt), by(schedules.id)];
  }
}

/**
 * One page of the owner's schedules, newest first unless sorted by next run or debtor, searched by
 * the debtor's name or e-mail: one query. Its inner query picks the page's ids
 * (through the index on schedules (owner_id, created_at, id), in order for the default sort); the
 * outer one reads their columns and counts, so a sort never computes the counts of rows that are
 * not on the page. Returned unrun, to await or to batch.
 */
export function listSchedules(db: Db, ownerId: Bindable<string>, filter: ScheduleListFilter = {}) {
  const order = scheduleOrder(filter.sort, filter.dir);
  const ids = db.select({ id: schedules.id }).from(schedules);
  const page = (needsDebtor(filter) ? ids.innerJoin(debtors, eq(debtors.id, schedules.debtorId)) : ids)
    .where(listWhere(ownerId, filter))
    .orderBy(...order)
    .limit(filter.limit ?? SCHEDULE_PAGE_SIZE)
    .offset(filter.offset ?? 0)
    .as("page");
  return db
    .select(scheduleFields)
    .from(page)
    .innerJoin(schedules, eq(schedules.id, page.id))
    .innerJoin(debtors, eq(debtors.id, schedules.debtorId))
    .leftJoin(organizations, eq(organizations.id, schedules.organizationId))
    .orderBy(...order);
}
export type ScheduleListRow = Awaited<ReturnType<typeof listSchedules>>[number];

/**
 * How many of the owner's schedules match the filter (the pager's total). The debtors join only
 * when searching by the debtor (every schedule has its debtor: the foreign key cascades), so the
 * plain count is read from the index on schedules (owner_id, created_at) alone.
 */
export function countSchedules(db: Db, ownerId: Bindable<string>, filter: ScheduleListFilter = {}) {
  const query = db.select({ n: count() }).from(schedules);
  return (needsDebtor(filter) ? query.innerJoin(debtors, eq(debtors.id, schedules.debtorId)) : query).where(
    listWhere(ownerId, filter),
  );
}

/** The owner's schedule with its debtor and sender, for the configure modal; undefined if not theirs. */
export async function getScheduleDetails(db: Db, ownerId: string, id: string) {
  return db
    .select(scheduleFields)
    .from(schedules)
    .innerJoin(debtors, eq(debtors.id, schedules.debtorId))
    .leftJoin(organizations, eq(organizations.id, schedules.organizationId))
    .where(and(eq(schedules.ownerId, ownerId), eq(schedules.id, id)))
    .get();
}

/** The owner's enabled schedules among `ids` and their debtors: what "send now" would fire. */
export async function enabledSchedules(db: Db, ownerId: string, ids: readonly string[]) {
  const [first, ...rest] = chunk(unique(ids), IDS_PER_STATEMENT).map((slice) =>
    db
      .select({ id: schedules.id, debtorId: schedules.debtorId })
      .from(schedules)
      .where(and(eq(schedules.ownerId, ownerId), inArray(schedules.id, slice), eq(schedules.state, "ENABLED"))),
  );
  if (!first) return [];
  return (await db.batch([first, ...rest])).flat();
}

/**
 * Enabled schedules whose next run is older than `cutoff`: their alarm was lost (watchdog). One
 * page of `limit` in id order after `afterId` (keyset paging over the due index).
 */
export async function listOverdueSchedules(db: Db, cutoff: number, limit = 500, afterId = "") {
  return db
    .select({ id: schedules.id, nextRunAt: schedules.nextRunAt })
    .from(schedules)
    .where(and(eq(schedules.state, "ENABLED"), lt(schedules.nextRunAt, cutoff), gt(schedules.id, afterId)))
    .orderBy(asc(schedules.id))
    .limit(limit);
}
