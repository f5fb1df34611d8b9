import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { addPayment, deletePayment, editPayment } from "~/ledger/payments.server";
import { db, debtorRow, makeDebtor, makeInvoice, makeUser } from "./fixtures";
import {
  chargeAllocationsOf,
  chargesOf,
  invoiceRowsOf,
  makeCharge,
  makeCompany,
  seedRates,
  setTerms,
} from "./late-charges-helpers";
import { connectSetup, onlineRow, pay as payOnPortal, postStripeEvent, session, stripeEvent } from "./stripe-helpers";

/**
 * Payments pay late-payment charges (decisions/065): what a payment may pay includes the charges
 * owed in its currency; the invoices' principal is paid first, the rest goes to the charges (oldest
 * invoice due first, then interest, compensation, fee), or the charges first when the terms say so.
 * A waived charge is owed no more; changing or deleting a payment reopens what it paid on charges;
 * the charges' CHECK keeps concurrent payments from paying a charge twice.
 */

const NOW = Date.UTC(2026, 10, 25, 12);
const TODAY = "2026-11-25";
const pay = (amount: number, extra: { invoice_id?: number } = {}) => ({ amount, paid_on: TODAY, note: "", ...extra });
const scope = () => ({ env, db: db() });
const LATER = "2099-12-31";

/**
 * A debtor owing $1,000.00 due 1 Sep with $20.00 interest and $40.00 compensation on it, made as
 * they are (accrued through a later day than the writes here, so the writes' own accruals leave
 * their amounts alone: the accrual has its own tests in late-charges-accrual.test.ts).
 */
async function owingWithCharges() {
  const user = await makeUser();
  const debtor = await makeDebtor(user.id, { debtCents: 100_000 });
  await env.DB.prepare("UPDATE invoices SET due_on = '2026-09-01' WHERE id = ?").bind(debtor.invoiceId).run();
  const interest = await makeCharge(user.id, debtor.invoiceId, {
    kind: "interest",
    amountCents: 2_000,
    accruedThrough: LATER,
  });
  const compensation = await makeCharge(user.id, debtor.invoiceId, {
    kind: "compensation",
    amountCents: 4_000,
    accruedThrough: LATER,
  });
  return { user, debtor, interest, compensation };
}

describe("a payment settles principal, then charges", () => {
  it("pays the invoice first and the rest to interest, then compensation", async () => {
    const { user, debtor, interest, compensation } = await owingWithCharges();
    const written = await addPayment(scope(), user.id, debtor.id, pay(1_030), NOW);
    if ("error" in written) throw new Error(written.error);
    expect(await invoiceRowsOf(debtor.id)).toMatchObject([{ paid_cents: 100_000, status: "paid" }]);
    expect(await chargeAllocationsOf(written.payment.id)).toEqual([
      { charge_id: interest, amount_cents: 2_000 },
      { charge_id: compensation, amount_cents: 1_000 },
    ]);
    expect(await chargesOf(debtor.id)).toMatchObject([
      { kind: "compensation", paid_cents: 1_000 },
      { kind: "interest", paid_cents: 2_000 },
    ]);
    // The debtor's status follows the principal: paid, even with $30.00 of charges still owed.
    expect(await debtorRow(debtor.id)).toMatchObject({ status: "paid", paid_cents: 100_000 });
  });

  it("refuses more than principal and charges together, naming that maximum", async () => {
    const { user, debtor } = await owingWithCharges();
    expect(await addPayment(scope(), user.id, debtor.id, pay(1_060.01), NOW)).toEqual({
      error: "over-owed",
      maxCents: 106_000,
      currency: "USD",
    });
    const written = await addPayment(scope(), user.id, debtor.id, pay(1_060), NOW);
    expect("error" in written).toBe(false);
    expect((await chargesOf(debtor.id)).map((c) => c.paid_cents)).toEqual([4_000, 2_000]);
  });

  it("an older invoice's charges are paid before a newer one's, and a waived charge is owed no more", async () => {
    const { user, debtor, interest } = await owingWithCharges();
    const older = await makeInvoice(user.id, debtor.id, { amountCents: 5_000, dueOn: "2026-08-01" });
    const olderFee = await makeCharge(user.id, older, { kind: "fee", amountCents: 500, accruedThrough: LATER });
    await env.DB.prepare(
      "UPDATE charges SET waived_at = 1, waived_by = 'x@example.com', waived_cents = 4000 WHERE kind = 'compensation' AND debtor_id = ?",
    )
      .bind(debtor.id)
      .run();
    // Principal $1,050.00, then the older invoice's fee $5.00, then the interest $20.00: $1,075.00 at most.
    expect(await addPayment(scope(), user.id, debtor.id, pay(1_075.01), NOW)).toMatchObject({ maxCents: 107_500 });
    const written = await addPayment(scope(), user.id, debtor.id, pay(1_052), NOW);
    if ("error" in written) throw new Error(written.error);
    expect(await chargeAllocationsOf(written.payment.id)).toEqual([{ charge_id: olderFee, amount_cents: 200 }]);
    const second = await addPayment(scope(), user.id, debtor.id, pay(23), NOW + 1);
    if ("error" in second) throw new Error(second.error);
    expect(await chargeAllocationsOf(second.payment.id)).toEqual([
      { charge_id: interest, amount_cents: 2_000 },
      { charge_id: olderFee, amount_cents: 300 },
    ]);
  });

  it("a payment on a chosen invoice pays that invoice's charges only, even once its principal is paid", async () => {
    const { user, debtor } = await owingWithCharges();
    const other = await makeInvoice(user.id, debtor.id, { amountCents: 5_000, dueOn: "2026-08-01" });
    await makeCharge(user.id, other, { kind: "fee", amountCents: 500, accruedThrough: LATER });
    const first = await addPayment(scope(), user.id, debtor.id, pay(1_000, { invoice_id: debtor.invoiceId }), NOW);
    expect("error" in first).toBe(false);
    expect(
      await addPayment(scope(), user.id, debtor.id, pay(60.01, { invoice_id: debtor.invoiceId }), NOW + 1),
    ).toMatchObject({
      error: "over-owed",
      maxCents: 6_000,
    });
    const charges = await addPayment(scope(), user.id, debtor.id, pay(60, { invoice_id: debtor.invoiceId }), NOW + 2);
    expect("error" in charges).toBe(false);
    expect((await chargesOf(debtor.id)).map((c) => [c.kind, c.paid_cents])).toEqual([
      ["compensation", 4_000],
      ["interest", 2_000],
      ["fee", 0],
    ]);
  });
});

describe("the terms say charges first", () => {
  it("pays interest, compensation, then the invoice", async () => {
    const { user, debtor, interest, compensation } = await owingWithCharges();
    await setTerms(user.id, { paymentOrder: "charges_first" });
    const written = await addPayment(scope(), user.id, debtor.id, pay(100), NOW);
    if ("error" in written) throw new Error(written.error);
    expect(await chargeAllocationsOf(written.payment.id)).toEqual([
      { charge_id: interest, amount_cents: 2_000 },
      { charge_id: compensation, amount_cents: 4_000 },
    ]);
    expect(await invoiceRowsOf(debtor.id)).toMatchObject([{ paid_cents: 4_000, status: "open" }]);
  });
});

describe("changing a payment reopens what it paid on charges", () => {
  it("lowering a payment takes back its charge allocations first; deleting it reopens them all", async () => {
    const { user, debtor } = await owingWithCharges();
    const written = await addPayment(scope(), user.id, debtor.id, pay(1_060), NOW);
    if ("error" in written) throw new Error(written.error);
    const lowered = await editPayment(scope(), user.id, written.payment.id, pay(1_010), NOW + 1);
    expect("error" in lowered).toBe(false);
    expect((await chargesOf(debtor.id)).map((c) => [c.kind, c.paid_cents])).toEqual([
      ["compensation", 0],
      ["interest", 1_000],
    ]);
    // Raised beyond what is owed: refused, the payment allocated again as it was.
    expect(await editPayment(scope(), user.id, written.payment.id, pay(1_060.01), NOW + 2)).toMatchObject({
      error: "over-owed",
      maxCents: 106_000,
    });
    expect((await chargesOf(debtor.id)).map((c) => c.paid_cents)).toEqual([0, 1_000]);
    const deleted = await deletePayment(scope(), user.id, written.payment.id, NOW + 3);
    expect("error" in deleted).toBe(false);
    expect((await chargesOf(debtor.id)).map((c) => c.paid_cents)).toEqual([0, 0]);
    expect(await invoiceRowsOf(debtor.id)).toMatchObject([{ paid_cents: 0, status: "open" }]);
  });

  it("concurrent payments never pay a charge twice", async () => {
    const { user, debtor } = await owingWithCharges();
    // Each would pay every charge in full; only one can.
    await setTerms(user.id, { paymentOrder: "charges_first" });
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) => addPayment(scope(), user.id, debtor.id, pay(400), NOW + i)),
    );
    const accepted = results.filter((r) => !("error" in r));
    expect(accepted).toHaveLength(2);
    for (const refused of results.filter((r) => "error" in r)) expect(refused).toMatchObject({ error: "over-owed" });
    expect((await chargesOf(debtor.id)).map((c) => c.paid_cents)).toEqual([4_000, 2_000]);
    expect(await invoiceRowsOf(debtor.id)).toMatchObject([{ paid_cents: 74_000 }]);
    const total = await env.DB.prepare(
      "SELECT (SELECT sum(pa.amount_cents) FROM payment_allocations pa JOIN payments p ON p.id = pa.payment_id WHERE p.debtor_id = ?1) + (SELECT sum(ca.amount_cents) FROM charge_allocations ca JOIN payments p ON p.id = ca.payment_id WHERE p.debtor_id = ?1) AS n",
    )
      .bind(debtor.id)
      .first<{ n: number }>();
    expect(total!.n).toBe(80_000);
  });
});

describe("paying online", () => {
  it("asks for the principal and the charges owed, accrued through today, and the payment settles both", async () => {
    await seedRates();
    const { user, account, debtor, portal } = await connectSetup({ invoices: [400_000], currency: "GBP" });
    await makeCompany(debtor.id);
    await setTerms(user.id, { rule: "gb" });
    const sessionId = await payOnPortal(portal);
    const charges = await chargesOf(debtor.id);
    const today = new Date().toISOString().slice(0, 10);
    expect(charges.map((c) => [c.kind, c.accrued_through])).toEqual([
      ["compensation", today],
      ["interest", today],
    ]);
    const owed = charges.reduce((n, c) => n + c.amount_cents, 0);
    expect(owed).toBeGreaterThan(7_000);
    expect(await onlineRow(sessionId)).toMatchObject({ amount_cents: 400_000 + owed });
    const paid = session(sessionId, {
      currency: "gbp",
      payment_status: "paid",
      payment_intent: `pi_charges_${sessionId.slice(-8)}`,
      amount_total: 400_000 + owed,
      metadata: { dunly_debtor: String(debtor.id) },
    });
    expect(
      (await postStripeEvent("connect", stripeEvent("checkout.session.completed", paid, { account }))).status,
    ).toBe(200);
    expect(await invoiceRowsOf(debtor.id)).toMatchObject([{ paid_cents: 400_000, status: "paid" }]);
    // Paid today: today bears no interest, so the interest may end a day's worth lower; never below what was paid.
    for (const c of await chargesOf(debtor.id)) expect(c.paid_cents).toBe(c.amount_cents);
  });
});
