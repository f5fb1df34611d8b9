import { and, eq, type SQLWrapper, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { onActivePlanSql } from "~/db/owed";
import { debtors } from "~/db/schema";
import { type CurrencyTotal, MAX_STATEMENT_LINES, type Statement, type StatementLine } from "~/domain/statement";
import { type ChargeKind, type ChargeLine, MAX_CHARGE_LINES, parseBasis } from "~/domain/statement-charges";

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

/** A charge still owed: not waived, something left to pay (charges' CHECK keeps paid ≤ amount). */
const chargeOwed = sql.raw(`c.waived_at IS NULL AND c.amount_cents > c.paid_cents`);
/** An invoice paid in full (or with nothing left to pay): its charges still owed are named apart. */
const paidInFull = sql.raw(`(i.status = 'paid' OR (i.status = 'open' AND i.amount_cents <= i.paid_cents))`);

/**
 * Columns to add to a select that reads a debtor, beside statementColumns, for the message only
 * (decisions/067): `statementCharges`, the late-payment charges still owed on the statement's listed
 * invoices (each with its invoice's place among them, `line`) and on the debtor's invoices paid in
 * full (`line` null), at most MAX_CHARGE_LINES, as a JSON array; `statementChargeTotals`, what they
 * owe per currency over every chased open invoice and every paid one. Waived charges are never on
 * it. Through charges_owner_debtor_idx (owner, debtor) and charges_invoice_kind_idx.
 */
export function statementChargeColumns(
  // Spelled out: in a one-table select drizzle writes a column at the top of an expression
  // unqualified, and inside these subqueries "id" and "owner_id" would be the charges' own.
  debtorId: SQLWrapper = sql`"debtors"."id"`,
  ownerId: SQLWrapper = sql`"debtors"."owner_id"`,
) {
  const limit = sql.raw(String(MAX_STATEMENT_LINES));
  const maxCharges = sql.raw(String(MAX_CHARGE_LINES));
  const kindOrder = sql.raw(`CASE c.kind WHEN 'interest' THEN 0 WHEN 'compensation' THEN 1 ELSE 2 END`);
  const lines = sql<string | null>`(
    SELECT json_group_array(json_object('line', x.line, 'invoiceNumber', x.number, 'invoiceDueOn', x.due_on,
      'kind', x.kind, 'currency', x.currency, 'amountCents', x.amount_cents, 'paidCents', x.paid_cents,
      'basis', x.basis, 'accruedThrough', x.accrued_through))
    FROM (
      SELECT * FROM (
        SELECT o.line AS line, o.number AS number, o.due_on AS due_on, o.id AS invoice_id, ${kindOrder} AS kind_order,
          c.kind AS kind, c.currency AS currency, c.amount_cents AS amount_cents, c.paid_cents AS paid_cents,
          c.basis AS basis, c.accrued_through AS accrued_through
        FROM (
          SELECT i.id AS id, i.number AS number, i.due_on AS due_on,
            row_number() OVER (ORDER BY i.due_on, i.id) - 1 AS line
          FROM invoices AS i WHERE ${openOf(debtorId)}
        ) AS o
        JOIN charges AS c ON c.invoice_id = o.id
        WHERE o.line < ${limit} AND ${chargeOwed}
        UNION ALL
        SELECT NULL, i.number, i.due_on, i.id, ${kindOrder}, c.kind, c.currency, c.amount_cents, c.paid_cents,
          c.basis, c.accrued_through
        FROM charges AS c JOIN invoices AS i ON i.id = c.invoice_id
        WHERE c.owner_id = ${ownerId} AND c.debtor_id = ${debtorId} AND ${chargeOwed} AND ${paidInFull}
      ) ORDER BY line IS NULL, line, due_on, invoice_id, kind_order LIMIT ${maxCharges}
    ) AS x)`;
  const totals = sql<string | null>`(
    SELECT json_group_array(json_object('currency', t.currency, 'cents', t.cents, 'count', t.n))
    FROM (
      SELECT c.currency AS currency, sum(c.amount_cents - c.paid_cents) AS cents, count(*) AS n
      FROM charges AS c JOIN invoices AS i ON i.id = c.invoice_id
      WHERE c.owner_id = ${ownerId} AND c.debtor_id = ${debtorId} AND ${chargeOwed}
        AND ((${openOf(debtorId)}) OR ${paidInFull})
      GROUP BY c.currency ORDER BY c.currency
    ) AS t)`;
  return { statementCharges: lines, statementChargeTotals: totals };
}

/** The charge lines and totals of a row read with statementChargeColumns; undefined when none is owed. */
export function parseStatementCharges(row: {
  statementCharges?: string | null;
  statementChargeTotals?: string | null;
}): Statement["charges"] {
  const totals = (parseArray(row.statementChargeTotals) as CurrencyTotal[])
    .map((t) => ({ currency: t.currency, cents: Number(t.cents) || 0, count: Number(t.count) || 0 }))
    .filter((t) => t.cents > 0);
  if (totals.length === 0) return undefined;
  const lines = (
    parseArray(row.statementCharges) as (Omit<ChargeLine, "basis" | "owedCents"> & { basis: string })[]
  ).map(
    (c): ChargeLine => ({
      line: c.line ?? null,
      invoiceNumber: c.invoiceNumber ?? null,
      invoiceDueOn: c.invoiceDueOn,
      kind: c.kind as ChargeKind,
      currency: c.currency,
      amountCents: c.amountCents,
      paidCents: c.paidCents,
      owedCents: c.amountCents - c.paidCents,
      basis: parseBasis(c.basis),
      accruedThrough: c.accruedThrough,
    }),
  );
  return { lines, totals };
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
  statementCharges?: string | null;
  statementChargeTotals?: string | null;
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
  const charges = parseStatementCharges(row);
  return {
    ...(held.length > 0 ? { held } : {}),
    ...(claimed.length > 0 ? { claimed } : {}),
    ...(charges ? { charges } : {}),
    lines: linesIn(row.statementLines),
    totals: totals.map((t) => ({ currency: t.currency, cents: t.cents, count: t.count })),
  };
}

/** The owner's debtor's statement, read alone (another user's debtor: an empty one). */
export function statementQuery(db: Db, ownerId: string, debtorId: number) {
  return db
    .select({ ...statementColumns(), ...statementChargeColumns() })
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
