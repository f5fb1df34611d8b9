import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import {
  accountingSetups,
  addQboPayment,
  connectionOf,
  getQboObject,
  listQboObjects,
  putQboObject,
  type QboAccount,
  quickBooksRequestId,
  receiveQboPayment,
  type StoredQboInvoice,
  type StoredQboPayment,
  sendWritebacks,
  sha256,
} from "~/accounting/index.server";
import { paymentEntity } from "~/ledger/index.server";
import { readConfig } from "~/platform/config.server";
import { type AccountingUser, connectThroughStandIn, cookieOf, importFromTab } from "./accounting-helpers";
import { formAction, replyErrors } from "./data-helpers";
import { db, debtorRowsOf, entityScopeOf, makeSignedInUser, paymentsOf } from "./fixtures";
import { get, location, ORIGIN, postForm, visibleText } from "./helpers";

/**
 * Dunly's payments written back to QuickBooks Online through the local stand-in (decisions/063):
 * off by default (the answer tells the user to record the payment in QuickBooks); on, with a bank
 * account read from QuickBooks, one Payment in QuickBooks per payment in Dunly, once under its
 * requestid, whatever is replayed; the next sync records nothing twice; a refusal in words, retried
 * with back-off; another account's payment never reaches this company; a payment from QuickBooks
 * never goes back.
 */

const setups = () => {
  const s = accountingSetups(readConfig(env), env, ORIGIN);
  if (!s.quickbooks) throw new Error("the QuickBooks stand-in should answer in tests");
  return s;
};

type User = AccountingUser;
const today = () => new Date().toISOString().slice(0, 10);

/** Connect → the stand-in's consent page → Connect → the callback. */
async function connect(cookie: string) {
  await connectThroughStandIn("quickbooks", cookie);
}

/** Connect, then preview and import: the company's realm id. */
async function connectAndImport(user: User) {
  await connect(cookieOf(user));
  const { tenantId, cookie } = await importFromTab(user, "quickbooks");
  return { realmId: tenantId, cookie };
}

const accountsOf = (realmId: string) => listQboObjects<QboAccount>(env, realmId, "account");
const qboPayments = (realmId: string) => listQboObjects<StoredQboPayment>(env, realmId, "payment");
const qboInvoice = async (realmId: string, id: string) =>
  (await getQboObject<StoredQboInvoice>(env, "invoice", realmId, id))?.data;

/** The setting on, with the company's bank account `number`. */
async function turnOn(cookie: string, realmId: string, number = "1010") {
  const account = (await accountsOf(realmId)).find((a) => a.AcctNum === number)!;
  const res = await formAction(
    "/iam/accounting",
    { intent: "accounting-writeback", writeback: "on", account: account.Id },
    cookie,
  );
  expect(res.status, JSON.stringify(res.data)).toBe(200);
  return account;
}

/** Cool Cars' open invoice 1003 (820.00 USD) as Dunly and QuickBooks have it. */
async function coolCars(user: User, realmId: string) {
  const debtor = (await debtorRowsOf(user.id)).find((d) => d.full_name === "Cool Cars")!;
  const invoice = await env.DB.prepare(
    "SELECT id, number, external_id FROM invoices WHERE debtor_id = ? AND status = 'open'",
  )
    .bind(debtor.id)
    .first<{ id: number; number: string; external_id: string }>();
  const books = (await qboInvoice(realmId, invoice!.external_id))!;
  expect(books).toMatchObject({ DocNumber: "1003", Balance: 820 });
  return { debtor, invoice: invoice!, books };
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
      invoice_id: number;
      provider: string;
      status: string;
      attempts: number;
      refusals: number;
      next_attempt_at: number | null;
      external_payment_id: string | null;
      last_error: string | null;
      account_id: string;
    }>()
  ).results;

/** The sender runs (as the watchdog would) until the owner's rows are written: what waitUntil started may hold them a moment. */
async function untilSent(ownerId: string) {
  await vi.waitFor(
    async () => {
      await sendWritebacks(db(), setups(), { ownerId });
      const rows = await writebacksOf(ownerId);
      expect(rows.length).toBeGreaterThan(0);
      expect(rows.every((r) => r.status === "sent")).toBe(true);
    },
    { timeout: 5000, interval: 100 },
  );
  return writebacksOf(ownerId);
}

const dueNow = (ownerId: string) =>
  env.DB.prepare("UPDATE accounting_writebacks SET next_attempt_at = 0 WHERE owner_id = ? AND status = 'pending'")
    .bind(ownerId)
    .run();

describe("off (the default)", () => {
  it("writes nothing to QuickBooks and tells the user to record the payment there", async () => {
    const user = await makeSignedInUser();
    const { cookie, realmId } = await connectAndImport(user);
    const tab = await visibleText(await get("/iam/accounting", { cookie }));
    expect(tab).toContain("Record Dunly's payments in QuickBooks");
    expect(tab).toContain(
      "Off: Dunly does not write to your books. A payment you record in Dunly on an invoice from QuickBooks",
    );
    const { debtor, invoice } = await coolCars(user, realmId);
    const paid = await payByForm(cookie, debtor.id, invoice.id);
    expect(paid.status).toBe(200);
    expect(paid.data.message).toContain(
      "Record this payment in QuickBooks too: Dunly does not write to your books unless you turn that on in Settings → Accounting.",
    );
    expect(await writebacksOf(user.id)).toHaveLength(0);
    await sendWritebacks(db(), setups(), { ownerId: user.id });
    expect(await qboPayments(realmId)).toHaveLength(0);
    expect((await qboInvoice(realmId, invoice.external_id))?.Balance).toBe(820);
  });
});

describe("the setting", () => {
  it("lists QuickBooks' active bank accounts; refusals are field errors naming QuickBooks that keep the choice", async () => {
    const user = await makeSignedInUser();
    const { cookie, realmId } = await connectAndImport(user);
    const tab = await visibleText(await get("/iam/accounting", { cookie }));
    expect(tab).toContain("Checking (1010)");
    expect(tab).toContain("Savings (1020)");
    expect(tab).not.toContain("Old Checking");
    expect(tab).not.toContain("Undeposited Funds");
    const none = await formAction("/iam/accounting", { intent: "accounting-writeback", writeback: "on" }, cookie);
    expect(none.status).toBe(400);
    expect(replyErrors(none.data).account).toEqual([
      "Choose the bank account in QuickBooks that Dunly's payments go to",
    ]);
    const inactive = (await accountsOf(realmId)).find((a) => a.AcctNum === "1030")!;
    const refused = await formAction(
      "/iam/accounting",
      { intent: "accounting-writeback", writeback: "on", account: inactive.Id },
      cookie,
    );
    expect(refused.status).toBe(400);
    expect(replyErrors(refused.data).account).toEqual([
      "This is not one of your active bank accounts in QuickBooks any more: choose another",
    ]);
    expect(refused.data.result.initialValue).toMatchObject({ writeback: "on", account: inactive.Id });
    expect((await connectionOf(db(), user.id))?.writebackAccountId).toBeNull();
    const account = await turnOn(cookie, realmId);
    expect(await connectionOf(db(), user.id)).toMatchObject({
      writebackAccountId: account.Id,
      writebackAccountName: "Checking (1010)",
    });
    expect(await visibleText(await get("/iam/accounting", { cookie }))).toContain(
      "is recorded in QuickBooks too, against that invoice, into Checking (1010).",
    );
    const off = await formAction("/iam/accounting", { intent: "accounting-writeback" }, cookie);
    expect(off.data.message).toBe("Dunly no longer records its payments in QuickBooks: record them there yourself.");
    expect((await connectionOf(db(), user.id))?.writebackAccountId).toBeNull();
    // Connected again to another company: its accounts are others, the setting starts off.
    await turnOn(cookie, realmId);
    await connect(cookie);
    const again = await connectionOf(db(), user.id);
    expect(again?.tenantId).not.toBe(realmId);
    expect(again).toMatchObject({ provider: "quickbooks", writebackAccountId: null, writebackAccountName: null });
  });

  it("a Xero organisation's bank account never carries over to QuickBooks", async () => {
    const user = await makeSignedInUser();
    const cookie = cookieOf(user);
    const started = await postForm("/iam/accounting/xero/connect", {}, { cookie });
    const consent = new URL(location(started)!);
    const allowed = await postForm("/dev/xero/authorize", [...consent.searchParams.entries(), ["decision", "allow"]], {
      cookie,
    });
    const back = new URL(location(allowed)!);
    await get(back.pathname + back.search, { cookie });
    await env.DB.prepare(
      "UPDATE accounting_connections SET writeback_account_id = 'xero-account', writeback_account_name = 'Business Bank Account (090)' WHERE owner_id = ?",
    )
      .bind(user.id)
      .run();
    await connect(cookie);
    expect(await connectionOf(db(), user.id)).toMatchObject({
      provider: "quickbooks",
      writebackAccountId: null,
      writebackAccountName: null,
    });
  });
});

describe("on", () => {
  it("writes one payment to QuickBooks, once: a replay makes no second one; the sync records nothing twice", async () => {
    const user = await makeSignedInUser();
    const { cookie, realmId } = await connectAndImport(user);
    const account = await turnOn(cookie, realmId);
    const { debtor, invoice, books } = await coolCars(user, realmId);
    const paid = await payByForm(cookie, debtor.id, invoice.id);
    expect(paid.data.message).toContain("Dunly records it in QuickBooks too.");
    const [row] = await untilSent(user.id);
    expect(row).toMatchObject({ provider: "quickbooks", account_id: account.Id, attempts: 1, last_error: null });
    const inBooks = await qboPayments(realmId);
    expect(inBooks).toHaveLength(1);
    expect(inBooks[0]).toMatchObject({
      Id: row!.external_payment_id,
      CustomerRef: { value: books.CustomerRef?.value },
      TotalAmt: 120,
      UnappliedAmt: 0,
      TxnDate: today(),
      DepositToAccountRef: { value: account.Id },
      PrivateNote: "Cheque 42",
      Line: [{ Amount: 120, LinkedTxn: [{ TxnId: books.Id, TxnType: "Invoice" }] }],
    });
    expect((await qboInvoice(realmId, books.Id))?.Balance).toBe(700);
    // The requestid: QuickBooks' limit of 50 characters, the same for every attempt of the row.
    const requestId = await quickBooksRequestId({
      ownerId: user.id,
      paymentId: row!.payment_id,
      invoiceId: invoice.id,
      refusals: 0,
    });
    expect(requestId.length).toBeLessThanOrEqual(50);
    expect(
      await getQboObject(
        env,
        "idempotency",
        realmId,
        [...new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(requestId)))]
          .map((b) => b.toString(16).padStart(2, "0"))
          .join(""),
      ),
    ).toBeTruthy();
    // The tab counts it; /dev/quickbooks lists it with its bank account.
    expect(await visibleText(await get("/iam/accounting", { cookie }))).toMatch(
      /Payments Dunly wrote to QuickBooks\s*1/,
    );
    const page = await visibleText(await get("/dev/quickbooks", { cookie }));
    expect(page).toContain("Cheque 42");
    expect(page).toContain("Checking (1010)");

    // Replayed (a sender that lost its answer writes the row again): the same requestid, the same payment.
    await env.DB.prepare(
      "UPDATE accounting_writebacks SET status = 'pending', next_attempt_at = 0, external_payment_id = NULL WHERE id = ?",
    )
      .bind(row!.id)
      .run();
    const [again] = await untilSent(user.id);
    expect(again!.external_payment_id).toBe(row!.external_payment_id);
    expect(await qboPayments(realmId)).toHaveLength(1);
    expect((await qboInvoice(realmId, books.Id))?.Balance).toBe(700);

    // The next sync sees QuickBooks' Balance equal what Dunly owes: no payment from QuickBooks, even from scratch.
    const synced = await formAction("/iam/accounting", { intent: "accounting-sync" }, cookie);
    expect(synced.data.message).toContain("nothing changed");
    await env.DB.prepare("UPDATE accounting_connections SET sync_cursor = NULL WHERE owner_id = ?").bind(user.id).run();
    await formAction("/iam/accounting", { intent: "accounting-sync" }, cookie);
    expect((await paymentsOf(debtor.id)).map((p) => [p.amount_cents, p.source])).toEqual([[12000, "manual"]]);
    // A later payment in QuickBooks itself is recorded from QuickBooks, and never written back.
    await addQboPayment(env, realmId, books.Id, 100);
    expect((await formAction("/iam/accounting", { intent: "accounting-sync" }, cookie)).data.message).toContain(
      "1 payment",
    );
    expect((await paymentsOf(debtor.id)).map((p) => p.source).sort()).toEqual(["manual", "quickbooks"]);
    await sendWritebacks(db(), setups(), { ownerId: user.id });
    expect(await writebacksOf(user.id)).toHaveLength(1);
    expect(await qboPayments(realmId)).toHaveLength(2);
    expect((await qboInvoice(realmId, books.Id))?.Balance).toBe(600);
  });

  it("a refusal is kept in words and retried with back-off under a new requestid; a busy QuickBooks keeps the same one", async () => {
    const user = await makeSignedInUser();
    const { cookie, realmId } = await connectAndImport(user);
    const account = await turnOn(cookie, realmId);
    const { debtor, invoice, books } = await coolCars(user, realmId);
    // Made inactive in QuickBooks (the stand-in's button) after it was chosen: QuickBooks refuses deposits into it.
    const other = await makeSignedInUser();
    const notTheirs = await postForm(
      "/dev/quickbooks/account",
      { account: account.Id, active: "false" },
      { cookie: cookieOf(other) },
    );
    expect(notTheirs.status).toBe(404);
    const made = await postForm("/dev/quickbooks/account", { account: account.Id, active: "false" }, { cookie });
    expect(made.status).toBe(303);
    expect(await visibleText(await get("/dev/quickbooks", { cookie }))).toContain("Make active: Checking");
    const written = await paymentEntity.add(entityScopeOf(user.id), debtor.id, {
      amount: 120,
      paid_on: today(),
      note: "",
      invoice_id: invoice.id,
    });
    expect("error" in written ? written : written.books).toEqual({ provider: "quickbooks", written: true });
    const before = Date.now();
    await sendWritebacks(db(), setups(), { ownerId: user.id });
    const [refused] = await writebacksOf(user.id);
    const words = `QuickBooks refused the payment of 120.00 USD on ${invoice.number}: Business Validation Error: The account Checking is inactive.`;
    expect(refused).toMatchObject({ status: "pending", attempts: 1, refusals: 1, last_error: words });
    expect(refused!.next_attempt_at).toBeGreaterThanOrEqual(before + 60_000);
    expect(await visibleText(await get("/iam/accounting", { cookie }))).toContain(words);
    expect(await qboPayments(realmId)).toHaveLength(0);
    // Busy: not QuickBooks' refusal, so the requestid stays (refusals unchanged).
    await postForm("/dev/quickbooks/account", { account: account.Id, active: "true" }, { cookie });
    expect((await accountsOf(realmId)).find((a) => a.Id === account.Id)?.Active).toBe(true);
    await putQboObject(env, "fault", realmId, "fault", { remaining: 9, retryAfter: 120 });
    await dueNow(user.id);
    await sendWritebacks(db(), setups(), { ownerId: user.id });
    const [busy] = await writebacksOf(user.id);
    expect(busy).toMatchObject({ status: "pending", attempts: 2, refusals: 1 });
    expect(busy!.last_error).toContain(
      `The payment of 120.00 USD on ${invoice.number} is not in QuickBooks yet: QuickBooks is busy`,
    );
    await putQboObject(env, "fault", realmId, "fault", { remaining: 0 });
    // An earlier attempt under this requestid still under way at QuickBooks: no answer yet, the same id later.
    const requestId = await quickBooksRequestId({
      ownerId: user.id,
      paymentId: busy!.payment_id,
      invoiceId: invoice.id,
      refusals: 1,
    });
    const requestIdKey = await sha256(requestId);
    await putQboObject(env, "idempotency", realmId, requestIdKey, { state: "under-way" });
    await dueNow(user.id);
    await sendWritebacks(db(), setups(), { ownerId: user.id });
    const [working] = await writebacksOf(user.id);
    expect(working).toMatchObject({ status: "pending", attempts: 3, refusals: 1 });
    expect(working!.last_error).toBe(
      `The payment of 120.00 USD on ${invoice.number} is not in QuickBooks yet: QuickBooks did not answer: Dunly tries again.`,
    );
    expect(await qboPayments(realmId)).toHaveLength(0);
    // Its answer kept under that id: the next attempt gets it, and nothing more is made.
    await receiveQboPayment(env, realmId, {
      CustomerRef: { value: books.CustomerRef?.value },
      TotalAmt: 120,
      DepositToAccountRef: { value: account.Id },
      Line: [{ Amount: 120, LinkedTxn: [{ TxnId: books.Id, TxnType: "Invoice" }] }],
    }).then((made) =>
      putQboObject(env, "idempotency", realmId, requestIdKey, { state: "done", status: 200, body: { Payment: made } }),
    );
    await dueNow(user.id);
    const [sent] = await untilSent(user.id);
    expect(sent).toMatchObject({ attempts: 4, refusals: 1, last_error: null });
    const [only, ...more] = await qboPayments(realmId);
    expect(more).toHaveLength(0);
    expect(sent!.external_payment_id).toBe(only!.Id);
    expect((await qboInvoice(realmId, books.Id))?.Balance).toBe(700);
  });

  it("another account's payments never reach this company; a disconnected company's rows are given up in words", async () => {
    const user = await makeSignedInUser();
    const other = await makeSignedInUser();
    const mine = await connectAndImport(user);
    await turnOn(mine.cookie, mine.realmId);
    const theirs = await connectAndImport(other);
    await turnOn(theirs.cookie, theirs.realmId, "1020");
    const a = await coolCars(user, mine.realmId);
    const b = await coolCars(other, theirs.realmId);
    // The other user cannot pay this user's invoice, even naming it: nothing is recorded.
    expect((await payByForm(theirs.cookie, b.debtor.id, a.invoice.id)).status).toBe(400);
    expect(await paymentsOf(a.debtor.id)).toHaveLength(0);
    await payByForm(theirs.cookie, b.debtor.id, b.invoice.id, "30");
    await untilSent(other.id);
    expect(await writebacksOf(user.id)).toHaveLength(0);
    expect(await qboPayments(mine.realmId)).toHaveLength(0);
    const [written] = await qboPayments(theirs.realmId);
    const savings = (await accountsOf(theirs.realmId)).find((x) => x.AcctNum === "1020")!;
    expect(written).toMatchObject({ TotalAmt: 30, DepositToAccountRef: { value: savings.Id } });
    // Disconnected before Dunly wrote it: given up, in words, nothing written.
    await paymentEntity.add(entityScopeOf(user.id), a.debtor.id, {
      amount: 50,
      paid_on: today(),
      note: "",
      invoice_id: a.invoice.id,
    });
    expect((await postForm("/iam/accounting/quickbooks/disconnect", {}, { cookie: mine.cookie })).status).toBe(303);
    await sendWritebacks(db(), setups(), { ownerId: user.id });
    const [gone] = await writebacksOf(user.id);
    expect(gone).toMatchObject({
      status: "failed",
      last_error: `The payment of 50.00 USD on ${a.invoice.number} is not in QuickBooks: QuickBooks was disconnected before Dunly wrote it. Record it in QuickBooks.`,
    });
    expect(await qboPayments(mine.realmId)).toHaveLength(0);
  });
});
