import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { accrueCharges } from "~/ledger/index.server";
import { addPayment } from "~/ledger/payments.server";
import { apiJson, formAction, replyErrors } from "./data-helpers";
import { db, debtorRow, eventsOf, makeDebtor } from "./fixtures";
import { get, pageText, signIn, uniqueEmail } from "./helpers";
import { chargesOf, makeCompany, seedRates, setTerms } from "./late-charges-helpers";

/**
 * Late charges on the user's pages (decisions/065): Settings → Late charges (its schema, amounts in
 * the user's number format, field errors with the values kept, never a 500), the per-debtor setting,
 * and the debtor's page: each invoice's charges explained, Waive and Restore recorded with who and
 * when; another user's charge answers 404.
 */

const THROUGH = new Date().toISOString().slice(0, 10);

/** A signed-in user with a UK company debtor owing £4,000.00 due 30 Sep 2026, its charges accrued through today. */
async function ukAccount(prefix: string) {
  await seedRates();
  const user = await signIn(uniqueEmail(prefix));
  const debtor = await makeDebtor(user.userId, { debtCents: 400_000, currency: "GBP", fullName: "Acme Ltd" });
  await env.DB.prepare(
    "UPDATE invoices SET due_on = '2026-09-30', issued_on = '2026-08-31', number = 'INV-7' WHERE id = ?",
  )
    .bind(debtor.invoiceId)
    .run();
  await makeCompany(debtor.id);
  await setTerms(user.userId, { rule: "gb" });
  await accrueCharges({ db: db(), ownerId: user.userId, now: Date.now() }, [debtor.id], THROUGH);
  return { user, debtor };
}

describe("Settings → Late charges", () => {
  it("is off by default, explains the rules in words, and says charges never go to the books", async () => {
    const user = await signIn(uniqueEmail("charges-tab"));
    const res = await get("/iam/charges", { cookie: user.cookie });
    expect(res.status).toBe(200);
    const text = await pageText(res);
    expect(text).toContain("Charge late-payment interest to business debtors");
    expect(text).toContain("never written to Xero or QuickBooks");
    expect(text).toMatch(/United Kingdom: Bank of England Bank Rate/);
    expect(text).toContain("My contract terms");
  });

  it("saves contract terms typed in a German number format; refuses bad ones with field errors and the values kept", async () => {
    const user = await signIn(uniqueEmail("charges-de"));
    await env.DB.prepare("UPDATE users SET locale = 'de-DE' WHERE id = ?").bind(user.userId).run();
    const base = {
      intent: "charges-save",
      enabled: "on",
      rule: "contract",
      contract_kind: "fixed",
      contract_fee_currency: "EUR",
      contract_grace_days: "14",
      payment_order: "charges_first",
    };
    const tooBig = await formAction("/iam/charges", { ...base, contract_fee: "12.345,67" }, user.cookie);
    expect(tooBig.status).toBe(400);
    expect(replyErrors(tooBig.data).contract_fee?.[0]).toBe("Please enter a fee from 0.01 to 10,000");
    expect((tooBig.data as { result: { initialValue: Record<string, string> } }).result.initialValue.contract_fee).toBe(
      "12.345,67",
    );
    // "1,234.56" is written in another format than the user's: refused, never guessed.
    const foreign = await formAction("/iam/charges", { ...base, contract_fee: "1,234.56" }, user.cookie);
    expect(foreign.status).toBe(400);
    expect(replyErrors(foreign.data).contract_fee?.[0]).toMatch(/another number format/);
    const noKind = await formAction("/iam/charges", { ...base, contract_kind: "", contract_fee: "5" }, user.cookie);
    expect(noKind.status).toBe(400);
    expect(replyErrors(noKind.data).contract_kind?.[0]).toMatch(/fixed fee/);
    const badGrace = await formAction(
      "/iam/charges",
      { ...base, contract_fee: "5", contract_grace_days: "400" },
      user.cookie,
    );
    expect(replyErrors(badGrace.data).contract_grace_days?.[0]).toBe("Please enter 0 to 365 days");
    const badRate = await formAction(
      "/iam/charges",
      { ...base, contract_kind: "percent_monthly", contract_rate: "7,5" },
      user.cookie,
    );
    expect(replyErrors(badRate.data).contract_rate?.[0]).toBe("Please enter a monthly percentage from 0.01 to 5");
    const badRule = await formAction("/iam/charges", { ...base, rule: "xx" }, user.cookie);
    expect(badRule.status).toBe(400);
    expect(
      await env.DB.prepare("SELECT count(*) AS n FROM late_charge_terms WHERE owner_id = ?").bind(user.userId).first(),
    ).toEqual({ n: 0 });

    const saved = await formAction("/iam/charges", { ...base, contract_fee: "1.234,56" }, user.cookie);
    expect(saved.status, JSON.stringify(saved.data)).toBe(200);
    expect(
      await env.DB.prepare(
        "SELECT enabled, rule, contract_kind, contract_fee_cents, contract_fee_currency, contract_grace_days, payment_order FROM late_charge_terms WHERE owner_id = ?",
      )
        .bind(user.userId)
        .first(),
    ).toEqual({
      enabled: 1,
      rule: "contract",
      contract_kind: "fixed",
      contract_fee_cents: 123_456,
      contract_fee_currency: "EUR",
      contract_grace_days: 14,
      payment_order: "charges_first",
    });
    const page = await pageText(await get("/iam/charges", { cookie: user.cookie }));
    expect(page).toContain("14 days after the due date");
    // A monthly percentage typed as "1,5".
    const monthly = await formAction(
      "/iam/charges",
      { ...base, contract_kind: "percent_monthly", contract_rate: "1,5", contract_cap: "10" },
      user.cookie,
    );
    expect(monthly.status, JSON.stringify(monthly.data)).toBe(200);
    expect(
      await env.DB.prepare(
        "SELECT contract_rate_bp, contract_cap_bp, contract_fee_cents FROM late_charge_terms WHERE owner_id = ?",
      )
        .bind(user.userId)
        .first(),
    ).toEqual({ contract_rate_bp: 150, contract_cap_bp: 1_000, contract_fee_cents: null });
  });

  it("turning the terms on charges the account's late company debtors at once; off, their unpaid charges go", async () => {
    await seedRates();
    const user = await signIn(uniqueEmail("charges-on"));
    const debtor = await makeDebtor(user.userId, { debtCents: 400_000, currency: "GBP" });
    await env.DB.prepare("UPDATE invoices SET due_on = '2026-09-30' WHERE id = ?").bind(debtor.invoiceId).run();
    await makeCompany(debtor.id);
    const on = await formAction(
      "/iam/charges",
      { intent: "charges-save", enabled: "on", rule: "gb", compensation: "on" },
      user.cookie,
    );
    expect(on.status, JSON.stringify(on.data)).toBe(200);
    expect((await chargesOf(debtor.id)).map((c) => c.kind)).toEqual(["compensation", "interest"]);
    const off = await formAction("/iam/charges", { intent: "charges-save", rule: "gb" }, user.cookie);
    expect(off.status).toBe(200);
    expect(await chargesOf(debtor.id)).toEqual([]);
  });
});

describe("the debtor's page", () => {
  it("shows each invoice's charges with their basis and the charges apart from the principal", async () => {
    const { user, debtor } = await ukAccount("charges-page");
    const text = await pageText(await get(`/debtors/${debtor.id}`, { cookie: user.cookie }));
    expect(text).toContain("Statutory interest");
    expect(text).toMatch(/Late Payment of Commercial Debts \(Interest\) Act 1998 at 11\.75%/);
    expect(text).toContain("£70.00");
    expect(text).toMatch(/Late charges owed, besides the invoices: £/);
    // The invoices' list (the modal's "Apply to" and payment limit) says what each owes in charges.
    const owed = (await chargesOf(debtor.id)).reduce((n, c) => n + c.amount_cents - c.paid_cents, 0);
    const { body } = await apiJson("GET", `/debtors/${debtor.id}/invoices`, { cookie: user.cookie });
    expect(body[0]).toMatchObject({ owed: 4000, charges_owed: owed / 100 });
  });

  it("waives a charge with who and when, and restores it; each on the timeline", async () => {
    const { user, debtor } = await ukAccount("charges-waive");
    const interest = (await chargesOf(debtor.id)).find((c) => c.kind === "interest")!;
    const waived = await formAction(
      `/debtors/${debtor.id}`,
      { intent: "charge-waive", charge_id: String(interest.id) },
      user.cookie,
    );
    expect(waived.status, JSON.stringify(waived.data)).toBe(200);
    const after = (await chargesOf(debtor.id)).find((c) => c.kind === "interest")!;
    expect(after).toMatchObject({ waived_by: user.email, waived_cents: interest.amount_cents });
    expect(after.waived_at).toBeGreaterThan(Date.now() - 60_000);
    // Waived: a payment no longer pays it, the accrual leaves it alone.
    await accrueCharges({ db: db(), ownerId: user.userId, now: Date.now() }, [debtor.id], "2027-06-01");
    expect((await chargesOf(debtor.id)).find((c) => c.kind === "interest")).toMatchObject({
      amount_cents: interest.amount_cents,
    });
    const page = await pageText(await get(`/debtors/${debtor.id}`, { cookie: user.cookie }));
    expect(page).toContain(`Waived by ${user.email}`);
    const again = await formAction(
      `/debtors/${debtor.id}`,
      { intent: "charge-waive", charge_id: String(interest.id) },
      user.cookie,
    );
    expect(again.status).toBe(409);

    const restored = await formAction(
      `/debtors/${debtor.id}`,
      { intent: "charge-restore", charge_id: String(interest.id) },
      user.cookie,
    );
    expect(restored.status, JSON.stringify(restored.data)).toBe(200);
    expect((await chargesOf(debtor.id)).find((c) => c.kind === "interest")).toMatchObject({
      waived_at: null,
      waived_by: null,
      waived_cents: null,
    });
    const events = (await eventsOf(debtor.id)).filter((e) => String(e.type).startsWith("charge_"));
    expect(events.map((e) => e.type).sort()).toEqual(["charge_restored", "charge_waived"]);
    expect(events.find((e) => e.type === "charge_waived")!.detail).toMatch(/^Statutory interest: £[\d,.]+ waived$/);
  });

  it("another user's charge answers 404 and nothing changes", async () => {
    const { debtor } = await ukAccount("charges-owner");
    const stranger = await signIn(uniqueEmail("charges-stranger"));
    const [charge] = await chargesOf(debtor.id);
    const res = await formAction(
      `/debtors/${debtor.id}`,
      { intent: "charge-waive", charge_id: String(charge!.id) },
      stranger.cookie,
    );
    expect(res.status).toBe(404);
    const mine = await formAction(
      `/debtors-list`,
      { intent: "charge-waive", charge_id: String(charge!.id) },
      stranger.cookie,
    );
    expect(mine.status).toBe(404);
    expect((await chargesOf(debtor.id)).every((c) => c.waived_at === null)).toBe(true);
  });

  it("the debtor form's own setting: off stops their charges, a person is never charged", async () => {
    const { user, debtor } = await ukAccount("charges-form");
    const edit = (fields: Record<string, string>) =>
      formAction(
        "/debtors-list",
        {
          intent: "debtor-edit",
          id: String(debtor.id),
          full_name: "Acme Ltd",
          email: debtor.email,
          debt: "4000",
          currency: "GBP",
          active_strategy: "1",
          kind: "company",
          ...fields,
        },
        user.cookie,
      );
    const off = await edit({ late_charges: "off" });
    expect(off.status, JSON.stringify(off.data)).toBe(200);
    expect((await debtorRow(debtor.id))!.late_charges).toBe("off");
    expect(await chargesOf(debtor.id)).toEqual([]);
    await edit({ late_charges: "account" });
    expect((await debtorRow(debtor.id))!.late_charges).toBeNull();
    expect(await chargesOf(debtor.id)).toHaveLength(2);
    await edit({ late_charges: "on", kind: "person" });
    expect(await chargesOf(debtor.id)).toEqual([]);
    // A payment on a debtor with charges is still told as before.
    const paid = await addPayment({ env, db: db() }, user.userId, debtor.id, {
      amount: 10,
      paid_on: THROUGH,
      note: "",
    });
    expect("error" in paid).toBe(false);
  });
});
