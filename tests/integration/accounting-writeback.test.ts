import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import {
  accountingSetups,
  addStandInPayment,
  connectionOf,
  getStandInObject,
  listStandInObjects,
  MAX_WRITEBACK_ATTEMPTS,
  putStandInObject,
  type StandInPayment,
  sendWritebacks,
  sha256,
  writebackKey,
  type XeroAccount,
  type XeroInvoice,
} from "~/accounting/index.server";
import { paymentEntity } from "~/ledger/index.server";
import { readConfig } from "~/platform/config.server";
import { runWatchdog } from "~/watchdog/index.server";
import { type AccountingUser, connectThroughStandIn, cookieOf, importFromTab } from "./accounting-helpers";
import { formAction, replyErrors } from "./data-helpers";
import { db, debtorRowsOf, entityScopeOf, makeDebtor, makeSignedInUser, paymentsOf } from "./fixtures";
import { get, ORIGIN, postForm, visibleText } from "./helpers";

/**
 * Dunly's payments written back to Xero through the local stand-in (decisions/063): off by default
 * (the answer tells the user to record the payment in Xero); on, with a bank account read from
 * Xero, one payment in Xero per payment in Dunly, once, whatever is retried or replayed; a refusal
 * in words, retried with back-off, given up only to be tried again by the user; the next sync
 * records nothing twice; another account's payment never reaches this organisation.
 */

const setup = () => {
  const s = accountingSetups(readConfig(env), env, ORIGIN);
  if (!s.xero) throw new Error("the Xero stand-in should answer in tests");
  return s;
};

type User = AccountingUser;
const today = () => new Date().toISOString().slice(0, 10);

/** Connect → Allow (the stand-in makes a new organisation) → callback; Xero is asked for the bank accounts too. */
async function connect(cookie: string) {
  const { consent } = await connectThroughStandIn("xero", cookie);
  expect(consent.searchParams.get("scope")).toContain("accounting.settings.read");
}

/** Connect, then preview and import: the organisation's id. */
async function connectAndImport(user: User) {
  await connect(cookieOf(user));
  return importFromTab(user, "xero");
}

const accountsOf = (tenantId: string) => listStandInObjects<XeroAccount>(env, tenantId, "account");
const xeroPayments = (tenantId: string) => listStandInObjects<StandInPayment>(env, tenantId, "payment");

/** The setting on, with the organisation's bank account `code`. */
async function turnOn(cookie: string, tenantId: string, code = "090") {
  const account = (await accountsOf(tenantId)).find((a) => a.Code === code)!;
  const res = await formAction(
    "/iam/accounting",
    { intent: "accounting-writeback", writeback: "on", account: account.AccountID },
    cookie,
  );
  expect(res.status, JSON.stringify(res.data)).toBe(200);
  return account;
}

/** Bayside Club's invoice as Dunly and Xero have it (one open invoice of 820.00 USD). */
async function bayside(user: User, tenantId: string) {
  const debtor = (await debtorRowsOf(user.id)).find((d) => d.full_name === "Bayside Club")!;
  const invoice = await env.DB.prepare(
    "SELECT id, number, external_id FROM invoices WHERE debtor_id = ? AND status = 'open'",
  )
    .bind(debtor.id)
    .first<{ id: number; number: string; external_id: string }>();
  const xero = (await getStandInObject<XeroInvoice>(env, "invoice", invoice!.external_id))!.data;
  expect(xero.Contact.Name).toBe("Bayside Club");
  return { debtor, invoice: invoice!, xero, tenantId };
}

/** "Add payment" in the debtor modal, as the browser sends it. */
const payByForm = (cookie: string, debtorId: number, invoiceId: number, amount = "120") =>
  formAction(
    "/debtors-list",
    {
      intent: "payment-add",
      debtor_id: String(debtorId),
      invoice_id: String(invoiceId),
      amount,
      paid_on: today(),
      note: "Cheque 42",
    },
    cookie,
  );

const writebacksOf = async (ownerId: string) =>
  (
    await env.DB.prepare("SELECT * FROM accounting_writebacks WHERE owner_id = ? ORDER BY id").bind(ownerId).all<{
      id: number;
      payment_id: number;
      status: string;
      attempts: number;
      refusals: number;
      next_attempt_at: number | null;
      external_payment_id: string | null;
      last_error: string | null;
      account_id: string;
      amount_cents: number;
    }>()
  ).results;

/** The sender runs (as the watchdog would) until the owner's rows are written: what waitUntil started may hold them a moment. */
async function untilSent(ownerId: string) {
  await vi.waitFor(
    async () => {
      await sendWritebacks(db(), setup(), { ownerId });
      const rows = await writebacksOf(ownerId);
      expect(rows.length).toBeGreaterThan(0);
      expect(rows.every((r) => r.status === "sent")).toBe(true);
    },
    { timeout: 5000, interval: 100 },
  );
  return writebacksOf(ownerId);
}

/** Time passes: the owner's pending rows are due now. */
const dueNow = (ownerId: string) =>
  env.DB.prepare("UPDATE accounting_writebacks SET next_attempt_at = 0 WHERE owner_id = ? AND status = 'pending'")
    .bind(ownerId)
    .run();

describe("off (the default)", () => {
  it("writes nothing to Xero and tells the user to record the payment there", async () => {
    const user = await makeSignedInUser();
    const { cookie, tenantId } = await connectAndImport(user);
    const tab = await visibleText(await get("/iam/accounting", { cookie }));
    expect(tab).toContain("Record Dunly's payments in Xero");
    expect(tab).toContain("Off: Dunly does not write to your books.");
    const { debtor, invoice } = await bayside(user, tenantId);
    const paid = await payByForm(cookie, debtor.id, invoice.id);
    expect(paid.status).toBe(200);
    expect(paid.data.message).toContain(
      "Record this payment in Xero too: Dunly does not write to your books unless you turn that on in Settings → Accounting.",
    );
    expect(await writebacksOf(user.id)).toHaveLength(0);
    await sendWritebacks(db(), setup(), { ownerId: user.id });
    expect(await xeroPayments(tenantId)).toHaveLength(0);
    // A payment on a debtor typed into Dunly (no invoice from Xero) says nothing about Xero.
    const own = await makeDebtor(user.id, { debtCents: 5000 });
    const typed = await paymentEntity.add(entityScopeOf(user.id), own.id, { amount: 1, paid_on: today(), note: "" });
    expect("error" in typed ? null : typed.books).toBeNull();
  });
});

describe("the setting", () => {
  it("lists the active bank accounts from Xero; refusals are field errors that keep the choice", async () => {
    const user = await makeSignedInUser();
    const { cookie, tenantId } = await connectAndImport(user);
    const tab = await visibleText(await get("/iam/accounting", { cookie }));
    expect(tab).toContain("Business Bank Account (090)");
    expect(tab).toContain("Business Savings Account (091)");
    expect(tab).not.toContain("Old Cheque Account");
    expect(tab).not.toContain("Sales (200)");
    const none = await formAction("/iam/accounting", { intent: "accounting-writeback", writeback: "on" }, cookie);
    expect(none.status).toBe(400);
    expect(replyErrors(none.data).account).toEqual(["Choose the bank account in Xero that Dunly's payments go to"]);
    const archived = (await accountsOf(tenantId)).find((a) => a.Code === "092")!;
    const refused = await formAction(
      "/iam/accounting",
      { intent: "accounting-writeback", writeback: "on", account: archived.AccountID },
      cookie,
    );
    expect(refused.status).toBe(400);
    expect(replyErrors(refused.data).account?.[0]).toContain("not one of your active bank accounts");
    expect(refused.data.result.initialValue).toMatchObject({ writeback: "on", account: archived.AccountID });
    expect((await connectionOf(db(), user.id))?.writebackAccountId).toBeNull();
    // Without JavaScript: the page with the error and the choice kept, never a 500.
    const page = await postForm(
      "/iam/accounting",
      { intent: "accounting-writeback", writeback: "on", account: "" },
      { cookie },
    );
    expect(page.status).toBe(400);
    expect(await visibleText(page)).toContain("Choose the bank account in Xero that Dunly's payments go to");
    const account = await turnOn(cookie, tenantId);
    expect(await connectionOf(db(), user.id)).toMatchObject({
      writebackAccountId: account.AccountID,
      writebackAccountName: "Business Bank Account (090)",
    });
    expect(await visibleText(await get("/iam/accounting", { cookie }))).toContain("into Business Bank Account (090).");
    const off = await formAction("/iam/accounting", { intent: "accounting-writeback" }, cookie);
    expect(off.data.message).toContain("no longer records its payments in Xero");
    expect((await connectionOf(db(), user.id))?.writebackAccountId).toBeNull();
    // Connected again to another organisation: its bank accounts are others, the setting starts off.
    await turnOn(cookie, tenantId);
    await connect(cookie);
    const again = await connectionOf(db(), user.id);
    expect(again?.tenantId).not.toBe(tenantId);
    expect(again).toMatchObject({ writebackAccountId: null, writebackAccountName: null });
  });
});

describe("a connection made before Dunly read bank accounts", () => {
  it("is asked to connect again to allow it; the sync goes on meanwhile", async () => {
    const user = await makeSignedInUser();
    const { cookie, tenantId } = await connectAndImport(user);
    // The grant's scopes as Dunly asked for them before (no accounting.settings.read).
    await env.DB.prepare(
      "UPDATE dev_xero_objects SET data = json_set(data, '$.scope', 'offline_access accounting.transactions accounting.contacts.read') WHERE tenant_id = ? AND kind IN ('access', 'refresh')",
    )
      .bind(tenantId)
      .run();
    const words = "Xero did not let Dunly read your bank accounts: connect Xero again to allow it.";
    expect(await visibleText(await get("/iam/accounting", { cookie }))).toContain(words);
    const account = (await accountsOf(tenantId)).find((a) => a.Code === "090")!;
    const saved = await formAction(
      "/iam/accounting",
      { intent: "accounting-writeback", writeback: "on", account: account.AccountID },
      cookie,
    );
    expect(saved.status).toBe(502);
    expect(saved.data.message).toBe(words);
    expect((await connectionOf(db(), user.id))?.writebackAccountId).toBeNull();
    expect((await formAction("/iam/accounting", { intent: "accounting-sync" }, cookie)).status).toBe(200);
    expect((await connectionOf(db(), user.id))?.status).toBe("connected");
  });
});

describe("on", () => {
  it("writes one payment to Xero, once: a replay and an unanswered attempt make no second one; the sync records nothing twice", async () => {
    const user = await makeSignedInUser();
    const { cookie, tenantId } = await connectAndImport(user);
    const account = await turnOn(cookie, tenantId);
    const { debtor, invoice, xero } = await bayside(user, tenantId);
    const paid = await payByForm(cookie, debtor.id, invoice.id);
    expect(paid.data.message).toContain("Dunly records it in Xero too.");
    const [row] = await untilSent(user.id);
    const inXero = await xeroPayments(tenantId);
    expect(inXero).toHaveLength(1);
    expect(inXero[0]).toMatchObject({
      PaymentID: row!.external_payment_id,
      Amount: 120,
      Reference: "Cheque 42",
      Invoice: { InvoiceID: xero.InvoiceID },
      Account: { AccountID: account.AccountID },
    });
    expect(inXero[0]!.Date).toBe(`/Date(${Date.parse(`${today()}T00:00:00Z`)}+0000)/`);
    expect((await getStandInObject<XeroInvoice>(env, "invoice", xero.InvoiceID))?.data.AmountDue).toBe(700);
    // The tab counts it; /dev/xero lists it.
    expect(await visibleText(await get("/iam/accounting", { cookie }))).toMatch(/Payments Dunly wrote to Xero\s*1/);
    expect(await visibleText(await get("/dev/xero", { cookie }))).toContain("Cheque 42");

    // Replayed (a sender that lost its answer writes the row again): the same key, the same payment.
    await env.DB.prepare(
      "UPDATE accounting_writebacks SET status = 'pending', next_attempt_at = 0, external_payment_id = NULL WHERE id = ?",
    )
      .bind(row!.id)
      .run();
    const [again] = await untilSent(user.id);
    expect(again!.external_payment_id).toBe(row!.external_payment_id);
    expect(await xeroPayments(tenantId)).toHaveLength(1);
    expect((await getStandInObject<XeroInvoice>(env, "invoice", xero.InvoiceID))?.data.AmountDue).toBe(700);

    // The next sync sees Xero owe what Dunly owes: no payment from Xero is recorded, even from scratch.
    const synced = await formAction("/iam/accounting", { intent: "accounting-sync" }, cookie);
    expect(synced.data.message).toContain("nothing changed");
    await env.DB.prepare("UPDATE accounting_connections SET sync_cursor = NULL WHERE owner_id = ?").bind(user.id).run();
    await formAction("/iam/accounting", { intent: "accounting-sync" }, cookie);
    expect((await paymentsOf(debtor.id)).map((p) => [p.amount_cents, p.source])).toEqual([[12000, "manual"]]);
    // A later payment in Xero itself is recorded from Xero, and never written back.
    await addStandInPayment(env, xero.InvoiceID, 100);
    expect((await formAction("/iam/accounting", { intent: "accounting-sync" }, cookie)).data.message).toContain(
      "1 payment",
    );
    expect((await paymentsOf(debtor.id)).map((p) => p.source).sort()).toEqual(["manual", "xero"]);
    expect(await writebacksOf(user.id)).toHaveLength(1);
    expect(await xeroPayments(tenantId)).toHaveLength(2);
  });

  it("a refusal is kept in words and retried with back-off; given up, the user tries again", async () => {
    const user = await makeSignedInUser();
    const { cookie, tenantId } = await connectAndImport(user);
    const account = await turnOn(cookie, tenantId);
    const { debtor, invoice } = await bayside(user, tenantId);
    // Archived in Xero after it was chosen: Xero refuses payments into it.
    await putStandInObject(env, "account", account.AccountID, tenantId, { ...account, Status: "ARCHIVED" });
    const written = await paymentEntity.add(entityScopeOf(user.id), debtor.id, {
      amount: 120,
      paid_on: today(),
      note: "",
      invoice_id: invoice.id,
    });
    expect("error" in written ? written : written.books).toEqual({ provider: "xero", written: true });
    const before = Date.now();
    await sendWritebacks(db(), setup(), { ownerId: user.id });
    const [refused] = await writebacksOf(user.id);
    const words = `Xero refused the payment of 120.00 USD on ${invoice.number}: Payments cannot be made to the account Business Bank Account: it is not an active bank account.`;
    expect(refused).toMatchObject({ status: "pending", attempts: 1, refusals: 1, last_error: words });
    expect(refused!.next_attempt_at).toBeGreaterThanOrEqual(before + 60_000);
    expect(await visibleText(await get("/iam/accounting", { cookie }))).toContain(words);
    // Not due yet: nothing is sent.
    await sendWritebacks(db(), setup(), { ownerId: user.id });
    expect((await writebacksOf(user.id))[0]!.attempts).toBe(1);
    // Each failure waits longer; past the last attempt it is given up, in words, with "Try again".
    await env.DB.prepare("UPDATE accounting_writebacks SET attempts = ? WHERE owner_id = ?")
      .bind(MAX_WRITEBACK_ATTEMPTS - 1, user.id)
      .run();
    await dueNow(user.id);
    await sendWritebacks(db(), setup(), { ownerId: user.id });
    const [gaveUp] = await writebacksOf(user.id);
    expect(gaveUp).toMatchObject({ status: "failed", next_attempt_at: null });
    expect(gaveUp!.last_error).toContain(`Dunly stopped trying after ${MAX_WRITEBACK_ATTEMPTS} attempts`);
    expect(await visibleText(await get("/iam/accounting", { cookie }))).toContain("Try again");
    // Another user's "Try again" finds nothing.
    const other = await makeSignedInUser();
    const theirs = await formAction(
      "/iam/accounting",
      { intent: "accounting-writeback-retry", id: String(gaveUp!.id) },
      cookieOf(other),
    );
    expect(theirs.status).toBe(404);
    // Active again in Xero: the user's "Try again" writes it (under a new key: the refused one made nothing).
    await putStandInObject(env, "account", account.AccountID, tenantId, account);
    const retried = await formAction(
      "/iam/accounting",
      { intent: "accounting-writeback-retry", id: String(gaveUp!.id) },
      cookie,
    );
    expect(retried.status).toBe(200);
    const [sent] = await untilSent(user.id);
    expect(sent!.last_error).toBeNull();
    expect(await xeroPayments(tenantId)).toHaveLength(1);
  });

  it("the watchdog's run sends what the request did not", async () => {
    const user = await makeSignedInUser();
    const { cookie, tenantId } = await connectAndImport(user);
    await turnOn(cookie, tenantId);
    const { debtor, invoice } = await bayside(user, tenantId);
    // Recorded without the request's waitUntil (as a Stripe payment is): queued, then the watchdog.
    await paymentEntity.add(entityScopeOf(user.id), debtor.id, {
      amount: 20,
      paid_on: today(),
      note: "",
      invoice_id: invoice.id,
    });
    expect((await writebacksOf(user.id))[0]).toMatchObject({ status: "pending", attempts: 0 });
    await runWatchdog(env);
    expect((await writebacksOf(user.id))[0]).toMatchObject({ status: "sent", attempts: 1 });
    expect((await xeroPayments(tenantId)).map((p) => [p.Amount, p.Reference])).toEqual([[20, "Recorded in Dunly"]]);
  });

  it("a busy Xero keeps the row pending under the same key; a disconnected one gives it up in words", async () => {
    const user = await makeSignedInUser();
    const { cookie, tenantId } = await connectAndImport(user);
    await turnOn(cookie, tenantId);
    const { debtor, invoice } = await bayside(user, tenantId);
    await paymentEntity.add(entityScopeOf(user.id), debtor.id, {
      amount: 50,
      paid_on: today(),
      note: "",
      invoice_id: invoice.id,
    });
    await putStandInObject(env, "fault", `fault:${tenantId}`, tenantId, { remaining: 9, retryAfter: 120 });
    await sendWritebacks(db(), setup(), { ownerId: user.id });
    const [busy] = await writebacksOf(user.id);
    expect(busy).toMatchObject({ status: "pending", attempts: 1, refusals: 0 });
    expect(busy!.last_error).toContain("is not in Xero yet: Xero is busy");
    await putStandInObject(env, "fault", `fault:${tenantId}`, tenantId, { remaining: 0, retryAfter: 1 });
    // An earlier attempt with the same key still under way at Xero (409): the same key again, later.
    const key = writebackKey({ ownerId: user.id, paymentId: busy!.payment_id, invoiceId: invoice.id, refusals: 0 });
    await putStandInObject(env, "idempotency", `idempotency:${tenantId}:${await sha256(key)}`, tenantId, {
      state: "under-way",
    });
    await dueNow(user.id);
    await sendWritebacks(db(), setup(), { ownerId: user.id });
    const [working] = await writebacksOf(user.id);
    expect(working).toMatchObject({ status: "pending", attempts: 2, refusals: 0 });
    expect(working!.last_error).toBe(
      `The payment of 50.00 USD on ${invoice.number} is not in Xero yet: Xero is still working on an earlier attempt. Dunly tries again.`,
    );
    expect((await postForm("/iam/accounting/xero/disconnect", {}, { cookie })).status).toBe(303);
    await dueNow(user.id);
    await sendWritebacks(db(), setup(), { ownerId: user.id });
    const [gone] = await writebacksOf(user.id);
    expect(gone).toMatchObject({ status: "failed" });
    expect(gone!.last_error).toBe(
      `The payment of 50.00 USD on ${invoice.number} is not in Xero: Xero was disconnected before Dunly wrote it. Record it in Xero.`,
    );
    expect(await xeroPayments(tenantId)).toHaveLength(0);
  });

  it("another account's payments never reach this organisation", async () => {
    const user = await makeSignedInUser();
    const other = await makeSignedInUser();
    const mine = await connectAndImport(user);
    await turnOn(mine.cookie, mine.tenantId);
    const theirs = await connectAndImport(other);
    await turnOn(theirs.cookie, theirs.tenantId, "091");
    const a = await bayside(user, mine.tenantId);
    const b = await bayside(other, theirs.tenantId);
    // The other user cannot pay this user's invoice, even naming it: nothing is recorded.
    expect((await payByForm(theirs.cookie, a.debtor.id, a.invoice.id)).status).toBe(400);
    expect((await payByForm(theirs.cookie, b.debtor.id, a.invoice.id)).status).toBe(400);
    expect(await paymentsOf(a.debtor.id)).toHaveLength(0);
    await payByForm(theirs.cookie, b.debtor.id, b.invoice.id, "30");
    await untilSent(other.id);
    expect(await writebacksOf(user.id)).toHaveLength(0);
    expect(await xeroPayments(mine.tenantId)).toHaveLength(0);
    const [written] = await xeroPayments(theirs.tenantId);
    expect(written).toMatchObject({ Amount: 30, Invoice: { InvoiceID: b.xero.InvoiceID } });
    expect(written!.Account?.Code).toBe("091");
  });
});
