import { applyD1Migrations } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";

/**
 * Migration 0010: every debtor becomes one invoice with its amount,
 * currency, number and payments. Run on a copy seeded at 0009 (the database before invoices),
 * then checked: no debtor's amount, paid sum or status changed, every payment is still there and
 * allocated to its debtor's invoice, and the invoices agree with the debtors.
 */

const all = env.TEST_MIGRATIONS ?? [];
const before = all.filter((m) => m.name < "0010");
const invoicesMigration = all.filter((m) => m.name.startsWith("0010"));

interface DebtorSeed {
  id: number;
  owner: string;
  debt: number;
  paid: number[];
  currency: string;
  number: string | null;
  status: string;
  dueDate?: string;
}

const SEEDS: DebtorSeed[] = [
  { id: 1, owner: "u1", debt: 50_000, paid: [], currency: "USD", number: "INV-1", status: "active" },
  {
    id: 2,
    owner: "u1",
    debt: 12_345,
    paid: [2_345, 5_000],
    currency: "EUR",
    number: null,
    status: "active",
    dueDate: "2026-10-01",
  },
  { id: 3, owner: "u1", debt: 9_000, paid: [4_000, 5_000], currency: "GBP", number: "INV-3", status: "paid" },
  { id: 4, owner: "u1", debt: 7_000, paid: [1_000], currency: "USD", number: "INV-1", status: "opted_out" },
  { id: 5, owner: "u2", debt: 1_000, paid: [], currency: "USD", number: "INV-1", status: "bouncing" },
  { id: 6, owner: "u2", debt: 20_000, paid: [20_000], currency: "JPY", number: "  ", status: "paid" },
];

async function seed(db: D1Database) {
  const statements: D1PreparedStatement[] = [];
  for (const owner of ["u1", "u2"]) {
    statements.push(db.prepare("INSERT INTO users (id, email) VALUES (?, ?)").bind(owner, `${owner}@example.com`));
  }
  for (const d of SEEDS) {
    const paid = d.paid.reduce((a, b) => a + b, 0);
    statements.push(
      db
        .prepare(
          "INSERT INTO debtors (id, owner_id, full_name, email, debt_cents, paid_cents, currency, status, invoice_number, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        )
        .bind(
          d.id,
          d.owner,
          `Debtor ${d.id}`,
          `d${d.id}@example.com`,
          d.debt,
          paid,
          d.currency,
          d.status,
          d.number,
          Date.UTC(2026, 4, d.id),
          Date.UTC(2026, 5, d.id),
        ),
    );
    d.paid.forEach((amount, i) => {
      statements.push(
        db
          .prepare("INSERT INTO payments (owner_id, debtor_id, amount_cents, paid_on, note) VALUES (?, ?, ?, ?, ?)")
          .bind(d.owner, d.id, amount, `2026-06-0${i + 1}`, `payment ${i + 1}`),
      );
    });
    if (d.dueDate) {
      statements.push(
        db
          .prepare(
            "INSERT INTO schedules (id, owner_id, debtor_id, preset, frequency, time_zone, due_date) VALUES (?, ?, ?, 'FRIENDLY_REMINDER', 'weekly', 'UTC', ?)",
          )
          .bind(`${d.owner}-s${d.id}`, d.owner, d.id, d.dueDate),
      );
    }
  }
  await db.batch(statements);
}

describe("migration 0010: every debtor becomes one invoice", () => {
  it("keeps every amount, payment and status, and the ledger agrees afterwards", async () => {
    const db = env.MIGRATION_DB!;
    expect(before.length).toBeGreaterThan(5);
    expect(invoicesMigration).toHaveLength(1);
    await applyD1Migrations(db, before);
    await seed(db);
    const debtorsBefore = (
      await db.prepare("SELECT id, debt_cents, paid_cents, currency, status FROM debtors ORDER BY id").all()
    ).results;
    const paymentsBefore = (
      await db.prepare("SELECT id, debtor_id, amount_cents, paid_on, note FROM payments ORDER BY id").all()
    ).results;

    await applyD1Migrations(db, invoicesMigration);

    expect(
      (await db.prepare("SELECT id, debt_cents, paid_cents, currency, status FROM debtors ORDER BY id").all()).results,
    ).toEqual(debtorsBefore);
    expect(
      (await db.prepare("SELECT id, debtor_id, amount_cents, paid_on, note FROM payments ORDER BY id").all()).results,
    ).toEqual(paymentsBefore);

    const invoices = (
      await db
        .prepare(
          "SELECT debtor_id, owner_id, number, amount_cents, currency, status, paid_cents, issued_on, due_on FROM invoices ORDER BY debtor_id",
        )
        .all<Record<string, unknown>>()
    ).results;
    expect(invoices).toEqual([
      {
        debtor_id: 1,
        owner_id: "u1",
        number: "INV-1",
        amount_cents: 50_000,
        currency: "USD",
        status: "open",
        paid_cents: 0,
        issued_on: "2026-05-01",
        due_on: "2026-05-01",
      },
      {
        debtor_id: 2,
        owner_id: "u1",
        number: null,
        amount_cents: 12_345,
        currency: "EUR",
        status: "open",
        paid_cents: 7_345,
        issued_on: "2026-05-02",
        due_on: "2026-10-01",
      },
      {
        debtor_id: 3,
        owner_id: "u1",
        number: "INV-3",
        amount_cents: 9_000,
        currency: "GBP",
        status: "paid",
        paid_cents: 9_000,
        issued_on: "2026-05-03",
        due_on: "2026-05-03",
      },
      // The account's second "INV-1" is told apart (numbers are unique within an account).
      {
        debtor_id: 4,
        owner_id: "u1",
        number: "INV-1 #4",
        amount_cents: 7_000,
        currency: "USD",
        status: "open",
        paid_cents: 1_000,
        issued_on: "2026-05-04",
        due_on: "2026-05-04",
      },
      // Another account may use the same number.
      {
        debtor_id: 5,
        owner_id: "u2",
        number: "INV-1",
        amount_cents: 1_000,
        currency: "USD",
        status: "open",
        paid_cents: 0,
        issued_on: "2026-05-05",
        due_on: "2026-05-05",
      },
      {
        debtor_id: 6,
        owner_id: "u2",
        number: null,
        amount_cents: 20_000,
        currency: "JPY",
        status: "paid",
        paid_cents: 20_000,
        issued_on: "2026-05-06",
        due_on: "2026-05-06",
      },
    ]);

    // Every payment is allocated, whole, to its debtor's invoice, in the debtor's currency.
    const allocations = (
      await db
        .prepare(
          "SELECT p.id, p.amount_cents, p.currency, a.amount_cents AS allocated, i.debtor_id = p.debtor_id AS same_debtor FROM payments p LEFT JOIN payment_allocations a ON a.payment_id = p.id LEFT JOIN invoices i ON i.id = a.invoice_id ORDER BY p.id",
        )
        .all<{ amount_cents: number; allocated: number; same_debtor: number; currency: string }>()
    ).results;
    expect(allocations).toHaveLength(paymentsBefore.length);
    for (const a of allocations) {
      expect(a.allocated).toBe(a.amount_cents);
      expect(a.same_debtor).toBe(1);
    }
    expect(allocations.map((a) => a.currency)).toEqual(["EUR", "EUR", "GBP", "GBP", "USD", "JPY"]);

    // The debtors' sums are the invoices' sums (the ledger the app keeps from now on).
    const mismatched = await db
      .prepare(
        "SELECT d.id FROM debtors d JOIN invoices i ON i.debtor_id = d.id WHERE d.debt_cents != i.amount_cents OR d.paid_cents != i.paid_cents",
      )
      .all();
    expect(mismatched.results).toEqual([]);
    // The old column is gone.
    const columns = (await db.prepare("SELECT name FROM pragma_table_info('debtors')").all<{ name: string }>()).results;
    expect(columns.map((c) => c.name)).not.toContain("invoice_number");
  });
});
