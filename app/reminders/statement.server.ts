import { and, eq, type SQLWrapper, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { onActivePlanSql } from "~/db/owed";
import { debtors } from "~/db/schema";
import { type CurrencyTotal, MAX_STATEMENT_LINES, type Statement, type StatementLine } from "~/domain/statement";

/**
 * A debtor's statement: their open invoices, read with the debtor in the
 * same statement (two correlated subqueries, each a search of invoices_debtor_idx on (debtor_id,
 * 'open') in due_on order), so the engine's firing, the test send and the preview read it in the
 * query that reads the debtor. Only status 'open' is on it: a disputed, paid or void invoice never
 * is. An 'open' invoice with nothing left to pay is left out too.
 */

/** An open invoice of the debtor `debtorId` (a column or subquery of the outer select) with something left to pay. */
const owedOf = (debtorId: SQLWrapper) =>
  sql`i.debtor_id = ${debtorId} AND i.status = 'open' AND i.amount_cents > i.paid_cents`;
/** An invoice on an active payment plan (decisions/066): its instalments are chased instead. */
const onPlan = onActivePlanSql(sql.raw("i.id"));
/** ... and chased: what reminders list and cadences follow. */
const openOf = (debtorId: SQLWrapper) =>
  sql`${owedOf(debtorId)} AND i.chase_paused_at IS NULL AND i.claimed_at IS NULL AND NOT ${onPlan}`;
/** ... and one the user said not to chase, or on a payment plan: the statement names it apart. */
const pausedOf = (debtorId: SQLWrapper) => sql`${owedOf(debtorId)} AND (i.chase_paused_at IS NOT NULL OR ${onPlan})`;
/** ... and one the debtor said they paid, not yet checked (and chased otherwise): named apart too. */
const claimedOf = (debtorId: SQLWrapper) =>
  sql`${owedOf(debtorId)} AND i.claimed_at IS NOT NULL AND i.chase_paused_at IS NULL AND NOT ${onPlan}`;

/** The first MAX_STATEMENT_LINES invoices matching `where`, oldest due first (ties: by id), as a JSON array of lines. */
function linesOf(where: SQLWrapper) {
  const limit = sql.raw(String(MAX_STATEMENT_LINES));
  return sql<string | null>`(
    SELECT json_group_array(json_object('number', l.number, 'dueOn', l.due_on, 'balanceCents', l.balance, 'currency', l.currency))
    FROM (
      SELECT i.number AS number, i.due_on AS due_on, i.amount_cents - i.paid_cents AS balance, i.currency AS currency
      FROM invoices AS i WHERE ${where} ORDER BY i.due_on, i.id LIMIT ${limit}
    ) AS l)`;
}

/**
 * Columns to add to a select that reads a debtor: `statementLines`, the first MAX_STATEMENT_LINES
 * open invoices oldest due first (ties: by id) as a JSON array, `statementTotals`, the totals
 * per currency over all of them (the currency of the earliest due first, then by code, as
 * app/domain/statement.ts statementTotals orders them), and `statementHeld`, the open invoices the
 * user said not to chase. parseStatement reads them back.
 */
export function statementColumns(debtorId: SQLWrapper = debtors.id) {
  const totals = sql<string | null>`(
    SELECT json_group_array(json_object('currency', t.currency, 'cents', t.cents, 'count', t.n))
    FROM (
      SELECT i.currency AS currency, sum(i.amount_cents - i.paid_cents) AS cents, count(*) AS n
      FROM invoices AS i WHERE ${openOf(debtorId)} GROUP BY i.currency ORDER BY min(i.due_on), i.currency
    ) AS t)`;
  return {
    statementLines: linesOf(openOf(debtorId)),
    statementTotals: totals,
    statementHeld: linesOf(pausedOf(debtorId)),
    statementClaimed: linesOf(claimedOf(debtorId)),
  };
}

function parseArray(json: string | null | undefined): unknown[] {
  if (!json) return [];
  const value: unknown = JSON.parse(json);
  return Array.isArray(value) ? value : [];
}

/** The statement of a row read with statementColumns. */
export function parseStatement(row: {
  statementLines: string | null;
  statementTotals: string | null;
  statementHeld?: string | null;
  statementClaimed?: string | null;
}): Statement {
  const linesIn = (json: string | null | undefined) =>
    (parseArray(json) as StatementLine[]).map((l) => ({
      number: l.number ?? null,
      dueOn: l.dueOn,
      balanceCents: l.balanceCents,
      currency: l.currency,
    }));
  const totals = parseArray(row.statementTotals) as CurrencyTotal[];
  const held = linesIn(row.statementHeld);
  const claimed = linesIn(row.statementClaimed);
  return {
    ...(held.length > 0 ? { held } : {}),
    ...(claimed.length > 0 ? { claimed } : {}),
    lines: linesIn(row.statementLines),
    totals: totals.map((t) => ({ currency: t.currency, cents: t.cents, count: t.count })),
  };
}

/** The owner's debtor's statement, read alone (another user's debtor: an empty one). */
export function statementQuery(db: Db, ownerId: string, debtorId: number) {
  return db
    .select(statementColumns())
    .from(debtors)
    .where(and(eq(debtors.ownerId, ownerId), eq(debtors.id, debtorId)))
    .limit(1);
}

/** The owner's debtor's statement; empty for a debtor that is not the owner's. */
export async function getStatement(db: Db, ownerId: string, debtorId: number): Promise<Statement> {
  const [row] = await statementQuery(db, ownerId, debtorId);
  return row ? parseStatement(row) : { lines: [], totals: [] };
}

/**
 * The open invoices (the statement's) of the debtor `debtorId` as a JSON array of `{ n, d, j }`:
 * number, due date and when each joined (created_at). What a due-date schedule follows
 * (app/domain/cadence-plan.ts). Through invoices_debtor_idx, like the statement.
 */
export function openInvoicesSql(debtorId: SQLWrapper = debtors.id) {
  return sql<
    string | null
  >`(SELECT json_group_array(json_object('n', i.number, 'd', i.due_on, 'j', i.created_at)) FROM invoices AS i WHERE ${openOf(debtorId)})`;
}
