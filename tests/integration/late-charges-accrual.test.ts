import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { accrueCharges, runDailyAccrual } from "~/ledger/index.server";
import { voidInvoice } from "~/ledger/invoices.server";
import { addPayment, deletePayment } from "~/ledger/payments.server";
import { disputeInvoice, resolveDispute } from "~/responses/disputes.server";
import { db, makeDebtor, makeUser } from "./fixtures";
import { chargesOf, invoiceRowsOf, makeCompany, seedRates, setTerms, ukCompanyOwing } from "./late-charges-helpers";

/**
 * Accruing late-payment charges (decisions/065): the ledger's history through the rules
 * (app/domain/late-charges) into `charges` rows. UK: £4,000.00 due 30 Sep 2026 runs at the Bank of
 * England's rate in force on 30 June (seeded: 3.75% since 18 Dec 2025) + 8% = 11.75% a year from 1 Oct;
 * £70 compensation (a debt of £1,000–£9,999.99). Worked by hand: 47,000 × days / 365, half up.
 */

const THROUGH = "2026-11-28";
/** Midday on THROUGH: a write then accrues through that day. */
const NOW = Date.UTC(2026, 10, 28, 12);
const scopeOf = (ownerId: string, now = NOW) => ({ db: db(), ownerId, now });
const interestOf = async (debtorId: number) => (await chargesOf(debtorId)).find((c) => c.kind === "interest");

describe("accrual", () => {
  it("UK statutory interest and compensation, with their basis; the invoice is marked accrued", async () => {
    const { user, debtor } = await ukCompanyOwing();
    const out = await accrueCharges(scopeOf(user.id), [debtor.id], THROUGH);
    expect(out).toMatchObject({ invoices: 1, written: 2, missingRates: [] });
    const [compensation, interest] = await chargesOf(debtor.id);
    // 1 Oct – 28 Nov: 59 days; 47,000 × 59 / 365 = 7,597.3 → 7,597.
    expect(interest).toMatchObject({
      kind: "interest",
      currency: "GBP",
      amount_cents: 7_597,
      accrued_through: THROUGH,
    });
    const basis = JSON.parse(interest!.basis);
    expect(basis).toMatchObject({ type: "statutory_interest", rule: "gb" });
    expect(basis.periods).toMatchObject([{ days: 59, principalCents: 400_000, rateBp: 1_175, referenceBp: 375 }]);
    expect(compensation).toMatchObject({ kind: "compensation", amount_cents: 7_000 });
    expect((await invoiceRowsOf(debtor.id))[0]).toMatchObject({ status: "open" });
    const marked = await env.DB.prepare("SELECT charges_through FROM invoices WHERE id = ?")
      .bind(debtor.invoiceId)
      .first<{ charges_through: string }>();
    expect(marked!.charges_through).toBe(THROUGH);
    // Accrued again the same day: the same rows, nothing added.
    await accrueCharges(scopeOf(user.id), [debtor.id], THROUGH);
    expect(await chargesOf(debtor.id)).toHaveLength(2);
  });

  it("a backdated payment lowers the interest from its own day; deleting it brings it back", async () => {
    const { user, debtor } = await ukCompanyOwing();
    await accrueCharges(scopeOf(user.id), [debtor.id], THROUGH);
    // £2,000.00 paid on 31 Oct, recorded on 28 Nov: the write accrues again through its day.
    const paid = await addPayment(
      { env, db: db() },
      user.id,
      debtor.id,
      { amount: 2_000, paid_on: "2026-10-31", note: "" },
      NOW,
    );
    if ("error" in paid) throw new Error(paid.error);
    // (47,000 × 30 + 23,500 × 29) / 365 = 5,730.1 → 5,730.
    expect(await interestOf(debtor.id)).toMatchObject({ amount_cents: 5_730 });
    const basis = JSON.parse((await interestOf(debtor.id))!.basis);
    expect(basis.periods.map((p: { days: number; principalCents: number }) => [p.days, p.principalCents])).toEqual([
      [30, 400_000],
      [29, 200_000],
    ]);
    await deletePayment({ env, db: db() }, user.id, paid.payment.id, NOW + 1);
    expect(await interestOf(debtor.id)).toMatchObject({ amount_cents: 7_597 });
  });

  it("paid in full, the interest is frozen at the payment's day, and stays so later", async () => {
    const { user, debtor } = await ukCompanyOwing();
    const paid = await addPayment(
      { env, db: db() },
      user.id,
      debtor.id,
      { amount: 4_000, paid_on: "2026-10-10", note: "" },
      NOW,
    );
    if ("error" in paid) throw new Error(paid.error);
    // 1–9 Oct: 9 days; 47,000 × 9 / 365 = 1,158.9 → 1,159.
    expect(await interestOf(debtor.id)).toMatchObject({ amount_cents: 1_159 });
    await accrueCharges(scopeOf(user.id), [debtor.id], "2027-02-01");
    expect(await interestOf(debtor.id)).toMatchObject({ amount_cents: 1_159 });
  });

  it("never below what was paid on a charge", async () => {
    const { user, debtor } = await ukCompanyOwing();
    await accrueCharges(scopeOf(user.id), [debtor.id], THROUGH);
    await env.DB.prepare("UPDATE charges SET paid_cents = 7597 WHERE debtor_id = ? AND kind = 'interest'")
      .bind(debtor.id)
      .run();
    // A pause through October would lower it to 28 days' worth; it stays at what was paid.
    await env.DB.prepare(
      "INSERT INTO charge_pauses (owner_id, invoice_id, reason, from_on, to_on) VALUES (?, ?, 'dispute', '2026-10-01', '2026-11-01')",
    )
      .bind(user.id, debtor.invoiceId)
      .run();
    await accrueCharges(scopeOf(user.id), [debtor.id], THROUGH);
    expect(await interestOf(debtor.id)).toMatchObject({ amount_cents: 7_597, paid_cents: 7_597 });
    const basis = JSON.parse((await interestOf(debtor.id))!.basis);
    expect(basis.periods.reduce((n: number, p: { days: number }) => n + p.days, 0)).toBe(28);
  });
});

describe("who is charged", () => {
  it("a consumer is never charged, and a company turned person loses its unpaid charges", async () => {
    const { user, debtor } = await ukCompanyOwing();
    await env.DB.prepare("UPDATE debtors SET kind = 'person', late_charges = 'on' WHERE id = ?").bind(debtor.id).run();
    await accrueCharges(scopeOf(user.id), [debtor.id], THROUGH);
    expect(await chargesOf(debtor.id)).toEqual([]);
    await makeCompany(debtor.id);
    await accrueCharges(scopeOf(user.id), [debtor.id], THROUGH);
    expect(await chargesOf(debtor.id)).toHaveLength(2);
    await env.DB.prepare("UPDATE debtors SET kind = 'person' WHERE id = ?").bind(debtor.id).run();
    await accrueCharges(scopeOf(user.id), [debtor.id], THROUGH);
    expect(await chargesOf(debtor.id)).toEqual([]);
  });

  it("the debtor's own setting: 'off' under terms on, 'on' under terms off; none without terms", async () => {
    const { user, debtor } = await ukCompanyOwing();
    await env.DB.prepare("UPDATE debtors SET late_charges = 'off' WHERE id = ?").bind(debtor.id).run();
    await accrueCharges(scopeOf(user.id), [debtor.id], THROUGH);
    expect(await chargesOf(debtor.id)).toEqual([]);
    await setTerms(user.id, { rule: "gb", enabled: false });
    await env.DB.prepare("UPDATE debtors SET late_charges = 'on' WHERE id = ?").bind(debtor.id).run();
    await accrueCharges(scopeOf(user.id), [debtor.id], THROUGH);
    expect(await chargesOf(debtor.id)).toHaveLength(2);
    const other = await makeUser();
    const company = await makeDebtor(other.id, { debtCents: 400_000, currency: "GBP" });
    await makeCompany(company.id);
    await accrueCharges(scopeOf(other.id), [company.id], THROUGH);
    expect(await chargesOf(company.id)).toEqual([]);
  });

  it("an invoice in another currency than the rule's gets no statutory charge; contract terms charge any", async () => {
    await seedRates();
    const user = await makeUser();
    const debtor = await makeDebtor(user.id, { debtCents: 100_000, currency: "USD" });
    await makeCompany(debtor.id);
    await env.DB.prepare("UPDATE invoices SET due_on = '2026-09-30' WHERE id = ?").bind(debtor.invoiceId).run();
    await setTerms(user.id, { rule: "gb" });
    await accrueCharges(scopeOf(user.id), [debtor.id], THROUGH);
    expect(await chargesOf(debtor.id)).toEqual([]);
    // 2% once, after 10 days' grace: $20.00.
    await setTerms(user.id, {
      rule: "contract",
      contractKind: "percent_once",
      contractRateBp: 200,
      contractGraceDays: 10,
    });
    await accrueCharges(scopeOf(user.id), [debtor.id], THROUGH);
    expect(await chargesOf(debtor.id)).toMatchObject([{ kind: "fee", amount_cents: 2_000, currency: "USD" }]);
  });

  it("an invoice no longer late (its due date moved on) loses its unpaid charges", async () => {
    const { user, debtor } = await ukCompanyOwing();
    await accrueCharges(scopeOf(user.id), [debtor.id], THROUGH);
    expect(await chargesOf(debtor.id)).toHaveLength(2);
    await env.DB.prepare("UPDATE invoices SET due_on = '2026-12-31' WHERE id = ?").bind(debtor.invoiceId).run();
    await accrueCharges(scopeOf(user.id), [debtor.id], THROUGH);
    expect(await chargesOf(debtor.id)).toEqual([]);
  });

  it("a voided invoice's unpaid charges go", async () => {
    const { user, debtor } = await ukCompanyOwing();
    await accrueCharges(scopeOf(user.id), [debtor.id], THROUGH);
    await voidInvoice({ env, db: db() }, user.id, debtor.invoiceId, NOW);
    expect(await chargesOf(debtor.id)).toEqual([]);
  });
});

describe("a dispute pauses interest", () => {
  it("no interest from the day it is disputed until it is resolved against the debtor", async () => {
    const { user, debtor } = await ukCompanyOwing();
    const disputedAt = Date.UTC(2026, 9, 31, 9);
    const resolvedAt = Date.UTC(2026, 10, 10, 9);
    const { disputed } = await disputeInvoice(
      { env, db: db() },
      user.id,
      debtor.id,
      { id: debtor.invoiceId, number: null, dueOn: "2026-09-30" },
      "Not delivered",
      disputedAt,
    );
    expect(disputed).toBe(true);
    const pauses = () =>
      env.DB.prepare("SELECT reason, from_on, to_on FROM charge_pauses WHERE invoice_id = ?")
        .bind(debtor.invoiceId)
        .all();
    expect((await pauses()).results).toEqual([{ reason: "dispute", from_on: "2026-10-31", to_on: null }]);
    // While disputed: the 30 days before it only.
    await accrueCharges(scopeOf(user.id), [debtor.id], THROUGH);
    // 47,000 × 30 / 365 = 3,863.0 → 3,863.
    expect(await interestOf(debtor.id)).toMatchObject({ amount_cents: 3_863 });
    const resolved = await resolveDispute({ env, db: db(), ownerId: user.id, now: resolvedAt }, debtor.invoiceId);
    expect("error" in resolved).toBe(false);
    expect((await pauses()).results).toEqual([{ reason: "dispute", from_on: "2026-10-31", to_on: "2026-11-10" }]);
    // 59 days less the 10 paused (31 Oct – 9 Nov): 47,000 × 49 / 365 = 6,309.6 → 6,310.
    await accrueCharges(scopeOf(user.id), [debtor.id], THROUGH);
    expect(await interestOf(debtor.id)).toMatchObject({ amount_cents: 6_310 });
  });
});

describe("the watchdog's daily accrual", () => {
  it("takes back the charges a change of terms left behind (here: the debtor is now a person)", async () => {
    const { user, debtor } = await ukCompanyOwing();
    await accrueCharges(scopeOf(user.id, Date.now()), [debtor.id], THROUGH);
    expect(await chargesOf(debtor.id)).toHaveLength(2);
    // As accrueAccount leaves an account whose terms were just saved, with this debtor past its first 200.
    await env.DB.prepare("UPDATE debtors SET kind = 'person' WHERE id = ?").bind(debtor.id).run();
    await env.DB.prepare("UPDATE invoices SET charges_through = NULL WHERE id = ?").bind(debtor.invoiceId).run();
    await env.DB.prepare("UPDATE late_charge_terms SET updated_at = ? WHERE owner_id = ?")
      .bind(Date.now(), user.id)
      .run();
    for (let run = 0; run < 50 && (await chargesOf(debtor.id)).length > 0; run++) {
      await runDailyAccrual(db(), Date.now());
    }
    expect(await chargesOf(debtor.id)).toEqual([]);
  });

  it("takes the invoices not yet accrued today, once", async () => {
    const { user, debtor } = await ukCompanyOwing();
    const today = Date.UTC(2031, 0, 5, 0, 3);
    // Every account's late invoices are candidates: run until this one is done, then it is not read again.
    let mine = false;
    for (let run = 0; run < 50 && !mine; run++) {
      await runDailyAccrual(db(), today);
      const row = await env.DB.prepare("SELECT charges_through FROM invoices WHERE id = ?")
        .bind(debtor.invoiceId)
        .first<{ charges_through: string }>();
      mine = row?.charges_through === "2031-01-05";
    }
    expect(mine).toBe(true);
    const accrued = await interestOf(debtor.id);
    expect(accrued).toMatchObject({ accrued_through: "2031-01-05" });
    // Later the same day: not read again (its charges untouched).
    await runDailyAccrual(db(), today + 60_000);
    const stamp = () =>
      env.DB.prepare("SELECT updated_at FROM charges WHERE id = ?").bind(accrued!.id).first<{ updated_at: number }>();
    expect((await stamp())!.updated_at).toBe(today);
    expect(user.id).toBeTruthy();
  });
});
