import { applyD1Migrations } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { deleteDebtor, updateDebtor } from "~/debtors/debtors.server";
import { agingBounds } from "~/domain/aging";
import { FieldsRefused } from "~/domain/refused";
import { addInvoice, editInvoice, voidInvoice } from "~/ledger/invoices.server";
import { loadMoney } from "~/ledger/money.server";
import { addPayment, deletePayment, editPayment } from "~/ledger/payments.server";
import { disputeInvoice, resolveDispute } from "~/responses/disputes.server";
import { db, deleteAccountNow, makeDebtor, makeUser } from "./fixtures";
import { addDays } from "./invoice-helpers";

/**
 * `invoice_owed_days` (docs/decisions/028) is kept by triggers on `invoices`: after every kind of
 * write the app makes to invoices (added, edited, voided, paid, payments edited and deleted,
 * disputed and resolved, a single-invoice debtor's debt and currency edited, a debtor deleted, an
 * account deleted) it must equal the sums recomputed from the invoices themselves, and the aging
 * figures read from it must equal the old statement's over the invoices.
 */

/** The summary recomputed from the invoices: what the triggers must keep. */
const RECOMPUTED = `SELECT owner_id, due_on, currency, count(*) AS invoices, sum(amount_cents - paid_cents) AS balance_cents
  FROM invoices WHERE status IN ('open', 'disputed') GROUP BY owner_id, due_on, currency ORDER BY owner_id, due_on, currency`;
const KEPT = `SELECT owner_id, due_on, currency, invoices, balance_cents
  FROM invoice_owed_days ORDER BY owner_id, due_on, currency`;

/** The aging statement as it was before the summary (over the invoices), in agingRowsOf's shape. */
async function agingFromInvoices(ownerId: string, today: string) {
  const b = agingBounds(today);
  const { results } = await env.DB.prepare(
    `SELECT currency, count(*) AS invoices,
      coalesce(sum(CASE WHEN due_on >= ?2 THEN amount_cents - paid_cents ELSE 0 END), 0) AS notYetDue,
      coalesce(sum(CASE WHEN due_on >= ?3 AND due_on < ?2 THEN amount_cents - paid_cents ELSE 0 END), 0) AS days1to30,
      coalesce(sum(CASE WHEN due_on >= ?4 AND due_on < ?3 THEN amount_cents - paid_cents ELSE 0 END), 0) AS days31to60,
      coalesce(sum(CASE WHEN due_on >= ?5 AND due_on < ?4 THEN amount_cents - paid_cents ELSE 0 END), 0) AS days61to90,
      coalesce(sum(CASE WHEN due_on < ?5 THEN amount_cents - paid_cents ELSE 0 END), 0) AS over90
    FROM invoices WHERE owner_id = ?1 AND status IN ('open', 'disputed') GROUP BY currency ORDER BY currency`,
  )
    .bind(ownerId, b.today, b.overdue30, b.overdue60, b.overdue90)
    .all<Record<string, number | string>>();
  return results;
}

async function expectKept(what: string) {
  const [kept, recomputed] = await Promise.all([env.DB.prepare(KEPT).all(), env.DB.prepare(RECOMPUTED).all()]);
  expect(kept.results, what).toEqual(recomputed.results);
}

/** A small deterministic generator (mulberry32), so a failure replays. */
function random(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const TODAY = "2026-11-26";
const NOW = Date.parse(`${TODAY}T12:00:00Z`);
const CURRENCIES = ["USD", "EUR", "GBP"] as const;

describe("invoice_owed_days, kept by triggers", () => {
  it("equals the sums over the invoices after every kind of write, in a random mix", async () => {
    const r = random(26);
    const pick = <T>(items: readonly T[]) => items[Math.floor(r() * items.length)]!;
    const owners = [await makeUser("Kept Sums"), await makeUser("Other Sums")];
    const debtorsOf = new Map<string, number[]>();
    for (const owner of owners) {
      const ids: number[] = [];
      for (let i = 0; i < 4; i++) {
        // Each starts with one invoice (makeDebtor's), as a debtor created in the app does.
        const debtor = await makeDebtor(owner.id, { fullName: `Debtor ${i}`, debtCents: 10_000 + i * 5_000 });
        ids.push(debtor.id);
      }
      debtorsOf.set(owner.id, ids);
    }
    await expectKept("seeded");
    const invoicesOf = async (ownerId: string) =>
      (
        await env.DB.prepare(
          "SELECT id, debtor_id, status, due_on, number, paid_cents FROM invoices WHERE owner_id = ?",
        )
          .bind(ownerId)
          .all<{
            id: number;
            debtor_id: number;
            status: string;
            due_on: string;
            number: string | null;
            paid_cents: number;
          }>()
      ).results;
    const paymentsOf = async (ownerId: string) =>
      (await env.DB.prepare("SELECT id FROM payments WHERE owner_id = ?").bind(ownerId).all<{ id: number }>()).results;
    const amount = () => Math.round(r() * 40_000) / 100 + 1;
    const dueOn = () => addDays(TODAY, Math.floor(r() * 200) - 150);
    const seen = new Set<string>();

    for (let step = 0; step < 200; step++) {
      const owner = pick(owners);
      const ids = debtorsOf.get(owner.id)!;
      if (ids.length === 0) continue;
      const debtorId = pick(ids);
      const invoices = await invoicesOf(owner.id);
      const invoice = invoices.length > 0 ? pick(invoices) : null;
      const payments = await paymentsOf(owner.id);
      const kind = pick([
        "add-invoice",
        "add-invoice",
        "edit-invoice",
        "void-invoice",
        "add-payment",
        "add-payment",
        "edit-payment",
        "delete-payment",
        "dispute",
        "resolve",
        "edit-debtor",
        "delete-debtor",
      ] as const);
      try {
        switch (kind) {
          case "add-invoice":
            await addInvoice(
              { env, db: db() },
              owner.id,
              debtorId,
              { amount: amount(), currency: pick(CURRENCIES), due_on: dueOn(), issued_on: addDays(TODAY, -200) },
              { now: NOW, today: TODAY },
            );
            break;
          case "edit-invoice":
            if (!invoice) continue;
            await editInvoice(
              { env, db: db() },
              owner.id,
              invoice.id,
              {
                amount: amount() + invoice.paid_cents / 100,
                currency: invoice.paid_cents > 0 ? undefined : pick(CURRENCIES),
                due_on: dueOn(),
                issued_on: addDays(TODAY, -200),
              },
              NOW,
            );
            break;
          case "void-invoice":
            if (!invoice) continue;
            await voidInvoice({ env, db: db() }, owner.id, invoice.id, NOW);
            break;
          case "add-payment": {
            const open = invoices.filter((i) => i.status === "open" || i.status === "disputed");
            const target = open.length > 0 && r() < 0.7 ? pick(open) : null;
            await addPayment(
              { env, db: db() },
              target ? owner.id : owner.id,
              target ? target.debtor_id : debtorId,
              {
                amount: Math.round(r() * 20_000) / 100 + 1,
                paid_on: addDays(TODAY, -Math.floor(r() * 60)),
                invoice_id: target?.id,
              },
              NOW,
            );
            break;
          }
          case "edit-payment":
            if (payments.length === 0) continue;
            await editPayment(
              { env, db: db() },
              owner.id,
              pick(payments).id,
              { amount: Math.round(r() * 20_000) / 100 + 1, paid_on: addDays(TODAY, -Math.floor(r() * 60)) },
              NOW,
            );
            break;
          case "delete-payment":
            if (payments.length === 0) continue;
            await deletePayment({ env, db: db() }, owner.id, pick(payments).id, NOW);
            break;
          case "dispute": {
            const open = invoices.filter((i) => i.status === "open");
            if (open.length === 0) continue;
            const target = pick(open);
            await disputeInvoice(
              { env, db: db() },
              owner.id,
              target.debtor_id,
              { id: target.id, number: target.number, dueOn: target.due_on },
              "Not ours",
              NOW,
            );
            break;
          }
          case "resolve": {
            const disputed = invoices.filter((i) => i.status === "disputed");
            if (disputed.length === 0) continue;
            await resolveDispute({ env, db: db(), ownerId: owner.id, now: NOW }, pick(disputed).id);
            break;
          }
          case "edit-debtor":
            // A debtor with one invoice: the debtor form edits that invoice's amount and currency.
            await updateDebtor(
              { env, db: db() },
              owner.id,
              debtorId,
              {
                kind: "person",
                full_name: "Edited",
                email: `edited-${step}@example.com`,
                active_strategy: 1,
                debt: amount() + 500,
                currency: pick(CURRENCIES),
              },
              NOW,
            );
            break;
          case "delete-debtor": {
            // Two debtors stay, so every other kind keeps something to write to.
            if (ids.length <= 2) continue;
            await deleteDebtor({ env, db: db() }, owner.id, debtorId);
            ids.splice(ids.indexOf(debtorId), 1);
            break;
          }
        }
        // Only writes that went through count as seen.
        seen.add(kind);
      } catch (error) {
        // A write the app refuses (a field error, the ledger's CHECK) changes nothing; anything else is a failure.
        if (!(error instanceof FieldsRefused) && !/CHECK constraint/.test(String(error))) throw error;
      }
      await expectKept(`after step ${step} (${kind})`);
    }
    // Every kind of write ran at least once.
    expect([...seen].sort()).toEqual(
      [
        "add-invoice",
        "add-payment",
        "delete-debtor",
        "delete-payment",
        "dispute",
        "edit-debtor",
        "edit-invoice",
        "edit-payment",
        "resolve",
        "void-invoice",
      ].sort(),
    );
    // The figures the pages show, read from the summary, are the old statement's over the invoices.
    for (const owner of owners) {
      for (const today of [TODAY, addDays(TODAY, -45), addDays(TODAY, 120)]) {
        const money = await loadMoney(db(), owner.id, today);
        const old = await agingFromInvoices(owner.id, today);
        expect(
          money.aging.map(({ overdueCents: _o, outstandingCents: _s, ...sums }) => sums),
          `${owner.fullName} on ${today}`,
        ).toEqual(old.map((row) => ({ ...row, invoices: Number(row.invoices) })));
      }
    }

    // The account deleted: none of its rows is left, the other account's are untouched.
    const [gone, kept] = owners;
    await makeDebtor(kept!.id, { fullName: "Still owing", debtCents: 12_300 });
    await expectKept("a debtor added");
    expect(await deleteAccountNow(gone!.id)).toMatchObject({ kind: "done" });
    await expectKept("after the account's deletion");
    const left = await env.DB.prepare("SELECT count(*) AS n FROM invoice_owed_days WHERE owner_id = ?")
      .bind(gone!.id)
      .first<{ n: number }>();
    expect(left?.n).toBe(0);
    expect(
      (
        await env.DB.prepare("SELECT count(*) AS n FROM invoice_owed_days WHERE owner_id = ?")
          .bind(kept!.id)
          .first<{ n: number }>()
      )?.n,
    ).toBeGreaterThan(0);
  });
});

describe("migration 0024: the summary of the invoices already there", () => {
  it("is backfilled from a database at 0023 with invoices of every status and currency", async () => {
    const all = env.TEST_MIGRATIONS ?? [];
    const before = all.filter((m) => m.name < "0024");
    const summary = all.filter((m) => m.name.startsWith("0024"));
    expect(summary).toHaveLength(1);
    const migrationDb = env.MIGRATION_DB!;
    await applyD1Migrations(migrationDb, before);
    const users = ["u1", "u2"];
    const statements: D1PreparedStatement[] = [];
    for (const [i, user] of users.entries()) {
      statements.push(
        migrationDb
          .prepare("INSERT INTO users (id, email, full_name, created_at) VALUES (?, ?, ?, ?)")
          .bind(user, `${user}@example.com`, user, NOW),
        migrationDb
          .prepare(
            "INSERT INTO debtors (id, owner_id, full_name, email, debt_cents, currency, created_at, updated_at) VALUES (?, ?, 'D', 'd@example.com', 0, 'USD', ?, ?)",
          )
          .bind(i + 1, user, NOW, NOW),
      );
    }
    const statuses = ["open", "open", "disputed", "paid", "void"];
    for (let k = 0; k < 40; k++) {
      const status = statuses[k % statuses.length]!;
      const amount = 1_000 + k * 37;
      const paid = status === "paid" ? amount : status === "void" ? 0 : (k * 13) % amount;
      statements.push(
        migrationDb
          .prepare(
            "INSERT INTO invoices (owner_id, debtor_id, amount_cents, currency, issued_on, due_on, status, paid_cents) VALUES (?, ?, ?, ?, '2026-01-01', ?, ?, ?)",
          )
          .bind(
            users[k % 2],
            (k % 2) + 1,
            amount,
            CURRENCIES[k % 3],
            addDays("2026-03-01", (k % 7) * 10),
            status,
            paid,
          ),
      );
    }
    await migrationDb.batch(statements);
    const expected = (await migrationDb.prepare(RECOMPUTED).all()).results;
    expect(expected.length).toBeGreaterThan(10);

    await applyD1Migrations(migrationDb, summary);

    expect((await migrationDb.prepare(KEPT).all()).results).toEqual(expected);
    // And the triggers run from then on.
    await migrationDb.prepare("UPDATE invoices SET status = 'void', paid_cents = 0 WHERE owner_id = 'u1'").run();
    expect((await migrationDb.prepare(KEPT).all()).results).toEqual(
      (await migrationDb.prepare(RECOMPUTED).all()).results,
    );
  });
});
