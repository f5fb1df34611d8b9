import { and, asc, count, eq, getTableColumns, gt, type SQLWrapper, sql } from "drizzle-orm";
import { chunk } from "~/db/chunk";
import type { Db } from "~/db/client.server";
import { debtorEvents, debtors, invoices } from "~/db/schema";
import { AccountCapReached, DEFAULT_ACCOUNT_CAPS } from "~/domain/account-caps";
import { EXPORT_PAGE } from "~/domain/export-page";
import {
  debtorChargeTotalsSql,
  isNumberTaken,
  MAX_INVOICES_PER_DEBTOR,
  settleDebtorsStatements,
} from "~/ledger/index.server";
import { type CreateOptions, enforceCap } from "~/platform/account-caps.server";
import type { ExistingDebtor, ImportDebtor, ImportInvoice } from "~/schemas/csv-import";
import { editableInvoice, editableOf } from "./debtors.server";

/**
 * The CSV import's reads and writes. Every statement binds only the
 * owner, the time and one JSON array of its rows or keys (read back with json_each), so D1's 100
 * bound parameters are never near, and the statements of an import are one batch (one
 * transaction): all or nothing. They are D1's own statements: drizzle cannot batch raw SQL with
 * bound values; the ledger's statement (a drizzle query) joins them through its SQL (`d1Statement`).
 */

/** Rows per statement: 250 keep each JSON value well under D1's 2 MB. */
const ROWS_PER_STATEMENT = 250;
/** Keys (addresses, numbers) per lookup statement. */
const KEYS_PER_STATEMENT = 500;

/** The invoice numbers of the file were taken meanwhile (between the preview and the import): nothing was added. */
export class ImportNumberTaken extends Error {
  constructor() {
    super("An invoice number of the import is already used in the account");
    this.name = "ImportNumberTaken";
  }
}

/** A drizzle query as one of D1's statements, to batch with raw ones. */
function d1Statement(db: Db, query: { toSQL(): { sql: string; params: unknown[] } }) {
  const { sql: text, params } = query.toSQL();
  return db.$client.prepare(text).bind(...params);
}

/**
 * The debtors among the owner's with these lower-cased addresses (?2, a JSON array), through
 * debtors (owner_id, lower(email)) (an ORDER BY would make SQLite walk the owner's rows instead).
 */
export const DEBTORS_BY_EMAIL = `
  SELECT d.id AS id, lower(d.email) AS email, d.full_name AS fullName,
    (SELECT count(*) FROM invoices AS i WHERE i.debtor_id = d.id) AS invoices,
    (SELECT json_group_array(i.amount_cents || '@' || i.due_on) FROM invoices AS i
      WHERE i.debtor_id = d.id AND i.status != 'void') AS signatures
  FROM debtors AS d
  WHERE d.owner_id = ?1 AND lower(d.email) IN (SELECT value FROM json_each(?2))`;

/** The owner's invoices' numbers among these (?2, a JSON array), with their debtor's lower-cased address. */
const NUMBERS_TAKEN = `
  SELECT i.number AS number, lower(d.email) AS email FROM invoices AS i JOIN debtors AS d ON d.id = i.debtor_id
  WHERE i.owner_id = ?1 AND i.number IN (SELECT value FROM json_each(?2))`;

/**
 * What the account already has of an import's addresses and invoice numbers: its debtors with
 * those addresses (lower-cased; the oldest of each, with their count of invoices), through
 * debtors (owner_id, lower(email)), and the numbers its invoices use, through invoices (owner_id,
 * number). One batch.
 */
export async function importLookup(db: Db, ownerId: string, keys: { emails: string[]; numbers: string[] }) {
  const d1 = db.$client;
  const byEmail = chunk(keys.emails, KEYS_PER_STATEMENT).map((slice) =>
    d1.prepare(DEBTORS_BY_EMAIL).bind(ownerId, JSON.stringify(slice)),
  );
  const byNumber = chunk(keys.numbers, KEYS_PER_STATEMENT).map((slice) =>
    d1.prepare(NUMBERS_TAKEN).bind(ownerId, JSON.stringify(slice)),
  );
  const statements = [...byEmail, ...byNumber];
  const results = statements.length === 0 ? [] : await d1.batch<Record<string, unknown>>(statements);
  const existing = new Map<string, ExistingDebtor>();
  for (const { results: rows } of results.slice(0, byEmail.length)) {
    for (const r of rows as { id: number; email: string; fullName: string; invoices: number; signatures: string }[]) {
      // The oldest of twins: the one the add-debtor form offers too (findDebtorByEmail).
      const seen = existing.get(r.email);
      if (!seen || r.id < seen.id)
        existing.set(r.email, {
          id: r.id,
          fullName: r.fullName,
          invoices: r.invoices,
          signatures: new Set(JSON.parse(r.signatures || "[]") as string[]),
        });
    }
  }
  const takenNumbers = new Map(
    results
      .slice(byEmail.length)
      .flatMap(({ results: rows }) => (rows as { number: string; email: string }[]).map((r) => [r.number, r.email])),
  );
  return { existing, takenNumbers, maxInvoices: MAX_INVOICES_PER_DEBTOR };
}

/** What an import added. */
export interface Imported {
  debtors: number;
  invoices: number;
  /** The debtors it added or gave invoices to (autopilot looks at them). */
  debtorIds: number[];
}

/** One slice of new debtors (?3, a JSON array of ImportDebtor with its optOutKey), in file order; their sums follow. */
const INSERT_DEBTORS = `
  INSERT INTO debtors (owner_id, kind, full_name, email, debt_cents, currency, active_strategy, paid_cents,
    status, time_zone, language, contact_name, phone, opt_out_key, created_at, updated_at)
  SELECT ?1, json_extract(value, '$.kind'), json_extract(value, '$.fullName'), json_extract(value, '$.email'),
    0, json_extract(value, '$.currency'), json_extract(value, '$.activeStrategy'), 0,
    'active', json_extract(value, '$.timeZone'), json_extract(value, '$.language'), json_extract(value, '$.contactName'),
    json_extract(value, '$.phone'), json_extract(value, '$.optOutKey'), ?2, ?2
  FROM json_each(?3) ORDER BY key
  RETURNING id`;

/** An 'imported' event for each new debtor of a slice, found by its unique opt-out key (?4, a JSON array). */
const INSERT_NEW_EVENTS = `
  INSERT INTO debtor_events (owner_id, debtor_id, type, detail, created_at)
  SELECT owner_id, id, 'imported', ?2, ?3 FROM debtors
  WHERE opt_out_key IN (SELECT value FROM json_each(?4)) AND owner_id = ?1`;

/** An 'imported' event for each of the owner's debtors (?4, a JSON array of ids) an import gave invoices. */
const INSERT_EXISTING_EVENTS = `
  INSERT INTO debtor_events (owner_id, debtor_id, type, detail, created_at)
  SELECT owner_id, id, 'imported', ?2, ?3 FROM debtors
  WHERE id IN (SELECT value FROM json_each(?4)) AND owner_id = ?1`;

/**
 * One slice of invoices (?3, a JSON array of ImportInvoice with its new debtor's opt-out key), open,
 * in the debtor's currency unless given: of the owner's debtor `debtorId`, or of the new debtor
 * with `debtorKey`.
 */
const INSERT_INVOICES = `
  INSERT INTO invoices (owner_id, debtor_id, number, amount_cents, currency, issued_on, due_on, status, paid_cents,
    created_at, updated_at)
  SELECT ?1, d.id, json_extract(j.value, '$.number'), json_extract(j.value, '$.amountCents'),
    coalesce(json_extract(j.value, '$.currency'), d.currency), json_extract(j.value, '$.issuedOn'),
    json_extract(j.value, '$.dueOn'), 'open', 0, ?2, ?2
  FROM json_each(?3) AS j
  JOIN debtors AS d ON d.id = coalesce(json_extract(j.value, '$.debtorId'),
    (SELECT k.id FROM debtors AS k WHERE k.opt_out_key = json_extract(j.value, '$.debtorKey'))) AND d.owner_id = ?1
  ORDER BY j.key
  RETURNING id, debtor_id AS debtorId`;

/** SQL: `column` is one of `values` (a JSON array, one bound value). */
const inJson = (column: SQLWrapper, values: readonly unknown[]) =>
  sql`${column} IN (SELECT value FROM json_each(${JSON.stringify(values)}))`;

/**
 * The refusal of `adding` new debtors that would take the owner past `max` (the account's or the
 * plan's cap, `message` naming the plan's), with how many they have; null when they fit. The
 * confirm throws it, the preview tells it before the user confirms.
 */
export async function debtorsCapRefusal(db: Db, ownerId: string, adding: number, max: number, message?: string) {
  const row = await db.select({ n: count() }).from(debtors).where(eq(debtors.ownerId, ownerId)).get();
  const have = row?.n ?? 0;
  return have + adding > max ? { error: new AccountCapReached("debtors", max, message), have } : null;
}

/**
 * Adds the owner's import, all or none: the new debtors (with an 'imported' timeline event each)
 * and every invoice, new debtors' and the user's existing debtors' alike (those get an 'imported'
 * event too), then the debtors' sums and status from their invoices (the ledger's own statement).
 * One batch. Refused with AccountCapReached (nothing written) when the new debtors would take the
 * account past `max`; checked again against concurrent creates afterwards (enforceCap deletes the
 * new debtors, and their invoices and events with them, and the invoices added to existing
 * debtors go too). ImportNumberTaken when an invoice number was used meanwhile.
 */
export async function importDebtors(
  db: Db,
  ownerId: string,
  plan: { debtors: readonly ImportDebtor[]; invoices: readonly ImportInvoice[] },
  options: CreateOptions & { detail?: string } = {},
): Promise<Imported> {
  if (plan.invoices.length === 0) return { debtors: 0, invoices: 0, debtorIds: [] };
  const max = options.max ?? DEFAULT_ACCOUNT_CAPS.debtors;
  const now = options.now ?? Date.now();
  const detail = options.detail ?? "";
  if (plan.debtors.length > 0) {
    const refusal = await debtorsCapRefusal(db, ownerId, plan.debtors.length, max, options.capMessage);
    if (refusal) throw refusal.error;
  }

  // Each new debtor gets its opt-out key here: its invoices and its event find it by that key.
  const keyOf = new Map(plan.debtors.map((d) => [d.email, crypto.randomUUID().replaceAll("-", "")]));
  const newDebtors = plan.debtors.map((d) => ({ ...d, optOutKey: keyOf.get(d.email) }));
  const rows = plan.invoices.map((i) => ({ ...i, debtorKey: i.debtorId === undefined ? keyOf.get(i.email) : null }));
  const existingIds = [...new Set(plan.invoices.flatMap((i) => (i.debtorId === undefined ? [] : [i.debtorId])))];

  const d1 = db.$client;
  const debtorInserts = chunk(newDebtors, ROWS_PER_STATEMENT).flatMap((slice) => [
    d1.prepare(INSERT_DEBTORS).bind(ownerId, now, JSON.stringify(slice)),
    d1.prepare(INSERT_NEW_EVENTS).bind(ownerId, detail, now, JSON.stringify(slice.map((d) => d.optOutKey))),
  ]);
  const invoiceInserts = chunk(rows, ROWS_PER_STATEMENT).map((slice) =>
    d1.prepare(INSERT_INVOICES).bind(ownerId, now, JSON.stringify(slice)),
  );
  const existingEvents = chunk(existingIds, ROWS_PER_STATEMENT).map((slice) =>
    d1
      .prepare(INSERT_EXISTING_EVENTS)
      .bind(ownerId, detail ? `${detail}: invoices added` : "Invoices added", now, JSON.stringify(slice)),
  );
  const settles = [
    ...chunk(existingIds, ROWS_PER_STATEMENT).map((slice) => inJson(debtors.id, slice)),
    ...chunk([...keyOf.values()], ROWS_PER_STATEMENT).map((slice) => inJson(debtors.optOutKey, slice)),
  ].flatMap((which) => settleDebtorsStatements(db, ownerId, which, now).map((s) => d1Statement(db, s)));

  let results: D1Result<Record<string, unknown>>[];
  try {
    results = await d1.batch([...debtorInserts, ...invoiceInserts, ...existingEvents, ...settles]);
  } catch (error) {
    if (isNumberTaken(error)) throw new ImportNumberTaken();
    throw error;
  }
  const newIds = results
    .slice(0, debtorInserts.length)
    .filter((_, i) => i % 2 === 0)
    .flatMap((r) => (r.results as { id: number }[]).map((row) => row.id));
  const added = results
    .slice(debtorInserts.length, debtorInserts.length + invoiceInserts.length)
    .flatMap((r) => r.results as { id: number; debtorId: number }[]);
  try {
    await enforceCap(db, "debtors", ownerId, newIds, max, options.capMessage);
  } catch (error) {
    if (!(error instanceof AccountCapReached)) throw error;
    await undoExistingInvoices(db, ownerId, existingIds, added, now);
    throw error;
  }
  return { debtors: newIds.length, invoices: added.length, debtorIds: [...newIds, ...existingIds] };
}

/** An import refused after it was written (the cap, under a race): the invoices it gave existing debtors go again. */
async function undoExistingInvoices(
  db: Db,
  ownerId: string,
  existingIds: readonly number[],
  added: readonly { id: number; debtorId: number }[],
  now: number,
) {
  const ids = new Set(existingIds);
  const theirs = added.filter((i) => ids.has(i.debtorId)).map((i) => i.id);
  if (theirs.length === 0) return;
  await db.$client.batch([
    ...chunk(theirs, ROWS_PER_STATEMENT).map((slice) =>
      d1Statement(db, db.delete(invoices).where(and(eq(invoices.ownerId, ownerId), inJson(invoices.id, slice)))),
    ),
    ...chunk(existingIds, ROWS_PER_STATEMENT).map((slice) =>
      d1Statement(
        db,
        db
          .delete(debtorEvents)
          .where(
            and(
              eq(debtorEvents.ownerId, ownerId),
              eq(debtorEvents.type, "imported"),
              eq(debtorEvents.createdAt, now),
              inJson(debtorEvents.debtorId, slice),
            ),
          ),
      ),
    ),
    ...chunk(existingIds, ROWS_PER_STATEMENT).flatMap((slice) =>
      settleDebtorsStatements(db, ownerId, inJson(debtors.id, slice), now).map((s) => d1Statement(db, s)),
    ),
  ]);
}

/**
 * The owner's debtors for the CSV export, oldest first, each with the number of their single
 * invoice (null with several), one page of `size` at a time as the download takes them: each
 * page read through the index on (owner_id, id), after the last id of the one before.
 */
export async function* debtorExportPages(db: Db, ownerId: string, size = EXPORT_PAGE) {
  let after = 0;
  for (;;) {
    const page = await db
      .select({
        ...getTableColumns(debtors),
        editableInvoice,
        // Late-payment charges per currency, apart from the invoices (decisions/067).
        // Spelled out: a one-table select would write top-level columns unqualified.
        charges: debtorChargeTotalsSql(sql`"debtors"."id"`, sql`"debtors"."owner_id"`),
      })
      .from(debtors)
      .where(and(eq(debtors.ownerId, ownerId), gt(debtors.id, after)))
      .orderBy(asc(debtors.id))
      .limit(size);
    yield page.map(({ editableInvoice: editable, ...d }) => ({
      ...d,
      invoiceNumber: editableOf(editable).invoiceNumber,
    }));
    const last = page.at(-1);
    if (!last || page.length < size) return;
    after = last.id;
  }
}

/**
 * The owner's invoices for /invoices.csv, in the order they were made, each with its debtor's
 * name, e-mail, kind, strategy and zone (the columns the import reads), one page of `size` at a
 * time: read through the index on invoices (owner_id, id), after the last id of the page before.
 */
export async function* invoiceExportPages(db: Db, ownerId: string, size = EXPORT_PAGE) {
  let after = 0;
  for (;;) {
    const page = await db
      .select({
        id: invoices.id,
        number: invoices.number,
        amountCents: invoices.amountCents,
        paidCents: invoices.paidCents,
        currency: invoices.currency,
        issuedOn: invoices.issuedOn,
        dueOn: invoices.dueOn,
        status: invoices.status,
        disputeReason: invoices.disputeReason,
        fullName: debtors.fullName,
        email: debtors.email,
        kind: debtors.kind,
        activeStrategy: debtors.activeStrategy,
        timeZone: debtors.timeZone,
      })
      .from(invoices)
      .innerJoin(debtors, eq(debtors.id, invoices.debtorId))
      .where(and(eq(invoices.ownerId, ownerId), gt(invoices.id, after)))
      .orderBy(asc(invoices.id))
      .limit(size);
    yield page;
    const last = page.at(-1);
    if (!last || page.length < size) return;
    after = last.id;
  }
}
