import { and, eq, getTableColumns, inArray, isNull, type SQLWrapper, sql } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { BANK_ACCOUNT_COLUMNS } from "~/bank/index.server";
import { chunk, IDS_PER_STATEMENT, unique } from "~/db/chunk";
import type { Db } from "~/db/client.server";
import { bindParam, preparedQuery, runBatch } from "~/db/prepared.server";
import {
  bankAccounts,
  debtorContacts,
  debtors,
  deliveries,
  messageTemplates,
  optOuts,
  organizations,
  schedules,
  stripeAccounts,
  users,
} from "~/db/schema";
import { fromAddressOf, verifiedDomainsQuery } from "~/db/sending-from";
import type { BankAccountRecord } from "~/domain/bank-transfer";
import type { CadenceInvoice } from "~/domain/cadence-plan";
import type { ContactRules } from "~/domain/contact-rules";
import { copyList } from "~/domain/contacts";
import { parseOpenInvoices } from "~/domain/occurrence";
import { textMonth } from "~/domain/phone";
import { effectivePlan, type Plan, type PlanState } from "~/domain/plans";
import type { Statement } from "~/domain/statement";
import { debtorInstantsQuery, remindedBeforeSql } from "~/reminders/deliveries.server";
import {
  type Debtor,
  type Schedule,
  SENDER_COLUMNS,
  SENDER_ORGANIZATION_COLUMNS,
  type Sender,
  type SenderOrganization,
  senderOf,
} from "~/reminders/schedules.server";
import {
  openInvoicesSql,
  parseStatement,
  statementChargeColumns,
  statementColumns,
} from "~/reminders/statement.server";

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
   * The debtor's statement: their open invoices, oldest due first (the
   * first MAX_STATEMENT_LINES), and the totals over all of them; empty without a debtor.
   */
  statement: Statement;
  /** Whether the debtor's address opted out of the owner's reminders. */
  optedOut: boolean;
  /** The instants of the debtor's counted reminders since `since` (their contact cap counts them). */
  debtorInstants: number[];
  /** The debtor's open invoices (a due-date schedule's steps follow them). */
  invoices: CadenceInvoice[];
  /**
   * When the debtor has an open invoice synced from the owner's accounting tool: the tool and the
   * time of its last successful sync (a stale one pauses the reminder: decisions/060); else null.
   */
  books: BooksFreshness | null;
  /** The debtor asked for a payment plan the user has not answered yet (decisions/066): reminders hold. */
  planRequested: boolean;
  /** What a text step needs to know (decisions/070), read with the debtor. */
  text: FiringText;
}

/** The account's text settings and this month's use, and whether the debtor's number said STOP. */
export interface FiringText {
  enabled: boolean;
  /** Comma-separated ISO codes, as stored (countriesOf reads them). */
  countries: string;
  /** Texts claimed this month (text_usage, the month given to loadFirings). */
  used: number;
  /** The debtor's number has a text_opt_outs row of the owner. */
  optedOut: boolean;
}

const NO_TEXT: FiringText = { enabled: false, countries: "", used: 0, optedOut: false };

export interface BooksFreshness {
  provider: string;
  syncedAt: number;
}

/** The schedules an alarm batch loads: one bound value, a JSON array of their ids (any number of them). */
const inScheduleIds = (column: SQLWrapper) =>
  sql`${column} IN (SELECT value FROM json_each(${bindParam("scheduleIds")}))`;
const firingSchedules = (db: Db, column: SQLiteColumn) =>
  db.select({ id: column }).from(schedules).where(inScheduleIds(schedules.id));

/**
 * A debtor as a reminder needs them: their columns, their statement, the due dates of their open
 * invoices, and whether their address opted out of their owner's reminders. The debtor's owner is
 * checked against the schedule's where the row is used, so this is the schedule owner's opt-out.
 */
const debtorToRemind = () => ({
  ...getTableColumns(debtors),
  ...statementColumns(),
  openInvoices: openInvoicesSql(),
  // Spelled out: in a one-table query drizzle leaves columns unqualified, and inside this
  // subquery "owner_id" and "email" would be the opt-out's own.
  optedOut: sql<number>`EXISTS (SELECT 1 FROM "opt_outs" AS o WHERE o."owner_id" = "debtors"."owner_id" AND o."email" = lower("debtors"."email"))`,
  planRequested: sql<number>`EXISTS (SELECT 1 FROM "payment_plans" AS pp WHERE pp."owner_id" = "debtors"."owner_id" AND pp."debtor_id" = "debtors"."id" AND pp."status" = 'requested')`,
});

// loadFirings' statements, built once per isolate: an alarm's query
// building was half of its Worker time when 5,000 fired together (docs/decisions/029). Each is keyed
// by the schedules' ids (a JSON array, so the SQL is the same for one schedule or fifty).
const firingSchedule = preparedQuery((db) => db.select().from(schedules).where(inScheduleIds(schedules.id)));
const firingOwner = preparedQuery((db) =>
  db
    .select({ id: users.id, ...SENDER_COLUMNS })
    .from(users)
    // An account being deleted sends nothing: its alarms find no sender.
    .where(and(inArray(users.id, firingSchedules(db, schedules.ownerId)), isNull(users.deletingAt))),
);
/**
 * The owner's accounting tool and its last successful sync (or its connection), when this debtor has
 * an open invoice from it: a reminder whose books are stale waits (decisions/060). Only the alarm's
 * firing reads it; the consumer sends what the firing claimed seconds before.
 */
const booksColumns = () => ({
  booksProvider: sql<string | null>`(SELECT a."provider" FROM "accounting_connections" AS a
    WHERE a."owner_id" = "debtors"."owner_id" AND EXISTS (SELECT 1 FROM "invoices" AS i
      WHERE i."owner_id" = "debtors"."owner_id" AND i."debtor_id" = "debtors"."id"
        AND i."source_provider" = a."provider" AND i."status" IN ('open', 'disputed')))`,
  booksSyncedAt: sql<
    number | null
  >`(SELECT coalesce(a."last_sync_at", a."connected_at") FROM "accounting_connections" AS a WHERE a."owner_id" = "debtors"."owner_id")`,
});
/**
 * A text step's facts (decisions/070): the owner's text settings, this month's texts (the month a
 * bound value) and whether the debtor's number said STOP to the owner. Read with the debtor, only
 * by the alarm's firing; the consumer looks again before each text leaves.
 */
const textColumns = () => ({
  textEnabled: sql<
    number | null
  >`(SELECT t."enabled" FROM "text_settings" AS t WHERE t."owner_id" = "debtors"."owner_id")`,
  textCountries: sql<
    string | null
  >`(SELECT t."countries" FROM "text_settings" AS t WHERE t."owner_id" = "debtors"."owner_id")`,
  textUsed: sql<
    number | null
  >`(SELECT u."used" FROM "text_usage" AS u WHERE u."owner_id" = "debtors"."owner_id" AND u."month" = ${bindParam("textMonth")})`,
  textOptedOut: sql<number>`EXISTS (SELECT 1 FROM "text_opt_outs" AS x WHERE x."owner_id" = "debtors"."owner_id" AND x."number" = "debtors"."phone")`,
});
const firingDebtor = preparedQuery((db) =>
  db
    .select({ ...debtorToRemind(), ...booksColumns(), ...textColumns() })
    .from(debtors)
    .where(inArray(debtors.id, firingSchedules(db, schedules.debtorId))),
);
const firingInstants = preparedQuery((db) =>
  debtorInstantsQuery(db, firingSchedules(db, schedules.debtorId), bindParam("since")),
);

/**
 * One round trip for up to 50 alarms (docs/decisions/031): the schedules
 * and, keyed by their ids in the same batch, their owners, debtors with their open invoices (the
 * statement, read in the debtor's query: app/reminders/statement.server.ts) and opt-outs, and the
 * debtors' recent reminders (since `since`). What only the message needs (the organization,
 * payments online) the mail queue's consumer reads (queuedReminders, docs/decisions/024). A schedule
 * that is gone has no entry; a debtor only counts when it is the schedule owner's.
 */
export async function loadFirings(
  db: Db,
  scheduleIds: readonly string[],
  since: number,
  now = Date.now(),
): Promise<Map<string, Firing>> {
  const firings = new Map<string, Firing>();
  for (const ids of chunk(unique(scheduleIds), IDS_PER_STATEMENT)) {
    const values = { scheduleIds: JSON.stringify(ids), since, textMonth: textMonth(now) };
    const [scheduleRows, userRows, debtorRows, instantRows] = await runBatch(db, [
      firingSchedule(db, values),
      firingOwner(db, values),
      firingDebtor(db, values),
      firingInstants(db, values),
    ] as const);
    const owners = new Map(userRows.map((u) => [u.id, u]));
    const debtorsById = new Map(debtorRows.map((d) => [d.id, d]));
    const instants = new Map<number, number[]>();
    for (const { debtorId, at } of instantRows) {
      if (debtorId === null) continue;
      const list = instants.get(debtorId);
      if (list) list.push(at);
      else instants.set(debtorId, [at]);
    }
    for (const schedule of scheduleRows) {
      const row = schedule.debtorId === null ? undefined : debtorsById.get(schedule.debtorId);
      let debtor: Debtor | undefined;
      let statement: Statement = { lines: [], totals: [] };
      let invoices: CadenceInvoice[] = [];
      let optedOut = false;
      let books: BooksFreshness | null = null;
      let planRequested = false;
      let text = NO_TEXT;
      if (row && row.ownerId === schedule.ownerId) {
        const {
          textEnabled,
          textCountries,
          textUsed,
          textOptedOut,
          booksProvider,
          booksSyncedAt,
          statementLines,
          statementTotals,
          statementHeld,
          statementClaimed,
          openInvoices,
          optedOut: out,
          planRequested: asked,
          ...rest
        } = row;
        planRequested = Boolean(asked);
        text = {
          enabled: Boolean(textEnabled),
          countries: textCountries ?? "",
          used: textUsed ?? 0,
          optedOut: Boolean(textOptedOut),
        };
        debtor = rest;
        statement = parseStatement({ statementLines, statementTotals, statementHeld, statementClaimed });
        invoices = parseOpenInvoices(openInvoices);
        optedOut = Boolean(out);
        if (booksProvider && booksSyncedAt !== null) books = { provider: booksProvider, syncedAt: booksSyncedAt };
      }
      firings.set(schedule.id, {
        schedule,
        ...senderOf(owners.get(schedule.ownerId)),
        debtor,
        statement,
        optedOut,
        debtorInstants: debtor ? (instants.get(debtor.id) ?? []) : [],
        invoices,
        books,
        planRequested,
        text,
      });
    }
  }
  return firings;
}

/** loadFirings for one schedule (the watchdog's and the tests' firing): undefined when it is gone. */
export async function loadFiring(db: Db, scheduleId: string, since: number, now = Date.now()) {
  return (await loadFirings(db, [scheduleId], since, now)).get(scheduleId);
}

/** Where a queued delivery stands when the consumer picks it up: its row and its debtor's state. */
export interface QueuedState {
  status: string;
  /** The batch it went into (docs/decisions/021): only that batch may send it. */
  batchKey: string | null;
  debtor: Pick<Debtor, "status" | "debtCents" | "paidCents"> | null;
  optedOut: boolean;
  /** The debtor's open invoices as they are now (a due-date schedule's next step follows them). */
  invoices: CadenceInvoice[];
}

/**
 * What the consumer builds a queued reminder's message from (docs/decisions/024): its delivery's
 * template and tone, its schedule's frequency, the sender, the organization it is sent as, the
 * debtor with their statement as they are now, and whether the owner takes payments online.
 */
export interface MessageParts {
  template: string;
  tone: number;
  frequency: Schedule["frequency"];
  user: Sender;
  org: SenderOrganization | undefined;
  debtor: Debtor;
  statement: Statement;
  /** No reminder reached the debtor before this one: its copy speaks of no earlier one. */
  firstContact: boolean;
  chargeable: boolean;
  /** The owner's bank-transfer details, one per currency (app/bank): the reminder shows its currencies'. */
  bankAccounts: BankAccountRecord[];
  /** The user's own texts of this step, one per language they wrote it in (decisions/056). */
  texts: { language: string; subject: string; body: string }[];
  /** The owner's verified sending domain's address (decisions/059), or null: Dunly's. */
  fromAddress: string | null;
  /**
   * The debtor's other contacts that may get a copy now (decisions/057): CC on, not bouncing, their
   * address not opted out of the owner's reminders; lower-cased, in the order they were added.
   */
  copies: string[];
  /** The account's plan now (its monthly texts: decisions/070); null: none (reminders hold). */
  plan: Plan | null;
}

/**
 * The consumer's one read for a call's new reminders (docs/decisions/024): for each delivery id,
 * where it stands (queuedStates' answer) and, when its debtor and owner are there, what its message
 * is built from. One D1 batch per 50 ids (side by side): the deliveries, their debtors (statement, open due dates,
 * opt-out), their schedules, their owners, the organizations they are sent as, the owners who
 * take payments online, their bank details and their verified sending domains; each query keyed by the deliveries' ids (no two tables' columns share a
 * result row: D1 returns a row's columns by name).
 */
export async function queuedReminders(
  db: Db,
  deliveryIds: readonly number[],
): Promise<Map<number, QueuedState & { parts: MessageParts | null; scheduleEnabled: boolean; copies: string[] }>> {
  const slices = chunk(unique(deliveryIds), IDS_PER_STATEMENT);
  const results = await Promise.all(slices.map((ids) => db.batch(queuedReminderQueries(db, ids))));
  const rows = results.flatMap((r) => r[0]);
  const debtorRows = new Map(results.flatMap((r) => r[1]).map((d) => [d.id, d]));
  const scheduleRows = new Map(results.flatMap((r) => r[2]).map((x) => [x.id, x]));
  const senders = new Map(results.flatMap((r) => r[3]).map((u) => [u.id, senderOf(u)]));
  const orgs = new Map(results.flatMap((r) => r[4]).map((o) => [o.id, o]));
  const chargeable = new Set(results.flatMap((r) => r[5]).map((c) => c.userId));
  const banks = new Map<string, BankAccountRecord[]>();
  for (const { ownerId, ...account } of results.flatMap((r) => r[6]))
    banks.set(ownerId, [...(banks.get(ownerId) ?? []), account]);
  const texts = results.flatMap((r) => r[7]);
  const froms = new Map(results.flatMap((r) => r[8]).map((d) => [d.ownerId, fromAddressOf(d)]));
  // Each debtor's copies, only its owner's contacts (a debtor's contacts are always its owner's: checked again).
  const copiesOf = new Map<number, { ownerId: string; email: string }[]>();
  for (const c of results.flatMap((r) => r[9])) copiesOf.set(c.debtorId, [...(copiesOf.get(c.debtorId) ?? []), c]);
  return new Map(
    rows.map((r) => {
      const row = r.debtorId === null ? undefined : debtorRows.get(r.debtorId);
      // Only the owner's own debtor, schedule and organization.
      const debtorRow = row?.ownerId === r.ownerId ? row : undefined;
      const schedule = r.scheduleId === null ? undefined : scheduleRows.get(r.scheduleId);
      const org = schedule?.organizationId == null ? undefined : orgs.get(schedule.organizationId);
      const sender = senders.get(r.ownerId);
      const user = sender?.user;
      const state: QueuedState = {
        status: r.status,
        batchKey: r.batchKey,
        debtor: debtorRow
          ? { status: debtorRow.status, debtCents: debtorRow.debtCents, paidCents: debtorRow.paidCents }
          : null,
        optedOut: Boolean(debtorRow?.optedOut),
        invoices: parseOpenInvoices(debtorRow?.openInvoices ?? null),
      };
      const copies = debtorRow
        ? copyList(
            debtorRow.email,
            (copiesOf.get(debtorRow.id) ?? []).filter((c) => c.ownerId === r.ownerId),
          )
        : [];
      let parts: MessageParts | null = null;
      if (debtorRow && user && schedule?.ownerId === r.ownerId) {
        const {
          statementLines,
          statementTotals,
          statementHeld,
          statementClaimed,
          statementCharges,
          statementChargeTotals,
          openInvoices: _i,
          optedOut: _o,
          remindedBefore,
          ...debtor
        } = debtorRow;
        parts = {
          template: r.template,
          tone: r.tone,
          frequency: schedule.frequency,
          user,
          org: org?.ownerId === r.ownerId ? org : undefined,
          debtor,
          statement: parseStatement({
            statementLines,
            statementTotals,
            statementHeld,
            statementClaimed,
            statementCharges,
            statementChargeTotals,
          }),
          firstContact: !remindedBefore,
          chargeable: chargeable.has(r.ownerId),
          bankAccounts: banks.get(r.ownerId) ?? [],
          texts: texts.filter((t) => t.ownerId === r.ownerId && t.template === r.template && t.tone === r.tone),
          fromAddress: froms.get(r.ownerId) ?? null,
          copies,
          plan: sender?.planState ? effectivePlan(sender.planState, Date.now()) : null,
        };
      }
      return [
        r.id,
        {
          ...state,
          parts,
          scheduleEnabled: schedule?.state === "ENABLED" && schedule.ownerId === r.ownerId,
          copies,
        },
      ];
    }),
  );
}

/** queuedReminders' statements for up to 50 delivery ids, in one D1 batch. */
function queuedReminderQueries(db: Db, ids: number[]) {
  const ofDeliveries = <C extends SQLiteColumn>(column: C) =>
    db.select({ id: column }).from(deliveries).where(inArray(deliveries.id, ids));
  const owners = ofDeliveries(deliveries.ownerId);
  const scheduleIds = ofDeliveries(deliveries.scheduleId);
  return [
    db
      .select({
        id: deliveries.id,
        ownerId: deliveries.ownerId,
        debtorId: deliveries.debtorId,
        scheduleId: deliveries.scheduleId,
        status: deliveries.status,
        batchKey: deliveries.batchKey,
        template: deliveries.template,
        tone: deliveries.tone,
      })
      .from(deliveries)
      .where(inArray(deliveries.id, ids)),
    db
      // Only the message needs it, not the alarm's firing: a first reminder speaks of no earlier one.
      // The late-payment charges still owed (decisions/067): in this same read, so one per batch.
      .select({
        ...debtorToRemind(),
        ...statementChargeColumns(),
        remindedBefore: remindedBeforeSql(sql`"debtors"."id"`),
      })
      .from(debtors)
      .where(inArray(debtors.id, ofDeliveries(deliveries.debtorId))),
    db
      .select({
        id: schedules.id,
        ownerId: schedules.ownerId,
        state: schedules.state,
        frequency: schedules.frequency,
        organizationId: schedules.organizationId,
      })
      .from(schedules)
      .where(inArray(schedules.id, scheduleIds)),
    db
      .select({ id: users.id, ...SENDER_COLUMNS })
      .from(users)
      // An account being deleted sends nothing: its queued reminders find no sender.
      .where(and(inArray(users.id, owners), isNull(users.deletingAt))),
    db
      .select({ ownerId: organizations.ownerId, ...SENDER_ORGANIZATION_COLUMNS })
      .from(organizations)
      .where(
        inArray(
          organizations.id,
          db.select({ id: schedules.organizationId }).from(schedules).where(inArray(schedules.id, scheduleIds)),
        ),
      ),
    db
      .select({ userId: stripeAccounts.userId })
      .from(stripeAccounts)
      .where(
        and(
          inArray(stripeAccounts.userId, owners),
          isNull(stripeAccounts.disconnectedAt),
          eq(stripeAccounts.chargesEnabled, true),
        ),
      ),
    db.select(BANK_ACCOUNT_COLUMNS).from(bankAccounts).where(inArray(bankAccounts.ownerId, owners)),
    // The user's own texts of these deliveries' steps, in every language they wrote (decisions/056).
    db
      .selectDistinct({
        ownerId: messageTemplates.ownerId,
        template: messageTemplates.template,
        tone: messageTemplates.tone,
        language: messageTemplates.language,
        subject: messageTemplates.subject,
        body: messageTemplates.body,
      })
      .from(messageTemplates)
      .innerJoin(
        deliveries,
        and(
          eq(deliveries.ownerId, messageTemplates.ownerId),
          eq(deliveries.template, messageTemplates.template),
          eq(deliveries.tone, messageTemplates.tone),
        ),
      )
      .where(inArray(deliveries.id, ids)),
    // The From address while the owner's own domain is verified (decisions/059).
    verifiedDomainsQuery(db, owners),
    // The debtors' contacts that may get a copy (decisions/057), keyed by the same delivery ids (at
    // most 50 bound values, whatever the number of contacts): CC on, not bouncing, not opted out.
    db
      .select({ debtorId: debtorContacts.debtorId, ownerId: debtorContacts.ownerId, email: debtorContacts.email })
      .from(debtorContacts)
      .where(
        and(
          inArray(debtorContacts.debtorId, ofDeliveries(deliveries.debtorId)),
          eq(debtorContacts.cc, true),
          isNull(debtorContacts.bouncedAt),
          sql`NOT EXISTS (SELECT 1 FROM "opt_outs" AS o WHERE o."owner_id" = "debtor_contacts"."owner_id" AND o."email" = "debtor_contacts"."email")`,
        ),
      )
      .orderBy(debtorContacts.id),
  ] as const;
}

/**
 * The mail queue consumer's look before settling (app/reminders/mail-queue.server.ts): for each delivery id, its
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
        invoices: parseOpenInvoices(r.openInvoices),
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
      openInvoices: openInvoicesSql(deliveries.debtorId),
    })
    .from(deliveries)
    .leftJoin(debtors, eq(debtors.id, deliveries.debtorId))
    .where(inArray(deliveries.id, deliveryIds));
}
