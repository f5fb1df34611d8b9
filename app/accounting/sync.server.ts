import { and, eq, sql } from "drizzle-orm";
import { chunk } from "~/db/chunk";
import type { Db } from "~/db/client.server";
import { accountingConnections, debtors, invoices } from "~/db/schema";
import { FieldsRefused } from "~/domain/refused";
import {
  addPayment,
  deletePayment,
  followSyncedInvoice,
  settleDebtorsStatements,
  syncedPaymentsOn,
  voidInvoice,
} from "~/ledger/index.server";
import type { OwnerScope } from "~/platform/scope.server";
import { joinAutopilot, replanDueSchedules } from "~/reminders/index.server";
import { type ConnectionRow, connectionOf, takeLease, xeroSession } from "./connection.server";
import { apiUrl, XERO_PAGE_SIZE, XeroError, type XeroSession, type XeroSetup, xeroRequest } from "./xero/client.server";
import { debtorOf, invoiceOf, isClosed, isOpen, type XeroContact, type XeroInvoice, xeroTime } from "./xero/mapping";

/**
 * The sync (decisions/060): the first import after a preview, then incremental syncs ("Sync now",
 * the watchdog every 15 minutes) that read what changed since the last one (If-Modified-Since) and
 * make the ledger say what the books say: an invoice paid or credited in Xero is paid in Dunly (a
 * payment through the ledger's addPayment, so the reminders stop as for any payment), a voided or
 * deleted one is void, a new open one comes in. Every write is the owner's; synced rows carry
 * provider and external id (unique), so nothing comes in twice.
 */

/** Pages one run reads at most (Xero allows 60 calls a minute): the next run goes on from the cursor. */
const MAX_PAGES_PER_RUN = 20;
/** Pages a first import reads at most (10,000 open invoices). */
const MAX_IMPORT_PAGES = 100;
const CONTACTS_PER_CALL = 50;
const ROWS_PER_STATEMENT = 250;
const LEASE_MS = 5 * 60_000;
/** How often the watchdog syncs an account. */
export const SYNC_EVERY_MS = 15 * 60_000;

type Debtor = NonNullable<ReturnType<typeof debtorOf>>;

/** The contact's id for a debtor's address, from a slice of debtors (?3). */
const ID_FOR_EMAIL = `(SELECT json_extract(j.value, '$.externalId') FROM json_each(?3) AS j
  WHERE json_extract(j.value, '$.email') = lower(debtors.email) LIMIT 1)`;

/**
 * The account's debtor with a contact's address (the oldest, not yet linked to a contact) becomes
 * that contact's: its invoices join it instead of a twin.
 */
const LINK_DEBTORS = `UPDATE debtors SET source_provider = 'xero', external_id = ${ID_FOR_EMAIL}, updated_at = ?2
  WHERE owner_id = ?1 AND external_id IS NULL
    AND lower(email) IN (SELECT json_extract(value, '$.email') FROM json_each(?3))
    AND id = (SELECT min(k.id) FROM debtors AS k WHERE k.owner_id = ?1 AND lower(k.email) = lower(debtors.email))
    AND NOT EXISTS (SELECT 1 FROM debtors AS x WHERE x.owner_id = ?1 AND x.source_provider = 'xero'
      AND x.external_id = ${ID_FOR_EMAIL})`;

/** The contacts of a slice (?3) the account has no debtor for, as new debtors in the user's zone (?4). */
const INSERT_DEBTORS = `INSERT INTO debtors (owner_id, kind, full_name, email, debt_cents, currency, active_strategy,
    paid_cents, status, time_zone, contact_name, opt_out_key, source_provider, external_id, created_at, updated_at)
  SELECT ?1, 'company', json_extract(value, '$.fullName'), json_extract(value, '$.email'), 0,
    json_extract(value, '$.currency'), 1, 0, 'active', ?4, json_extract(value, '$.contactName'),
    lower(hex(randomblob(16))), 'xero', json_extract(value, '$.externalId'), ?2, ?2
  FROM json_each(?3)
  WHERE NOT EXISTS (SELECT 1 FROM debtors AS x WHERE x.owner_id = ?1 AND x.source_provider = 'xero'
    AND x.external_id = json_extract(value, '$.externalId'))
  ORDER BY key`;

/** An 'imported' timeline event for each debtor the slice (?3) added now. */
const INSERT_EVENTS = `INSERT INTO debtor_events (owner_id, debtor_id, type, detail, created_at)
  SELECT owner_id, id, 'imported', 'Xero', ?2 FROM debtors
  WHERE owner_id = ?1 AND source_provider = 'xero' AND created_at = ?2
    AND external_id IN (SELECT json_extract(value, '$.externalId') FROM json_each(?3))`;

/**
 * A slice of invoices (?3), each of its contact's debtor; one already synced is left as it is (the
 * unique external id), and a number the account already uses is left off the new one.
 */
const INSERT_INVOICES = `INSERT OR IGNORE INTO invoices (owner_id, debtor_id, number, amount_cents, currency, issued_on,
    due_on, status, paid_cents, created_at, updated_at, source_provider, external_id)
  SELECT ?1, d.id,
    CASE WHEN EXISTS (SELECT 1 FROM invoices AS t WHERE t.owner_id = ?1 AND t.number = json_extract(j.value, '$.number'))
      THEN NULL ELSE json_extract(j.value, '$.number') END,
    json_extract(j.value, '$.amountCents'), json_extract(j.value, '$.currency'), json_extract(j.value, '$.issuedOn'),
    json_extract(j.value, '$.dueOn'), 'open', 0, ?2, ?2, 'xero', json_extract(j.value, '$.externalId')
  FROM json_each(?3) AS j
  JOIN debtors AS d ON d.owner_id = ?1 AND d.source_provider = 'xero' AND d.external_id = json_extract(j.value, '$.contactId')
  ORDER BY j.key`;
type Invoice = NonNullable<ReturnType<typeof invoiceOf>>;

interface Page {
  Invoices?: XeroInvoice[];
}

/** Xero's sales invoices, page by page (100 each), oldest change first. */
async function invoicePages(
  setup: XeroSetup,
  session: XeroSession,
  options: { statuses?: string; since?: string; maxPages: number },
) {
  const all: XeroInvoice[] = [];
  let complete = false;
  for (let page = 1; page <= options.maxPages; page++) {
    const body = await xeroRequest<Page>(
      setup,
      session,
      apiUrl(setup, "Invoices", {
        where: 'Type=="ACCREC"',
        Statuses: options.statuses,
        order: "UpdatedDateUTC ASC",
        page,
      }),
      { ifModifiedSince: options.since },
    );
    const rows = body.Invoices ?? [];
    all.push(...rows);
    if (rows.length < XERO_PAGE_SIZE) {
      complete = true;
      break;
    }
  }
  return { invoices: all, complete };
}

async function contactsOf(setup: XeroSetup, session: XeroSession, ids: readonly string[]) {
  const found: XeroContact[] = [];
  for (const slice of chunk([...new Set(ids)], CONTACTS_PER_CALL)) {
    const body = await xeroRequest<{ Contacts?: XeroContact[] }>(
      setup,
      session,
      apiUrl(setup, "Contacts", { IDs: slice.join(",") }),
    );
    found.push(...(body.Contacts ?? []));
  }
  return found;
}

/** Open invoices and their customers as Dunly would import them; what cannot be (no e-mail) counted apart. */
async function openPlan(setup: XeroSetup, session: XeroSession, fallbackCurrency: string, maxPages: number) {
  const { invoices: open } = await invoicePages(setup, session, { statuses: "AUTHORISED", maxPages });
  return planOf(setup, session, open.filter(isOpen), fallbackCurrency);
}

async function planOf(setup: XeroSetup, session: XeroSession, open: XeroInvoice[], fallbackCurrency: string) {
  const mapped = open.flatMap((i) => {
    const m = invoiceOf(i);
    return m ? [m] : [];
  });
  const contacts =
    mapped.length > 0
      ? await contactsOf(
          setup,
          session,
          mapped.map((i) => i.contactId),
        )
      : [];
  const debtorsById = new Map<string, Debtor>();
  for (const c of contacts) {
    const d = debtorOf(c, mapped.find((i) => i.contactId === c.ContactID)?.currency ?? fallbackCurrency);
    if (d) debtorsById.set(c.ContactID, d);
  }
  const importable = mapped.filter((i) => debtorsById.has(i.contactId));
  return {
    debtors: [...debtorsById.values()].filter((d) => importable.some((i) => i.contactId === d.externalId)),
    invoices: importable,
    withoutEmail: new Set(mapped.filter((i) => !debtorsById.has(i.contactId)).map((i) => i.contactId)).size,
  };
}

export interface ImportPreview {
  customers: number;
  invoices: number;
  overdue: number;
  withoutEmail: number;
}

/** What the first import would bring in, read from Xero now; nothing is written. */
export async function previewImport(
  db: Db,
  setup: XeroSetup,
  connection: ConnectionRow,
  today: string,
  currency: string,
) {
  const plan = await openPlan(setup, xeroSession(db, setup, connection), currency, MAX_IMPORT_PAGES);
  return {
    customers: plan.debtors.length,
    invoices: plan.invoices.length,
    overdue: plan.invoices.filter((i) => i.dueOn < today).length,
    withoutEmail: plan.withoutEmail,
  } satisfies ImportPreview;
}

/**
 * Writes a plan's debtors and invoices, one batch: a debtor the account has with the same address
 * is linked to the contact (the oldest one), the others are added; invoices not yet synced are
 * added (a number the account already uses keeps the invoice without it); sums settled.
 */
async function writePlan(scope: OwnerScope & { timeZone: string }, plan: { debtors: Debtor[]; invoices: Invoice[] }) {
  const { db, ownerId, now } = scope;
  if (plan.invoices.length === 0) return { debtorIds: [] as number[], added: 0 };
  const d1 = db.$client;
  // Each statement binds the owner, the time and one JSON array (read with json_each): never near 100 values.
  const statements = [
    ...chunk(plan.debtors, ROWS_PER_STATEMENT).flatMap((slice) => {
      const json = JSON.stringify(slice);
      return [
        d1.prepare(LINK_DEBTORS).bind(ownerId, now, json),
        d1.prepare(INSERT_DEBTORS).bind(ownerId, now, json, scope.timeZone),
        d1.prepare(INSERT_EVENTS).bind(ownerId, now, json),
      ];
    }),
    ...chunk(plan.invoices, ROWS_PER_STATEMENT).map((slice) =>
      d1.prepare(INSERT_INVOICES).bind(ownerId, now, JSON.stringify(slice)),
    ),
    ...chunk([...new Set(plan.invoices.map((i) => i.contactId))], ROWS_PER_STATEMENT).flatMap((slice) =>
      settleDebtorsStatements(
        db,
        ownerId,
        sql`${debtors.sourceProvider} = 'xero' AND ${debtors.externalId} IN (SELECT value FROM json_each(${JSON.stringify(slice)}))`,
        now,
      ).map((statement) => {
        const { sql: text, params } = statement.toSQL();
        return d1.prepare(text).bind(...params);
      }),
    ),
  ];
  await d1.batch(statements);
  const rows = await syncedInvoices(
    db,
    ownerId,
    plan.invoices.map((i) => i.externalId),
  );
  const added = rows.filter((r) => r.createdAt === now).length;
  return { debtorIds: [...new Set(rows.map((r) => r.debtorId))], added };
}

/** The owner's synced invoices among these external ids. */
async function syncedInvoices(db: Db, ownerId: string, externalIds: readonly string[]) {
  const found: {
    id: number;
    debtorId: number;
    externalId: string | null;
    amountCents: number;
    paidCents: number;
    dueOn: string;
    status: string;
    createdAt: number;
  }[] = [];
  for (const slice of chunk([...externalIds], ROWS_PER_STATEMENT)) {
    found.push(
      ...(await db
        .select({
          id: invoices.id,
          debtorId: invoices.debtorId,
          externalId: invoices.externalId,
          amountCents: invoices.amountCents,
          paidCents: invoices.paidCents,
          dueOn: invoices.dueOn,
          status: invoices.status,
          createdAt: invoices.createdAt,
        })
        .from(invoices)
        .where(
          and(
            eq(invoices.ownerId, ownerId),
            eq(invoices.sourceProvider, "xero"),
            sql`${invoices.externalId} IN (SELECT value FROM json_each(${JSON.stringify(slice)}))`,
          ),
        )),
    );
  }
  return found;
}

/** A synced invoice as Dunly holds it. */
type Ours = Awaited<ReturnType<typeof syncedInvoices>>[number];

/**
 * Makes one synced invoice say what the books say (decisions/062), in provider-neutral values: its
 * total and due date (the ledger's followSyncedInvoice; due-date plans follow through the
 * caller's replan); more due in the books than in Dunly (a payment or credit note deleted there)
 * takes back the payments Dunly recorded from the books on it, newest first, through the ledger's
 * deletePayment, until Dunly owes at least as much, so it is open and chased again (a payment the
 * user recorded is never touched); less due is a payment of the difference through addPayment,
 * once (its provider id names the invoice, its total and what is left due).
 */
async function followBooks(
  scope: OwnerScope,
  mine: Ours,
  books: { externalId: string; amountCents: number; dueCents: number; dueOn: string },
  label: string,
  today: string,
) {
  const { ownerId, now } = scope;
  const followed = { payments: 0, changed: false, reopened: false, problems: [] as string[] };
  let paid = mine.paidCents;
  if (books.amountCents - paid < books.dueCents) {
    for (const payment of await syncedPaymentsOn(scope.db, ownerId, mine.debtorId, mine.id)) {
      if (books.amountCents - paid >= books.dueCents) break;
      if ("error" in (await deletePayment(scope, ownerId, payment.id, now))) continue;
      paid -= payment.amountCents;
      followed.changed = followed.reopened = true;
    }
  }
  if (books.amountCents !== mine.amountCents || books.dueOn !== mine.dueOn) {
    try {
      if (await followSyncedInvoice(scope, ownerId, mine.id, books, now)) {
        followed.changed = true;
        if (books.amountCents > mine.amountCents) followed.reopened = true;
      }
    } catch (error) {
      if (!(error instanceof FieldsRefused)) throw error;
      followed.problems.push(
        `${label} was lowered in Xero below what is recorded as paid on it in Dunly: delete or change those payments in Dunly.`,
      );
      return followed;
    }
  }
  const owed = books.amountCents - paid;
  if (books.dueCents >= owed) return followed;
  const written = await addPayment(
    scope,
    ownerId,
    mine.debtorId,
    {
      amount: (owed - books.dueCents) / 100,
      paid_on: today,
      note: `Paid or credited in Xero (${label})`,
      invoice_id: mine.id,
    },
    now,
    { provider: { id: `xero:${books.externalId}:${books.amountCents}:${books.dueCents}`, source: "xero" } },
  ).catch((error: unknown) => {
    // The same change recorded by a sync that ran at the same time.
    if (String((error as Error)?.message ?? error).includes("UNIQUE")) return { error: "recorded" as const };
    throw error;
  });
  if (!("error" in written)) followed.payments++;
  return followed;
}

/**
 * Makes Dunly's synced invoices say what Xero says (followBooks for one that is still there); a
 * voided or deleted invoice is void. Returns the payments recorded, the invoices closed and
 * changed, the debtors touched, those who owe again and the problems in words.
 */
async function reconcile(scope: OwnerScope, xero: readonly XeroInvoice[], today: string) {
  const ours = new Map(
    (
      await syncedInvoices(
        scope.db,
        scope.ownerId,
        xero.map((i) => i.InvoiceID),
      )
    ).map((r) => [r.externalId, r]),
  );
  let payments = 0;
  let closed = 0;
  let changed = 0;
  const touched = new Set<number>();
  const reopened = new Set<number>();
  const problems: string[] = [];
  for (const invoice of xero) {
    const mine = ours.get(invoice.InvoiceID);
    if (!mine || mine.status === "void") continue;
    if (isClosed(invoice)) {
      try {
        if (await voidInvoice(scope, scope.ownerId, mine.id, scope.now, { bySync: true })) {
          closed++;
          touched.add(mine.debtorId);
        }
      } catch (error) {
        if (!(error instanceof FieldsRefused)) throw error;
        problems.push(
          `${invoice.InvoiceNumber ?? "An invoice"} was voided in Xero, but payments are recorded on it in Dunly: delete them in Dunly.`,
        );
      }
      continue;
    }
    const books = invoiceOf(invoice);
    if (!books) continue;
    const followed = await followBooks(scope, mine, books, invoice.InvoiceNumber ?? invoice.InvoiceID, today);
    payments += followed.payments;
    if (followed.changed) changed++;
    if (followed.payments > 0 || followed.changed) touched.add(mine.debtorId);
    if (followed.reopened) reopened.add(mine.debtorId);
    problems.push(...followed.problems);
  }
  return { payments, closed, changed, touched: [...touched], reopened: [...reopened], problems };
}

/**
 * The first import, after the user confirmed the preview: the open invoices and their customers
 * come in and join the reminders (autopilot, due-date plans); what Xero already has paid of them
 * is recorded. The sync cursor starts before the read, so nothing changed meanwhile is missed.
 */
export async function confirmImport(
  scope: OwnerScope & { timeZone: string; today: string; currency: string; maxSchedules: number },
  setup: XeroSetup,
) {
  const { db, ownerId } = scope;
  const connection = await connectionOf(db, ownerId);
  if (connection?.status !== "connected") return { ok: false as const, message: "Connect Xero first." };
  if (connection.importedAt)
    return { ok: false as const, message: "Your Xero invoices were imported already: use Sync now." };
  if (!(await takeLease(db, ownerId, scope.now, LEASE_MS))) {
    return { ok: false as const, message: "A sync is under way: try again in a minute." };
  }
  const cursor = new Date(scope.now - 1000).toISOString().slice(0, 19);
  try {
    const session = xeroSession(db, setup, connection);
    const { invoices: open } = await invoicePages(setup, session, {
      statuses: "AUTHORISED",
      maxPages: MAX_IMPORT_PAGES,
    });
    const plan = await planOf(setup, session, open.filter(isOpen), scope.currency);
    const written = await writePlan(scope, plan);
    const settled = await reconcile(scope, open, scope.today);
    await replanDueSchedules(scope, written.debtorIds);
    const joined = await joinAutopilot(scope, written.debtorIds, { max: scope.maxSchedules });
    await finish(db, ownerId, scope.now, {
      imported: true,
      cursor,
      payments: settled.payments,
      problems: settled.problems,
    });
    return { ok: true as const, debtors: plan.debtors.length, invoices: written.added, joined };
  } catch (error) {
    await failed(db, ownerId, error);
    if (error instanceof XeroError) return { ok: false as const, message: error.message };
    throw error;
  }
}

/**
 * One incremental sync of the owner's connection: the sales invoices changed since the cursor (at
 * most MAX_PAGES_PER_RUN pages; the next run goes on), new open ones imported, the others
 * reconciled. Nothing when another sync holds the lease or nothing was imported yet.
 */
export async function syncNow(
  scope: OwnerScope & { timeZone: string; today: string; currency: string; maxSchedules: number },
  setup: XeroSetup,
) {
  const { db, ownerId } = scope;
  const connection = await connectionOf(db, ownerId);
  if (connection?.status !== "connected") return { ok: false as const, message: "Connect Xero first." };
  if (!connection.importedAt) return { ok: false as const, message: "Import your Xero invoices first." };
  if (!(await takeLease(db, ownerId, scope.now, LEASE_MS))) {
    return { ok: false as const, busy: true as const, message: "A sync is under way: try again in a minute." };
  }
  try {
    const session = xeroSession(db, setup, connection);
    const since = connection.syncCursor ?? undefined;
    const { invoices: changed, complete } = await invoicePages(setup, session, { since, maxPages: MAX_PAGES_PER_RUN });
    const known = new Set(
      (
        await syncedInvoices(
          db,
          ownerId,
          changed.map((i) => i.InvoiceID),
        )
      ).map((r) => r.externalId),
    );
    const fresh = changed.filter((i) => isOpen(i) && !known.has(i.InvoiceID));
    const plan = await planOf(setup, session, fresh, scope.currency);
    const written = await writePlan(scope, plan);
    const settled = await reconcile(scope, changed, scope.today);
    const debtorIds = [...new Set([...written.debtorIds, ...settled.touched])];
    await replanDueSchedules(scope, debtorIds);
    // New debtors, and those who owe again because the books took a payment back, join autopilot while it is on.
    const joining = [...new Set([...written.debtorIds, ...settled.reopened])];
    if (joining.length > 0) await joinAutopilot(scope, joining, { max: scope.maxSchedules });
    // The newest change read: the next sync asks from there (all of it again when a run stopped early).
    const newest = changed.reduce((max, i) => Math.max(max, xeroTime(i.UpdatedDateUTC)), Number.NEGATIVE_INFINITY);
    const cursor = Number.isFinite(newest) ? new Date(newest).toISOString().slice(0, 19) : (since ?? null);
    await finish(db, ownerId, scope.now, { cursor, payments: settled.payments, problems: settled.problems });
    return {
      ok: true as const,
      invoices: written.added,
      payments: settled.payments,
      closed: settled.closed,
      changed: settled.changed,
      complete,
    };
  } catch (error) {
    await failed(db, ownerId, error);
    if (error instanceof XeroError) return { ok: false as const, message: error.message };
    throw error;
  }
}

async function finish(
  db: Db,
  ownerId: string,
  now: number,
  done: { imported?: boolean; cursor: string | null; payments: number; problems: string[] },
) {
  await db
    .update(accountingConnections)
    .set({
      ...(done.imported ? { importedAt: now } : {}),
      syncCursor: done.cursor,
      syncLeaseUntil: null,
      lastSyncAt: now,
      lastError: done.problems.length > 0 ? done.problems.join(" ") : null,
      lastErrorAt: done.problems.length > 0 ? now : null,
      syncedPayments: sql`${accountingConnections.syncedPayments} + ${done.payments}`,
      updatedAt: now,
    })
    .where(eq(accountingConnections.ownerId, ownerId));
}

async function failed(db: Db, ownerId: string, error: unknown) {
  const message =
    error instanceof XeroError
      ? error.message
      : "The sync stopped on an error in Dunly: it is tried again at the next sync.";
  await db
    .update(accountingConnections)
    .set({ syncLeaseUntil: null, lastError: message, lastErrorAt: Date.now(), updatedAt: Date.now() })
    .where(eq(accountingConnections.ownerId, ownerId));
}

/** The counts the tab shows: the owner's synced debtors and invoices (open ones apart). */
export async function syncedCounts(db: Db, ownerId: string) {
  const [d, i] = await db.batch([
    db
      .select({ n: sql<number>`count(*)` })
      .from(debtors)
      .where(and(eq(debtors.ownerId, ownerId), eq(debtors.sourceProvider, "xero"))),
    db
      .select({
        n: sql<number>`count(*)`,
        open: sql<number>`coalesce(sum(${invoices.status} IN ('open', 'disputed')), 0)`,
      })
      .from(invoices)
      .where(and(eq(invoices.ownerId, ownerId), eq(invoices.sourceProvider, "xero"))),
  ]);
  return { debtors: d[0]?.n ?? 0, invoices: i[0]?.n ?? 0, open: i[0]?.open ?? 0 };
}

/** The connections the watchdog syncs this run: imported, connected, not synced for SYNC_EVERY_MS; oldest first. */
export async function connectionsDue(db: Db, now: number, limit: number) {
  return db
    .select({ ownerId: accountingConnections.ownerId })
    .from(accountingConnections)
    .where(
      and(
        eq(accountingConnections.status, "connected"),
        sql`${accountingConnections.importedAt} IS NOT NULL`,
        sql`coalesce(${accountingConnections.lastSyncAt}, 0) < ${now - SYNC_EVERY_MS}`,
      ),
    )
    .orderBy(sql`coalesce(${accountingConnections.lastSyncAt}, 0)`)
    .limit(limit);
}
