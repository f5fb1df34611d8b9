import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import {
  addStandInPayment,
  connectionOf,
  listStandInObjects,
  STANDIN_WEBHOOK_KEY,
  type XeroInvoice,
  xeroPayload,
  xeroSignature,
} from "~/accounting/index.server";
import { paymentEntity } from "~/ledger/index.server";
import { turnAutopilotOn } from "~/reminders/index.server";
import { type AccountingUser, connectAndImport } from "./accounting-helpers";
import {
  debtorRowsOf,
  entityScopeOf,
  invoicesOf,
  makeSchedule,
  makeSignedInUser,
  paymentsOf,
  scheduleRow,
} from "./fixtures";
import { get, postForm, request } from "./helpers";

/**
 * Xero's webhook (decisions/062) through the local stand-in: POST /webhooks/xero verifies
 * x-xero-signature, answers Xero's "Intent to receive" (200 with an empty body, or 401), and a
 * signed payload syncs the organisation's accounts after the answer; a replay does no work. The
 * stand-in's buttons fire it, and the sync follows every change: payments, a deleted payment (the
 * invoice open and chased again, the user's own payment untouched), the due date, the amount.
 */

type User = AccountingUser;

/** A POST to the webhook as Xero makes it: no cookie, no Origin, the raw body and its signature. */
function deliver(body: string, signature: string | null) {
  const headers = new Headers({ "Content-Type": "application/json" });
  if (signature !== null) headers.set("x-xero-signature", signature);
  return request("/webhooks/xero", { method: "POST", headers, body });
}

const signed = async (body: string) => deliver(body, await xeroSignature(body, STANDIN_WEBHOOK_KEY));
const INTENT = () =>
  `{"events":[],"lastEventSequence":0,"firstEventSequence":0,"entropy":"${crypto.randomUUID().slice(0, 10)}"}`;

/** Xero's answer: the status, and never a body or a cookie. */
async function answerOf(res: Response) {
  expect(await res.text()).toBe("");
  expect(res.headers.get("Set-Cookie")).toBeNull();
  return res.status;
}

/** The debtor of a stand-in customer, with its open stand-in invoice. */
async function customer(user: User, tenantId: string, name: string) {
  const debtor = (await debtorRowsOf(user.id)).find((d) => d.full_name === name)!;
  const xero = (await listStandInObjects<XeroInvoice>(env, tenantId, "invoice")).find(
    (i) => i.Contact.Name === name && i.Status === "AUTHORISED",
  )!;
  const invoice = async () => (await invoicesOf(debtor.id)).find((i) => i.external_id === xero.InvoiceID)!;
  return { debtor, xero, invoice };
}

/** Waits for the sync the webhook runs after its answer. */
const eventually = <T>(check: () => Promise<T>) => vi.waitFor(check, { timeout: 10_000, interval: 100 });

const lastSyncAt = async (user: User) => (await connectionOf(entityScopeOf(user.id).db, user.id))?.lastSyncAt;

describe("POST /webhooks/xero: Intent to receive", () => {
  it("answers a correctly signed payload 200 and an incorrectly signed one 401, both with an empty body", async () => {
    const body = INTENT();
    expect(await answerOf(await signed(body))).toBe(200);
    expect(await answerOf(await deliver(body, await xeroSignature(body, "another key")))).toBe(401);
    expect(await answerOf(await deliver(body, await xeroSignature(`${body} `, STANDIN_WEBHOOK_KEY)))).toBe(401);
    expect(await answerOf(await deliver(body, null))).toBe(401);
    expect(await answerOf(await deliver(body, "garbage"))).toBe(401);
  });

  it("needs no Origin (the CSRF check exempts it) and refuses what is too large", async () => {
    const big = `{"events":[],"entropy":"${"x".repeat(300 * 1024)}"}`;
    expect((await signed(big)).status).toBe(413);
  });
});

describe("a signed payload syncs the organisation's account", () => {
  it("a payment added in the stand-in settles the invoice through the webhook, with no Sync now", async () => {
    const user = await makeSignedInUser();
    const { tenantId, cookie } = await connectAndImport(user, "xero");
    const bayside = await customer(user, tenantId, "Bayside Club");
    const scheduleId = await makeSchedule(user.id, bayside.debtor.id);
    const paid = await postForm("/dev/xero/pay", { invoice: bayside.xero.InvoiceID, amount: "820" }, { cookie });
    expect(paid.status).toBe(303);
    await eventually(async () => expect(await bayside.invoice()).toMatchObject({ paid_cents: 82000, status: "paid" }));
    await eventually(async () =>
      expect(await scheduleRow(scheduleId)).toMatchObject({ state: "COMPLETED", stopped_reason: "paid" }),
    );
    expect((await paymentsOf(bayside.debtor.id)).map((p) => [p.amount_cents, p.source])).toEqual([[82000, "xero"]]);
  });

  it("a bad signature changes nothing; the same payload correctly signed syncs", async () => {
    const user = await makeSignedInUser();
    const { tenantId } = await connectAndImport(user, "xero");
    const city = await customer(user, tenantId, "City Agency");
    await addStandInPayment(env, city.xero.InvoiceID, 50);
    const before = await lastSyncAt(user);
    const body = xeroPayload([{ tenantId, resourceId: city.xero.InvoiceID }], 1);
    expect(await answerOf(await deliver(body, await xeroSignature(body, "not the key")))).toBe(401);
    await new Promise((r) => setTimeout(r, 500));
    expect(await lastSyncAt(user)).toBe(before);
    expect((await city.invoice()).paid_cents).toBe(0);
    expect(await answerOf(await signed(body))).toBe(200);
    await eventually(async () => expect((await city.invoice()).paid_cents).toBe(5000));
  });

  it("a replayed payload does no work and changes nothing", async () => {
    const user = await makeSignedInUser();
    const { tenantId } = await connectAndImport(user, "xero");
    const city = await customer(user, tenantId, "City Agency");
    await addStandInPayment(env, city.xero.InvoiceID, 10);
    const body = xeroPayload([{ tenantId, resourceId: city.xero.InvoiceID }], 1);
    expect(await answerOf(await signed(body))).toBe(200);
    await eventually(async () => expect((await city.invoice()).paid_cents).toBe(1000));
    await eventually(async () =>
      expect((await connectionOf(entityScopeOf(user.id).db, user.id))?.syncLeaseUntil).toBeNull(),
    );
    const synced = await lastSyncAt(user);
    // The same bytes again, as a replay or Xero's retry: answered, but no sync runs.
    expect(await answerOf(await signed(body))).toBe(200);
    await new Promise((r) => setTimeout(r, 500));
    expect(await lastSyncAt(user)).toBe(synced);
    expect((await paymentsOf(city.debtor.id)).map((p) => p.amount_cents)).toEqual([1000]);
  });

  it("a change that arrives while a sync of the account is under way is synced once that one ends", async () => {
    const user = await makeSignedInUser();
    const { tenantId } = await connectAndImport(user, "xero");
    const city = await customer(user, tenantId, "City Agency");
    // Another sync holds the account (it read Xero before this change).
    const hold = (until: number | null) =>
      env.DB.prepare("UPDATE accounting_connections SET sync_lease_until = ? WHERE owner_id = ?")
        .bind(until, user.id)
        .run();
    await hold(Date.now() + 60_000);
    await addStandInPayment(env, city.xero.InvoiceID, 20);
    expect(await answerOf(await signed(xeroPayload([{ tenantId, resourceId: city.xero.InvoiceID }], 1)))).toBe(200);
    await new Promise((r) => setTimeout(r, 1000));
    expect((await city.invoice()).paid_cents).toBe(0);
    await hold(null);
    await eventually(async () => expect((await city.invoice()).paid_cents).toBe(2000));
  });

  it("an organisation no account imported, or a category Dunly does not read, syncs nothing", async () => {
    const user = await makeSignedInUser();
    const { tenantId } = await connectAndImport(user, "xero");
    const before = await lastSyncAt(user);
    const other = xeroPayload([{ tenantId: crypto.randomUUID(), resourceId: "x" }], 1);
    expect(await answerOf(await signed(other))).toBe(200);
    const subscription = JSON.stringify({
      events: [{ eventCategory: "SUBSCRIPTION", tenantId, resourceId: "s", eventType: "UPDATE" }],
      firstEventSequence: 1,
      lastEventSequence: 1,
      entropy: "X",
    });
    expect(await answerOf(await signed(subscription))).toBe(200);
    await new Promise((r) => setTimeout(r, 500));
    expect(await lastSyncAt(user)).toBe(before);
  });
});

describe("the sync follows every change of a synced invoice", () => {
  it("a new due date moves the invoice's due date, and the due-date plan follows", async () => {
    const user = await makeSignedInUser();
    await turnAutopilotOn(entityScopeOf(user.id));
    const { tenantId, cookie } = await connectAndImport(user, "xero");
    const city = await customer(user, tenantId, "City Agency");
    // City's earliest invoice (its two are due in 25 and 28 days): its steps come first.
    const [earliest] = (await listStandInObjects<XeroInvoice>(env, tenantId, "invoice"))
      .filter((i) => i.Contact.Name === "City Agency" && i.Status === "AUTHORISED")
      .sort((a, b) => String(a.DueDateString).localeCompare(String(b.DueDateString)));
    const schedule = async () =>
      env.DB.prepare("SELECT next_run_at FROM schedules WHERE debtor_id = ? AND state = 'ENABLED'")
        .bind(city.debtor.id)
        .first<{ next_run_at: number }>();
    const before = (await schedule())?.next_run_at;
    expect(before).toBeGreaterThan(Date.now());
    const due = new Date(Date.now() + 60 * 86_400_000).toISOString().slice(0, 10);
    const res = await postForm("/dev/xero/change", { invoice: earliest!.InvoiceID, due }, { cookie });
    expect(res.status).toBe(303);
    await eventually(async () =>
      expect((await invoicesOf(city.debtor.id)).find((i) => i.external_id === earliest!.InvoiceID)?.due_on).toBe(due),
    );
    await eventually(async () => expect((await schedule())?.next_run_at).toBeGreaterThan(before!));
    expect(await get("/dev/xero", { cookie }).then((r) => r.text())).toContain(due);
  });

  it("a changed total changes the amount owed", async () => {
    const user = await makeSignedInUser();
    const { tenantId, cookie } = await connectAndImport(user, "xero");
    const city = await customer(user, tenantId, "City Agency");
    const before = (await debtorRowsOf(user.id)).find((d) => d.id === city.debtor.id)!.debt_cents;
    const total = city.xero.Total + 100;
    await postForm("/dev/xero/change", { invoice: city.xero.InvoiceID, total: String(total) }, { cookie });
    await eventually(async () =>
      expect(await city.invoice()).toMatchObject({ amount_cents: Math.round(total * 100), status: "open" }),
    );
    expect((await debtorRowsOf(user.id)).find((d) => d.id === city.debtor.id)!.debt_cents).toBe(before + 10000);
  });

  it("a payment deleted in Xero reopens the invoice and it is chased again; the user's own payment stays", async () => {
    const user = await makeSignedInUser();
    await turnAutopilotOn(entityScopeOf(user.id));
    const { tenantId, cookie } = await connectAndImport(user, "xero");
    const bayside = await customer(user, tenantId, "Bayside Club");
    // The user records part of it in Dunly (Xero does not know); Xero then gets the rest, in full.
    const own = await paymentEntity.add(entityScopeOf(user.id), bayside.debtor.id, {
      amount: 100,
      paid_on: new Date().toISOString().slice(0, 10),
      note: "cash",
      invoice_id: (await bayside.invoice()).id,
    });
    expect("error" in own).toBe(false);
    await postForm("/dev/xero/pay", { invoice: bayside.xero.InvoiceID, amount: "820" }, { cookie });
    await eventually(async () => expect(await bayside.invoice()).toMatchObject({ paid_cents: 82000, status: "paid" }));
    const followers = async () =>
      (
        await env.DB.prepare("SELECT state, stopped_reason FROM schedules WHERE debtor_id = ? ORDER BY created_at")
          .bind(bayside.debtor.id)
          .all<{ state: string; stopped_reason: string | null }>()
      ).results;
    await eventually(async () => expect((await followers()).every((s) => s.state === "COMPLETED")).toBe(true));
    expect((await paymentsOf(bayside.debtor.id)).map((p) => [p.amount_cents, p.source]).sort()).toEqual([
      [10000, "manual"],
      [72000, "xero"],
    ]);

    // In Xero the payment is deleted: Xero has all 820 due again.
    expect((await postForm("/dev/xero/unpay", { invoice: bayside.xero.InvoiceID }, { cookie })).status).toBe(303);
    await eventually(async () => expect(await bayside.invoice()).toMatchObject({ paid_cents: 10000, status: "open" }));
    // Only Dunly's record of Xero's payment went; the user's own is untouched.
    expect((await paymentsOf(bayside.debtor.id)).map((p) => [p.amount_cents, p.source])).toEqual([[10000, "manual"]]);
    expect((await debtorRowsOf(user.id)).find((d) => d.id === bayside.debtor.id)?.status).toBe("active");
    // Owing again, the debtor is chased again: autopilot takes them back.
    await eventually(async () => expect((await followers()).some((s) => s.state === "ENABLED")).toBe(true));

    // Paid in Xero again: settled again, once.
    await postForm("/dev/xero/pay", { invoice: bayside.xero.InvoiceID, amount: "820" }, { cookie });
    await eventually(async () => expect((await bayside.invoice()).status).toBe("paid"));
    expect((await paymentsOf(bayside.debtor.id)).map((p) => [p.amount_cents, p.source]).sort()).toEqual([
      [10000, "manual"],
      [72000, "xero"],
    ]);
  });
});
