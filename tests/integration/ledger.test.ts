import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { addInvoice, editInvoice, voidInvoice } from "~/ledger/invoices.server";
import { addPayment, deletePayment, editPayment } from "~/ledger/payments.server";
import { apiJson } from "./data-helpers";
import { db, debtorRow, makeDebtor, makeInvoice, makeSchedule, makeUser, scheduleRow } from "./fixtures";
import { signIn, uniqueEmail } from "./helpers";

/**
 * The ledger: payments allocated to invoices, oldest due date first or
 * to the chosen one; deleting or lowering a payment reopens exactly what it paid; the invoices'
 * CHECK keeps every path (and concurrent writes) from paying beyond an amount or lowering an
 * amount below what was paid.
 */

const NOW = Date.UTC(2026, 10, 25, 12);
const TODAY = "2026-11-25";
const pay = (amount: number, extra: { invoice_id?: number } = {}) => ({ amount, paid_on: TODAY, note: "", ...extra });

async function invoicesOf(debtorId: number) {
  return (
    await env.DB.prepare(
      "SELECT id, number, amount_cents, paid_cents, status FROM invoices WHERE debtor_id = ? ORDER BY due_on, id",
    )
      .bind(debtorId)
      .all<{ id: number; number: string | null; amount_cents: number; paid_cents: number; status: string }>()
  ).results;
}

async function allocationsOf(paymentId: number) {
  return (
    await env.DB.prepare(
      "SELECT invoice_id, amount_cents FROM payment_allocations WHERE payment_id = ? ORDER BY invoice_id",
    )
      .bind(paymentId)
      .all()
  ).results;
}

/** A debtor owing three invoices of $100, $200 and $300, due in that order (the first seeded out of order). */
async function threeInvoices() {
  const user = await makeUser();
  const debtor = await makeDebtor(user.id, { debtCents: 30_000 });
  // makeDebtor's own invoice ($300) is due last; two older ones are added before it.
  await env.DB.prepare("UPDATE invoices SET due_on = '2026-03-01', number = 'C' WHERE id = ?")
    .bind(debtor.invoiceId)
    .run();
  await makeInvoice(user.id, debtor.id, { number: "B", amountCents: 20_000, dueOn: "2026-02-01" });
  await makeInvoice(user.id, debtor.id, { number: "A", amountCents: 10_000, dueOn: "2026-01-01" });
  await env.DB.prepare("UPDATE debtors SET debt_cents = 60000 WHERE id = ?").bind(debtor.id).run();
  return { user, debtor };
}

describe("payments apply to invoices", () => {
  it("a payment across three invoices pays the oldest due first", async () => {
    const { user, debtor } = await threeInvoices();
    const written = await addPayment({ env, db: db() }, user.id, debtor.id, pay(350), NOW);
    if ("error" in written) throw new Error(written.error);
    expect(await invoicesOf(debtor.id)).toMatchObject([
      { number: "A", paid_cents: 10_000, status: "paid" },
      { number: "B", paid_cents: 20_000, status: "paid" },
      { number: "C", paid_cents: 5_000, status: "open" },
    ]);
    expect(written.debtor).toMatchObject({ debtCents: 60_000, paidCents: 35_000, status: "active" });
  });

  it("a payment to a chosen invoice pays only that one, and no more than is left on it", async () => {
    const { user, debtor } = await threeInvoices();
    const [, , c] = await invoicesOf(debtor.id);
    const written = await addPayment({ env, db: db() }, user.id, debtor.id, pay(120, { invoice_id: c!.id }), NOW);
    if ("error" in written) throw new Error(written.error);
    expect(await allocationsOf(written.payment.id)).toEqual([{ invoice_id: c!.id, amount_cents: 12_000 }]);
    expect((await invoicesOf(debtor.id)).map((i) => i.paid_cents)).toEqual([0, 0, 12_000]);
    expect(await addPayment({ env, db: db() }, user.id, debtor.id, pay(181, { invoice_id: c!.id }), NOW)).toEqual({
      error: "over-owed",
      maxCents: 18_000,
      currency: "USD",
    });
    // Another debtor's invoice is no choice.
    const other = await makeDebtor(user.id);
    expect(await addPayment({ env, db: db() }, user.id, other.id, pay(1, { invoice_id: c!.id }), NOW)).toEqual({
      error: "invoice-not-found",
    });
  });

  it("deleting a payment reopens exactly what it paid; lowering one reopens the newest part", async () => {
    const { user, debtor } = await threeInvoices();
    const first = await addPayment({ env, db: db() }, user.id, debtor.id, pay(150), NOW);
    const second = await addPayment({ env, db: db() }, user.id, debtor.id, pay(250), NOW + 1);
    if ("error" in first || "error" in second) throw new Error("refused");
    expect((await invoicesOf(debtor.id)).map((i) => i.paid_cents)).toEqual([10_000, 20_000, 10_000]);
    await deletePayment({ env, db: db() }, user.id, first.payment.id, NOW + 2);
    // The first paid A (100) and half of B (50): exactly those are owed again.
    expect(await invoicesOf(debtor.id)).toMatchObject([
      { paid_cents: 0, status: "open" },
      { paid_cents: 15_000, status: "open" },
      { paid_cents: 10_000, status: "open" },
    ]);
    const lowered = await editPayment({ env, db: db() }, user.id, second.payment.id, pay(120), NOW + 3);
    if ("error" in lowered) throw new Error(lowered.error);
    expect((await invoicesOf(debtor.id)).map((i) => i.paid_cents)).toEqual([10_000, 2_000, 0]);
    expect((await debtorRow(debtor.id))!.paid_cents).toBe(12_000);
  });

  it("paid in full, the debtor is 'paid' and every live schedule completes; a payment deleted, they owe again", async () => {
    const { user, debtor } = await threeInvoices();
    const scheduleId = await makeSchedule(user.id, debtor.id);
    const written = await addPayment({ env, db: db() }, user.id, debtor.id, pay(600), NOW);
    if ("error" in written) throw new Error(written.error);
    expect(written.completedScheduleIds).toEqual([scheduleId]);
    expect((await invoicesOf(debtor.id)).map((i) => i.status)).toEqual(["paid", "paid", "paid"]);
    expect(await debtorRow(debtor.id)).toMatchObject({ status: "paid", paid_cents: 60_000 });
    expect(await scheduleRow(scheduleId)).toMatchObject({ state: "COMPLETED", stopped_reason: "paid" });
    await deletePayment({ env, db: db() }, user.id, written.payment.id, NOW + 1);
    expect(await debtorRow(debtor.id)).toMatchObject({ status: "active", paid_cents: 0 });
    // Nothing restarts by itself.
    expect(await scheduleRow(scheduleId)).toMatchObject({ state: "COMPLETED" });
  });

  it("concurrent payments cannot overpay an invoice", async () => {
    const user = await makeUser();
    const debtor = await makeDebtor(user.id, { debtCents: 10_000 });
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) => addPayment({ env, db: db() }, user.id, debtor.id, pay(30), NOW + i)),
    );
    const accepted = results.filter((r) => !("error" in r));
    expect(accepted).toHaveLength(3);
    for (const refused of results.filter((r) => "error" in r)) expect(refused).toMatchObject({ error: "over-owed" });
    expect(await invoicesOf(debtor.id)).toMatchObject([{ amount_cents: 10_000, paid_cents: 9_000, status: "open" }]);
    expect((await debtorRow(debtor.id))!.paid_cents).toBe(9_000);
  });
});

describe("the ledger holds on every path", () => {
  it("an invoice's amount cannot go below what was paid on it (model)", async () => {
    const user = await makeUser();
    const debtor = await makeDebtor(user.id, { debtCents: 10_000, paidCents: 9_500 });
    const input = { amount: 10, issued_on: undefined, due_on: undefined, currency: undefined, number: undefined };
    await expect(editInvoice({ env, db: db() }, user.id, debtor.invoiceId, input, NOW)).rejects.toMatchObject({
      fieldErrors: { amount: ["Please enter at least $95.00: that much has been paid on it."] },
    });
    expect(await invoicesOf(debtor.id)).toMatchObject([{ amount_cents: 10_000, paid_cents: 9_500 }]);
    // Void is refused while payments are on it.
    await expect(voidInvoice({ env, db: db() }, user.id, debtor.invoiceId, NOW)).rejects.toMatchObject({
      fieldErrors: { id: [expect.stringContaining("delete them before voiding")] },
    });
  });

  it("PUT /api/debtors/edit with a debt of 10 on a debtor who paid 95 is refused with a field error", async () => {
    const { cookie, userId } = await signIn(uniqueEmail("ledger-api"));
    const debtor = await makeDebtor(userId, { debtCents: 10_000, paidCents: 9_500, email: "payer@example.com" });
    const res = await apiJson("PUT", "/debtors/edit", {
      cookie,
      json: { id: debtor.id, full_name: "Dan Debtor", email: "payer@example.com", debt: 10 },
    });
    expect(res.status).toBe(400);
    expect(res.body.errors ?? res.body).toMatchObject(
      expect.objectContaining({ debt: ["Please enter at least $95.00: that much has been paid on it."] }),
    );
    expect(await debtorRow(debtor.id)).toMatchObject({ debt_cents: 10_000, paid_cents: 9_500 });
  });

  it("a debtor with several invoices keeps them: the debtor form cannot change their debt", async () => {
    const { user, debtor } = await threeInvoices();
    const res = await apiJson("PUT", "/debtors/edit", {
      cookie: (await signIn(uniqueEmail("several"))).cookie,
      json: { id: debtor.id, full_name: "x", email: "x@example.com", debt: 1 },
    });
    expect(res.status).toBe(404);
    const { updateDebtor } = await import("~/debtors/debtors.server");
    const input = {
      kind: "person" as const,
      full_name: "Renamed",
      email: "r@example.com",
      active_strategy: 1 as const,
    };
    await expect(updateDebtor({ env, db: db() }, user.id, debtor.id, { ...input, debt: 1 }, NOW)).rejects.toMatchObject(
      {
        fieldErrors: { debt: [expect.stringContaining("several invoices")] },
      },
    );
    // The same debt as now: the rest of the edit goes through, the invoices stay.
    const updated = await updateDebtor({ env, db: db() }, user.id, debtor.id, { ...input, debt: 600 }, NOW);
    expect(updated?.debtor).toMatchObject({
      fullName: "Renamed",
      debtCents: 60_000,
      openInvoices: 3,
      singleInvoice: false,
    });
    expect((await invoicesOf(debtor.id)).map((i) => i.amount_cents)).toEqual([10_000, 20_000, 30_000]);
  });

  it("invoice numbers are unique within an account, not across accounts", async () => {
    const user = await makeUser();
    const debtor = await makeDebtor(user.id);
    const ctx = { now: NOW, today: TODAY };
    await addInvoice({ env, db: db() }, user.id, debtor.id, { amount: 5, number: "INV-9" }, ctx);
    await expect(
      addInvoice({ env, db: db() }, user.id, debtor.id, { amount: 6, number: "INV-9" }, ctx),
    ).rejects.toMatchObject({
      fieldErrors: { number: ["Another invoice of yours already has this number"] },
    });
    const other = await makeUser();
    const theirs = await makeDebtor(other.id);
    expect(await addInvoice({ env, db: db() }, other.id, theirs.id, { amount: 5, number: "INV-9" }, ctx)).toBeDefined();
    // Another user's debtor: nothing.
    expect(await addInvoice({ env, db: db() }, user.id, theirs.id, { amount: 5 }, ctx)).toBeUndefined();
  });

  it("voiding the last open invoice settles the debtor as paid and completes their schedules", async () => {
    const user = await makeUser();
    const debtor = await makeDebtor(user.id, { debtCents: 5_000 });
    const scheduleId = await makeSchedule(user.id, debtor.id);
    const written = await voidInvoice({ env, db: db() }, user.id, debtor.invoiceId, NOW);
    expect(written?.completedScheduleIds).toEqual([scheduleId]);
    expect(await debtorRow(debtor.id)).toMatchObject({ status: "paid", debt_cents: 0, paid_cents: 0 });
  });
});
