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
import {
  BOOKS_LABEL,
  type BooksDebtor,
  BooksError,
  type BooksInvoice,
  type BooksProvider,
  type BooksSource,
} from "./books";
import { type ConnectionRow, connectionOf, takeLease } from "./connection.server";
import { type AccountingSetups, sourceFor } from "./sources.server";

/**
 * The sync (decisions/060, 061), whichever the tool (a BooksSource: Xero, QuickBooks): the first
 * import after a preview, then incremental syncs ("Sync now", the watchdog every 15 minutes, a
 * QuickBooks webhook) that read what changed since the last one and make the ledger say what the
 * books say: an invoice paid or credited in the books is paid in Dunly (a payment through the
 * ledger's addPayment, so the reminders stop as for any payment), a voided or deleted one is void,
 * a new open one comes in. Every write is the owner's; synced rows carry provider and external id
 * (unique), so nothing comes in twice.
 */

/** Pages one run reads at most (Xero allows 60 calls a minute): the next run goes on from the cursor. */
const MAX_PAGES_PER_RUN = 20;
/**
 * Open invoices the preview reads at most, whichever the tool (10 of Xero's pages, one of
 * QuickBooks'; with their customers about 30 calls): beyond them it says "at least".
 */
const PREVIEW_INVOICES = 1000;
/**
 * Open invoices one step of the first import reads (decisions/060): 8 of Xero's pages of 100 (with
 * their customers, 50 a call, and the last page read again: at most 27 calls, so a step every 30
 * seconds stays under Xero's 60 a minute), one of QuickBooks' pages of 1,000 (at most 22 calls).
 * Few calls a step also keep a step within a Worker's subrequests.
 */
export const IMPORT_INVOICES_PER_STEP = 800;
/** The pages of `source` one import step reads. */
export const importPagesPerStep = (source: Pick<BooksSource, "pageSize">) =>
  Math.max(1, Math.floor(IMPORT_INVOICES_PER_STEP / source.pageSize));
const ROWS_PER_STATEMENT = 250;
const LEASE_MS = 5 * 60_000;
/** How often the watchdog syncs an account. */
export const SYNC_EVERY_MS = 15 * 60_000;

type Debtor = BooksDebtor;

/** The contact's id for a debtor's address, from a slice of debtors (?3). */
const ID_FOR_EMAIL = `(SELECT json_extract(j.value, '$.externalId') FROM json_each(?3) AS j
  WHERE json_extract(j.value, '$.email') = lower(debtors.email) LIMIT 1)`;

/**
 * The account's debtor with a contact's address (the oldest, not yet linked to a contact) becomes
 * that contact's: its invoices join it instead of a twin.
 */
const LINK_DEBTORS = `UPDATE debtors SET source_provider = ?4, external_id = ${ID_FOR_EMAIL}, updated_at = ?2
  WHERE owner_id = ?1 AND external_id IS NULL
    AND lower(email) IN (SELECT json_extract(value, '$.email') FROM json_each(?3))
    AND id = (SELECT min(k.id) FROM debtors AS k WHERE k.owner_id = ?1 AND lower(k.email) = lower(debtors.email))
    AND NOT EXISTS (SELECT 1 FROM debtors AS x WHERE x.owner_id = ?1 AND x.source_provider = ?4
      AND x.external_id = ${ID_FOR_EMAIL})`;

/** The contacts of a slice (?3) of the provider (?4) the account has no debtor for, as new debtors in the user's zone (?5). */
const INSERT_DEBTORS = `INSERT INTO debtors (owner_id, kind, full_name, email, debt_cents, currency, active_strategy,
    paid_cents, status, time_zone, contact_name, opt_out_key, source_provider, external_id, created_at, updated_at)
  SELECT ?1, 'company', json_extract(value, '$.fullName'), json_extract(value, '$.email'), 0,
    json_extract(value, '$.currency'), 1, 0, 'active', ?5, json_extract(value, '$.contactName'),
    lower(hex(randomblob(16))), ?4, json_extract(value, '$.externalId'), ?2, ?2
  FROM json_each(?3)
  WHERE NOT EXISTS (SELECT 1 FROM debtors AS x WHERE x.owner_id = ?1 AND x.source_provider = ?4
    AND x.external_id = json_extract(value, '$.externalId'))
  ORDER BY key`;

/** An 'imported' timeline event (detail: the provider's name, ?5) for each debtor the slice (?3) added now. */
const INSERT_EVENTS = `INSERT INTO debtor_events (owner_id, debtor_id, type, detail, created_at)
  SELECT owner_id, id, 'imported', ?5, ?2 FROM debtors
  WHERE owner_id = ?1 AND source_provider = ?4 AND created_at = ?2
    AND external_id IN (SELECT json_extract(value, '$.externalId') FROM json_each(?3))`;

/**
 * A slice of invoices (?3), each of its contact's debtor; one already synced is left as it is (the
 * unique external id), and a number the account already uses is left off the new one.
 */
const INSERT_INVOICES = `INSERT OR IGNORE INTO invoices (owner_id, debtor_id, number, amount_cents, currency, issued_on,
    due_on, status, paid_cents, created_at, updated_at, source_provider, external_id, source_url)
  SELECT ?1, d.id,
    CASE WHEN EXISTS (SELECT 1 FROM invoices AS t WHERE t.owner_id = ?1 AND t.number = json_extract(j.value, '$.number'))
      THEN NULL ELSE json_extract(j.value, '$.number') END,
    json_extract(j.value, '$.amountCents'), json_extract(j.value, '$.currency'), json_extract(j.value, '$.issuedOn'),
    json_extract(j.value, '$.dueOn'), 'open', 0, ?2, ?2, ?4, json_extract(j.value, '$.externalId'),
    json_extract(j.value, '$.url')
  FROM json_each(?3) AS j
  JOIN debtors AS d ON d.owner_id = ?1 AND d.source_provider = ?4 AND d.external_id = json_extract(j.value, '$.contactId')
  ORDER BY j.key`;
type Invoice = BooksInvoice;

/**
 * Open invoices and their customers as Dunly would import them; what cannot be (no e-mail) counted
 * apart. Customers already synced (`known`) are not read again: their invoices join their debtor.
 */
async function planOf(
  source: BooksSource,
  open: readonly BooksInvoice[],
  fallbackCurrency: string,
  known: ReadonlySet<string> = new Set(),
) {
  const mapped = open.filter((i) => i.open);
  const unknown = mapped.filter((i) => !known.has(i.contactId));
  const debtorsById =
    unknown.length > 0 ? await source.customersOf(unknown, fallbackCurrency) : new Map<string, Debtor>();
  const importable = mapped.filter((i) => known.has(i.contactId) || debtorsById.has(i.contactId));
  return {
    debtors: [...debtorsById.values()].filter((d) => importable.some((i) => i.contactId === d.externalId)),
    invoices: importable,
    withoutEmail: new Set(unknown.filter((i) => !debtorsById.has(i.contactId)).map((i) => i.contactId)).size,
  };
}

/** Which of these customers the owner already has as synced debtors. */
async function knownCustomers(db: Db, ownerId: string, provider: BooksProvider, ids: readonly string[]) {
  const known = new Set<string>();
  for (const slice of chunk([...new Set(ids)], ROWS_PER_STATEMENT)) {
    const rows = await db
      .select({ externalId: debtors.externalId })
      .from(debtors)
      .where(
        and(
          eq(debtors.ownerId, ownerId),
          eq(debtors.sourceProvider, provider),
          sql`${debtors.externalId} IN (SELECT value FROM json_each(${JSON.stringify(slice)}))`,
        ),
      );
    for (const r of rows) if (r.externalId) known.add(r.externalId);
  }
  return known;
}

export interface ImportPreview {
  customers: number;
  invoices: number;
  overdue: number;
  withoutEmail: number;
  /** More open invoices than the preview reads (PREVIEW_INVOICES): the counts are "at least". */
  more: boolean;
}

/**
 * What the first import would bring in, read from the books now (at most PREVIEW_INVOICES of them,
 * so a large organisation's preview stays within the tool's limits); nothing is written.
 */
export async function previewImport(source: BooksSource, today: string, currency: string) {
  const open: BooksInvoice[] = [];
  let more = true;
  const pages = Math.max(1, Math.floor(PREVIEW_INVOICES / source.pageSize));
  for (let page = 1; page <= pages && more; page++) {
    const read = await source.openPage(page);
    open.push(...read.invoices);
    more = !read.last;
  }
  const plan = await planOf(source, open, currency);
  return {
    customers: plan.debtors.length,
    invoices: plan.invoices.length,
    overdue: plan.invoices.filter((i) => i.dueOn < today).length,
    withoutEmail: plan.withoutEmail,
    more,
  } satisfies ImportPreview;
}

/**
 * Writes a plan's debtors and invoices, one batch: a debtor the account has with the same address
 * is linked to the contact (the oldest one), the others are added; invoices not yet synced are
 * added (a number the account already uses keeps the invoice without it); sums settled.
 */
async function writePlan(
  scope: OwnerScope & { timeZone: string },
  provider: BooksProvider,
  plan: { debtors: Debtor[]; invoices: Invoice[] },
) {
  const { db, ownerId, now } = scope;
  if (plan.invoices.length === 0) return { debtorIds: [] as number[], added: 0 };
  const d1 = db.$client;
  // Each statement binds the owner, the time and one JSON array (read with json_each): never near 100 values.
  const statements = [
    ...chunk(plan.debtors, ROWS_PER_STATEMENT).flatMap((slice) => {
      const json = JSON.stringify(slice);
      return [
        d1.prepare(LINK_DEBTORS).bind(ownerId, now, json, provider),
        d1.prepare(INSERT_DEBTORS).bind(ownerId, now, json, provider, scope.timeZone),
        d1.prepare(INSERT_EVENTS).bind(ownerId, now, json, provider, BOOKS_LABEL[provider]),
      ];
    }),
    ...chunk(plan.invoices, ROWS_PER_STATEMENT).map((slice) =>
      d1.prepare(INSERT_INVOICES).bind(ownerId, now, JSON.stringify(slice), provider),
    ),
    ...chunk([...new Set(plan.invoices.map((i) => i.contactId))], ROWS_PER_STATEMENT).flatMap((slice) =>
      settleDebtorsStatements(
        db,
        ownerId,
        sql`${debtors.sourceProvider} = ${provider} AND ${debtors.externalId} IN (SELECT value FROM json_each(${JSON.stringify(slice)}))`,
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
    provider,
    plan.invoices.map((i) => i.externalId),
  );
  const added = rows.filter((r) => r.createdAt === now).length;
  return { debtorIds: [...new Set(rows.map((r) => r.debtorId))], added };
}

/** The owner's synced invoices among these external ids. */
async function syncedInvoices(db: Db, ownerId: string, provider: BooksProvider, externalIds: readonly string[]) {
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
            eq(invoices.sourceProvider, provider),
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
  names: { provider: BooksProvider; tool: string; invoice: string },
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
        `${names.invoice} was lowered in ${names.tool} below what is recorded as paid on it in Dunly: delete or change those payments in Dunly.`,
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
      note: `Paid or credited in ${names.tool} (${names.invoice})`,
      invoice_id: mine.id,
    },
    now,
    {
      provider: {
        id: `${names.provider}:${books.externalId}:${books.amountCents}:${books.dueCents}`,
        source: names.provider,
      },
    },
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
async function reconcile(scope: OwnerScope, source: BooksSource, books: readonly BooksInvoice[], today: string) {
  const { provider, label } = source;
  const ours = new Map(
    (
      await syncedInvoices(
        scope.db,
        scope.ownerId,
        provider,
        books.map((i) => i.externalId),
      )
    ).map((r) => [r.externalId, r]),
  );
  let payments = 0;
  let closed = 0;
  let changed = 0;
  const touched = new Set<number>();
  const reopened = new Set<number>();
  const problems: string[] = [];
  for (const invoice of books) {
    const mine = ours.get(invoice.externalId);
    if (!mine || mine.status === "void") continue;
    if (invoice.closed) {
      try {
        if (await voidInvoice(scope, scope.ownerId, mine.id, scope.now, { bySync: true })) {
          closed++;
          touched.add(mine.debtorId);
        }
      } catch (error) {
        if (!(error instanceof FieldsRefused)) throw error;
        problems.push(
          `${invoice.number ?? "An invoice"} was voided in ${label}, but payments are recorded on it in Dunly: delete them in Dunly.`,
        );
      }
      continue;
    }
    const followed = await followBooks(
      scope,
      mine,
      invoice,
      { provider, tool: label, invoice: invoice.number ?? invoice.externalId },
      today,
    );
    payments += followed.payments;
    if (followed.changed) changed++;
    if (followed.payments > 0 || followed.changed) touched.add(mine.debtorId);
    if (followed.reopened) reopened.add(mine.debtorId);
    problems.push(...followed.problems);
  }
  return { payments, closed, changed, touched: [...touched], reopened: [...reopened], problems };
}

export type SyncScope = OwnerScope & { timeZone: string; today: string; currency: string; maxSchedules: number };

/** The owner's connected books, or why not (in words). */
async function connectedSource(
  db: Db,
  ownerId: string,
  setups: AccountingSetups,
): Promise<{ connection: ConnectionRow; source: BooksSource } | { message: string }> {
  const connection = await connectionOf(db, ownerId);
  const label = connection ? BOOKS_LABEL[connection.provider] : "your accounting tool";
  if (connection?.status !== "connected") return { message: `Connect ${label} first.` };
  const source = sourceFor(db, setups, connection);
  if (!source) return { message: `${label} is not available.` };
  return { connection, source };
}

/**
 * The first import, after the user confirmed the preview (decisions/060): started here, then read a
 * few pages a step (importStep) until the last page. The sync cursor starts a second before the
 * first read, so what changes in the books meanwhile is read again by the next sync. False (with
 * why) when it cannot start.
 */
export async function startImport(scope: SyncScope, setups: AccountingSetups) {
  const { db, ownerId, now } = scope;
  const found = await connectedSource(db, ownerId, setups);
  if (!("source" in found)) return { ok: false as const, message: found.message };
  const { connection, source } = found;
  if (connection.importedAt)
    return { ok: false as const, message: `Your ${source.label} invoices were imported already: use Sync now.` };
  if (connection.importPage !== null)
    return { ok: false as const, message: `Your ${source.label} invoices are being imported: see the progress below.` };
  const [started] = await db
    .update(accountingConnections)
    .set({ importPage: 1, importSkipped: 0, syncCursor: source.cursorAt(now - 1000), lastError: null, updatedAt: now })
    .where(
      and(
        eq(accountingConnections.ownerId, ownerId),
        eq(accountingConnections.status, "connected"),
        sql`${accountingConnections.importedAt} IS NULL AND ${accountingConnections.importPage} IS NULL`,
      ),
    )
    .returning({ ownerId: accountingConnections.ownerId });
  if (!started) return { ok: false as const, message: "An import is under way: see the progress below." };
  return { ok: true as const, label: source.label };
}

export type ImportStep =
  | { kind: "done"; label: string; debtors: number; invoices: number; joined: number; skipped: number }
  | { kind: "more"; label: string }
  | { kind: "busy" }
  // The tool is busy or did not answer: the same step again later.
  | { kind: "wait"; message: string }
  | { kind: "stopped"; message: string };

/**
 * One step of the first import: up to importPagesPerStep pages of open invoices from the page the
 * last step reached (its last page read again: an invoice that changed meanwhile moves to the end of
 * the order, and its neighbour would slip into a page already read), their new customers, written
 * in one batch and reconciled; the next page kept on the connection, so a step that dies is run
 * again from there. After the last page the import is done: the debtors join the reminders.
 */
export async function importStep(scope: SyncScope, setups: AccountingSetups): Promise<ImportStep> {
  const { db, ownerId } = scope;
  const found = await connectedSource(db, ownerId, setups);
  if (!("source" in found)) return { kind: "stopped", message: found.message };
  const { connection, source } = found;
  if (connection.importedAt || connection.importPage === null)
    return { kind: "stopped", message: "No import is under way." };
  if (!(await takeLease(db, ownerId, scope.now, LEASE_MS))) return { kind: "busy" };
  const first = connection.importPage;
  try {
    const open: BooksInvoice[] = [];
    // The invoices of this step's own pages (not the page read again): those left out are counted once.
    const fresh: BooksInvoice[] = [];
    let last = false;
    let page = Math.max(1, first - 1);
    const end = first + importPagesPerStep(source);
    for (; page < end && !last; page++) {
      const read = await source.openPage(page);
      open.push(...read.invoices);
      if (page >= first) fresh.push(...read.invoices);
      last = read.last;
    }
    const known = await knownCustomers(
      db,
      ownerId,
      source.provider,
      open.map((i) => i.contactId),
    );
    const plan = await planOf(source, open, scope.currency, known);
    await writePlan(scope, source.provider, plan);
    const settled = await reconcile(scope, source, open, scope.today);
    const imported = new Set(plan.invoices.map((i) => i.externalId));
    const skipped = connection.importSkipped + fresh.filter((i) => !imported.has(i.externalId)).length;
    if (!last) {
      await db
        .update(accountingConnections)
        .set({
          importPage: page,
          importSkipped: skipped,
          syncLeaseUntil: null,
          syncedPayments: sql`${accountingConnections.syncedPayments} + ${settled.payments}`,
          updatedAt: scope.now,
        })
        .where(and(eq(accountingConnections.ownerId, ownerId), eq(accountingConnections.importPage, first)));
      return { kind: "more", label: source.label };
    }
    // Done: every synced debtor's due-date plans, and autopilot for them.
    const all = await syncedDebtorIds(db, ownerId, source.provider);
    await replanDueSchedules(scope, all);
    const joined = await joinAutopilot(scope, all, { max: scope.maxSchedules });
    await db
      .update(accountingConnections)
      .set({ importPage: null, importSkipped: skipped })
      .where(eq(accountingConnections.ownerId, ownerId));
    await finish(db, ownerId, scope.now, {
      imported: true,
      cursor: connection.syncCursor,
      payments: settled.payments,
      problems: settled.problems,
    });
    const counts = await syncedCounts(db, ownerId, source.provider);
    return {
      kind: "done",
      label: source.label,
      debtors: counts.debtors,
      invoices: counts.invoices,
      joined,
      skipped,
    };
  } catch (error) {
    await failed(db, ownerId, error);
    if (error instanceof BooksError) {
      const later = error.kind === "rate-limited" || error.kind === "unreachable";
      return { kind: later ? "wait" : "stopped", message: error.message };
    }
    throw error;
  }
}

/** The owner's debtors synced from the provider. */
async function syncedDebtorIds(db: Db, ownerId: string, provider: BooksProvider) {
  const rows = await db
    .select({ id: debtors.id })
    .from(debtors)
    .where(and(eq(debtors.ownerId, ownerId), eq(debtors.sourceProvider, provider)));
  return rows.map((r) => r.id);
}

/**
 * One incremental sync of the owner's connection: the sales invoices changed since the cursor (at
 * most MAX_PAGES_PER_RUN pages; the next run goes on), new open ones imported, the others
 * reconciled. Nothing when another sync holds the lease or nothing was imported yet.
 */
export async function syncNow(scope: SyncScope, setups: AccountingSetups) {
  const { db, ownerId } = scope;
  const found = await connectedSource(db, ownerId, setups);
  if (!("source" in found)) return { ok: false as const, message: found.message };
  const { connection, source } = found;
  if (!connection.importedAt) return { ok: false as const, message: `Import your ${source.label} invoices first.` };
  if (!(await takeLease(db, ownerId, scope.now, LEASE_MS))) {
    return { ok: false as const, busy: true as const, message: "A sync is under way: try again in a minute." };
  }
  try {
    const since = connection.syncCursor;
    const { invoices: changed, complete, cursor } = await source.changedSince(since, MAX_PAGES_PER_RUN);
    const known = new Set(
      (
        await syncedInvoices(
          db,
          ownerId,
          source.provider,
          changed.map((i) => i.externalId),
        )
      ).map((r) => r.externalId),
    );
    const fresh = changed.filter((i) => i.open && !known.has(i.externalId));
    const plan = await planOf(source, fresh, scope.currency);
    const written = await writePlan(scope, source.provider, plan);
    const settled = await reconcile(scope, source, changed, scope.today);
    const debtorIds = [...new Set([...written.debtorIds, ...settled.touched])];
    await replanDueSchedules(scope, debtorIds);
    // New debtors, and those who owe again because the books took a payment back, join autopilot while it is on.
    const joining = [...new Set([...written.debtorIds, ...settled.reopened])];
    if (joining.length > 0) await joinAutopilot(scope, joining, { max: scope.maxSchedules });
    await finish(db, ownerId, scope.now, {
      cursor: cursor ?? since ?? null,
      payments: settled.payments,
      problems: settled.problems,
    });
    return {
      ok: true as const,
      label: source.label,
      invoices: written.added,
      payments: settled.payments,
      closed: settled.closed,
      changed: settled.changed,
      complete,
    };
  } catch (error) {
    await failed(db, ownerId, error);
    if (error instanceof BooksError) return { ok: false as const, message: error.message };
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
    error instanceof BooksError
      ? error.message
      : "The sync stopped on an error in Dunly: it is tried again at the next sync.";
  await db
    .update(accountingConnections)
    .set({ syncLeaseUntil: null, lastError: message, lastErrorAt: Date.now(), updatedAt: Date.now() })
    .where(eq(accountingConnections.ownerId, ownerId));
}

/** The counts the tab shows: the owner's debtors and invoices synced from the provider (open ones apart). */
export async function syncedCounts(db: Db, ownerId: string, provider: BooksProvider) {
  const [d, i] = await db.batch([
    db
      .select({ n: sql<number>`count(*)` })
      .from(debtors)
      .where(and(eq(debtors.ownerId, ownerId), eq(debtors.sourceProvider, provider))),
    db
      .select({
        n: sql<number>`count(*)`,
        open: sql<number>`coalesce(sum(${invoices.status} IN ('open', 'disputed')), 0)`,
      })
      .from(invoices)
      .where(and(eq(invoices.ownerId, ownerId), eq(invoices.sourceProvider, provider))),
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
