import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import {
  accountingSetups,
  connectionOf,
  importStep,
  listQboObjects,
  openToken,
  putQboObject,
  type QboCustomer,
  QUICKBOOKS_STANDIN_VERIFIER,
  qboInvoiceJson,
  quickBooksSession,
  quickBooksSetup,
  runAccountingSyncs,
  type StoredQboInvoice,
} from "~/accounting/index.server";
import { FieldsRefused } from "~/domain/refused";
import { intuitSignature } from "~/http/quickbooks-webhook.server";
import { invoiceEntity } from "~/ledger/index.server";
import { readConfig } from "~/platform/config.server";
import {
  debtorRowsOf,
  entityScopeOf,
  invoicesOf,
  makeSchedule,
  makeSignedInUser,
  paymentsOf,
  scheduleRow,
} from "./fixtures";
import { get, location, ORIGIN, postForm, request, visibleText } from "./helpers";

/**
 * QuickBooks Online through the local stand-in (decisions/061): connect (OAuth 2.0, the realmId
 * kept, tokens sealed), the first import after a preview (1,000 a page by startposition), change
 * data capture that settles the ledger from QuickBooks' payments and closes voided invoices, the
 * client's failure policy (429 back-off, one refresh for two requests), and the signed webhook.
 */

const setup = () => {
  const s = quickBooksSetup(readConfig(env), env, ORIGIN);
  if (!s) throw new Error("the QuickBooks stand-in should answer in tests");
  return s;
};
const KEY = () => readConfig(env).ACCOUNTING_TOKEN_KEY ?? "";

type User = Awaited<ReturnType<typeof makeSignedInUser>>;
const cookieOf = (u: User) => `dunly_session=${u.token}`;

/** Connect → the stand-in's consent page → Connect → the callback: the connection row. */
async function connect(user: User) {
  const cookie = cookieOf(user);
  const started = await postForm("/iam/accounting/quickbooks/connect", {}, { cookie });
  expect(started.status).toBe(303);
  const consent = new URL(location(started)!);
  expect(consent.pathname).toBe("/dev/quickbooks/authorize");
  expect(consent.searchParams.get("scope")).toBe("com.intuit.quickbooks.accounting");
  expect(await visibleText(await get(consent.pathname + consent.search, { cookie }))).toContain("Connect");
  const allowed = await postForm(
    "/dev/quickbooks/authorize",
    [...consent.searchParams.entries(), ["decision", "allow"]],
    { cookie },
  );
  expect(allowed.status).toBe(303);
  const callback = new URL(location(allowed)!);
  expect(callback.pathname).toBe("/iam/accounting/quickbooks/callback");
  expect(callback.searchParams.get("realmId")).toMatch(/^\d+$/);
  const done = await get(callback.pathname + callback.search, { cookie });
  expect(done.status).toBe(303);
  const row = await connectionOf(entityScopeOf(user.id).db, user.id);
  if (!row?.tenantId) throw new Error("not connected");
  return { row, realmId: row.tenantId, cookie };
}

const act = (cookie: string, intent: string) => postForm("/iam/accounting", { intent }, { cookie });

async function importAll(cookie: string) {
  const preview = await act(cookie, "accounting-preview");
  expect(preview.status).toBe(200);
  const imported = await act(cookie, "accounting-import");
  expect(imported.status).toBe(303);
  return {
    preview: await visibleText(preview),
    imported: decodeURIComponent(imported.headers.get("Set-Cookie") ?? ""),
  };
}

const syncedInvoicesOf = async (ownerId: string) =>
  (
    await env.DB.prepare(
      "SELECT id, debtor_id, number, amount_cents, paid_cents, status, external_id FROM invoices WHERE owner_id = ? AND source_provider = 'quickbooks' ORDER BY id",
    )
      .bind(ownerId)
      .all<{
        id: number;
        debtor_id: number;
        number: string | null;
        amount_cents: number;
        paid_cents: number;
        status: string;
        external_id: string;
      }>()
  ).results;

const qboInvoices = (realmId: string) => listQboObjects<StoredQboInvoice>(env, realmId, "invoice");

/** A change the app learns of after its answer (waitUntil): waits for it, a bounded while. */
async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean) {
  for (let i = 0; i < 100; i++) {
    const value = await read();
    if (done(value)) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return read();
}

async function postWebhook(body: string, signature: string | null) {
  const headers = new Headers({ "Content-Type": "application/json" });
  if (signature !== null) headers.set("intuit-signature", signature);
  return request("/webhooks/quickbooks", { method: "POST", headers, body });
}

describe("connecting QuickBooks", () => {
  it("keeps the company's realmId and name, only sealed tokens, and replaces a Xero connection", async () => {
    const user = await makeSignedInUser();
    // Xero first: connecting QuickBooks replaces it (one tool at a time).
    const xero = await postForm("/iam/accounting/xero/connect", {}, { cookie: cookieOf(user) });
    const xeroConsent = new URL(location(xero)!);
    const xeroAllowed = await postForm("/dev/xero/authorize", [
      ...xeroConsent.searchParams.entries(),
      ["decision", "allow"],
    ]);
    const xeroBack = new URL(location(xeroAllowed)!);
    await get(xeroBack.pathname + xeroBack.search, { cookie: cookieOf(user) });
    expect((await connectionOf(entityScopeOf(user.id).db, user.id))?.provider).toBe("xero");

    const { row } = await connect(user);
    expect(row).toMatchObject({
      provider: "quickbooks",
      status: "connected",
      tenantName: "Sandbox Company (stand-in)",
    });
    const access = await openToken(KEY(), user.id, row.accessToken);
    expect(access).toMatch(/^standin-qbo-access-/);
    const raw = JSON.stringify(
      await env.DB.prepare("SELECT * FROM accounting_connections WHERE owner_id = ?").bind(user.id).first(),
    );
    expect(raw).not.toContain(access!);
    const page = await visibleText(await get("/iam/accounting", { cookie: cookieOf(user) }));
    expect(page).toContain("Connected to QuickBooks: Sandbox Company (stand-in)");
    expect(page).toContain("Disconnect QuickBooks");
  });

  it("refuses a callback whose state is another user's; a denied consent connects nothing", async () => {
    const user = await makeSignedInUser();
    const other = await makeSignedInUser();
    const started = await postForm("/iam/accounting/quickbooks/connect", {}, { cookie: cookieOf(user) });
    const consent = new URL(location(started)!);
    const allowed = await postForm("/dev/quickbooks/authorize", [
      ...consent.searchParams.entries(),
      ["decision", "allow"],
    ]);
    const callback = new URL(location(allowed)!);
    await get(callback.pathname + callback.search, { cookie: cookieOf(other) });
    expect(await connectionOf(entityScopeOf(other.id).db, other.id)).toBeUndefined();

    const again = await postForm("/iam/accounting/quickbooks/connect", {}, { cookie: cookieOf(other) });
    const denied = await postForm("/dev/quickbooks/authorize", [
      ...new URL(location(again)!).searchParams.entries(),
      ["decision", "deny"],
    ]);
    const back = new URL(location(denied)!);
    expect(back.searchParams.get("error")).toBe("access_denied");
    await get(back.pathname + back.search, { cookie: cookieOf(other) });
    expect(await connectionOf(entityScopeOf(other.id).db, other.id)).toBeUndefined();
  });

  it("disconnect revokes the refresh token at Intuit and deletes the tokens", async () => {
    const user = await makeSignedInUser();
    const { row } = await connect(user);
    const refresh = await openToken(KEY(), user.id, row.refreshToken);
    const res = await postForm("/iam/accounting/quickbooks/disconnect", {}, { cookie: cookieOf(user) });
    expect(res.status).toBe(303);
    expect(await connectionOf(entityScopeOf(user.id).db, user.id)).toBeUndefined();
    const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(refresh!));
    const key = [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
    const grant = await env.DB.prepare("SELECT count(*) AS n FROM dev_quickbooks_objects WHERE id = ?")
      .bind(`refresh:-:${key}`)
      .first<{ n: number }>();
    expect(grant?.n).toBe(0);
  });
});

describe("the first import", () => {
  it("previews, then imports the open invoices once: never a paid one; synced invoices are read-only", async () => {
    const user = await makeSignedInUser();
    const { cookie } = await connect(user);
    const { preview, imported } = await importAll(cookie);
    expect(preview).toContain("3 customers, 5 open invoices, 2 overdue: they join your cadence after you confirm.");
    expect(imported).toContain("Imported 5 invoices of 3 customers from QuickBooks.");
    const invoices = await syncedInvoicesOf(user.id);
    expect(invoices.map((i) => [i.number, i.amount_cents])).toEqual([
      ["1001", 125000],
      ["1002", 30050],
      ["1003", 82000],
      ["1004", 9999],
      ["1005", 41000],
    ]);
    const debtors = await debtorRowsOf(user.id);
    expect(debtors.find((d) => d.full_name === "Amy's Bird Sanctuary")).toMatchObject({
      contact_name: "Amy Lauterbach",
      currency: "USD",
      debt_cents: 155050,
      source_provider: "quickbooks",
    });
    expect(await visibleText(await act(cookie, "accounting-import"))).toContain(
      "Your QuickBooks invoices were imported already",
    );
    expect(await visibleText(await act(cookie, "accounting-sync"))).toContain(
      "Synced with QuickBooks: nothing changed",
    );
    expect(await syncedInvoicesOf(user.id)).toHaveLength(5);
    const page = await visibleText(await get("/iam/accounting", { cookie }));
    expect(page).toContain("Invoices from QuickBooks");
    expect(page).toContain("5 (5 still owed)");
    // Read-only here, in QuickBooks' name.
    const refused = await invoiceEntity.void(entityScopeOf(user.id), invoices[0]!.id).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(FieldsRefused);
    expect((refused as FieldsRefused).message).toContain("This invoice comes from QuickBooks");
    const debtorPage = await visibleText(await get(`/debtors/${invoices[0]!.debtor_id}`, { cookie }));
    expect(debtorPage).toContain("From QuickBooks");
  });

  it("reads every page of 1,200 open invoices (startposition paging)", async () => {
    const user = await makeSignedInUser();
    const { cookie, realmId } = await connect(user);
    const customer: QboCustomer = {
      Id: "900",
      DisplayName: "Bulk Buyer Ltd",
      PrimaryEmailAddr: { Address: `bulk-${realmId}@buyer.example` },
      CurrencyRef: { value: "USD" },
    };
    await putQboObject(env, "customer", realmId, customer.Id, customer);
    const now = Date.now();
    const statements = Array.from({ length: 1200 }, (_, i) => {
      const id = String(1000 + i);
      const invoice = qboInvoiceJson(
        id,
        customer,
        { number: `B-${i}`, total: 10 + i, issued: "2026-01-05", due: "2026-02-05" },
        now,
      );
      return env.DB.prepare(
        "INSERT INTO dev_quickbooks_objects (id, kind, realm_id, data, updated_at) VALUES (?, 'invoice', ?, ?, ?)",
      ).bind(`invoice:${realmId}:${id}`, realmId, JSON.stringify(invoice), now + i);
    });
    await env.DB.batch(statements);
    const { preview } = await importAll(cookie);
    // The preview reads one page of 1,000 and says there are more.
    expect(preview).toContain("At least 4 customers, 1,000 open invoices");
    // The request's step read the first page of 1,000; the next (the jobs queue's) the rest.
    expect(await syncedInvoicesOf(user.id)).toHaveLength(1000);
    const scope = { ...entityScopeOf(user.id), currency: "USD", maxSchedules: 100_000 };
    expect(await importStep(scope, accountingSetups(readConfig(env), env, ORIGIN))).toMatchObject({
      kind: "done",
      invoices: 1205,
    });
    expect(await syncedInvoicesOf(user.id)).toHaveLength(1205);
  });
});

describe("the sync", () => {
  it("a payment in QuickBooks (its webhook) settles the ledger and stops the reminders; a void closes", async () => {
    const user = await makeSignedInUser();
    const { cookie, realmId } = await connect(user);
    await importAll(cookie);
    const debtor = (await debtorRowsOf(user.id)).find((d) => d.full_name === "Cool Cars")!;
    const scheduleId = await makeSchedule(user.id, debtor.id);
    const [cars] = (await qboInvoices(realmId)).filter(
      (i) => i.CustomerRef?.name === "Cool Cars" && (i.Balance ?? 0) > 0,
    );
    // Part first, through the stand-in's page: it fires the signed webhook; the reminders go on.
    expect((await postForm("/dev/quickbooks/pay", { invoice: cars!.Id, amount: "200" }, { cookie })).status).toBe(303);
    const part = await eventually(
      () => invoicesOf(debtor.id),
      (rows) => rows[0]?.paid_cents === 20000,
    );
    expect(part[0]).toMatchObject({ paid_cents: 20000, status: "open" });
    expect((await scheduleRow(scheduleId))?.state).toBe("ENABLED");
    // Then the rest: paid in full, the schedule completes as for any payment.
    await postForm("/dev/quickbooks/pay", { invoice: cars!.Id, amount: "620" }, { cookie });
    await eventually(
      () => scheduleRow(scheduleId),
      (row) => row?.state === "COMPLETED",
    );
    expect((await invoicesOf(debtor.id))[0]).toMatchObject({ paid_cents: 82000, status: "paid" });
    expect(await scheduleRow(scheduleId)).toMatchObject({ state: "COMPLETED", stopped_reason: "paid" });
    expect((await paymentsOf(debtor.id)).map((p) => [p.amount_cents, p.source])).toEqual([
      [20000, "quickbooks"],
      [62000, "quickbooks"],
    ]);
    // The same state read again records nothing more.
    await env.DB.prepare("UPDATE accounting_connections SET sync_cursor = ? WHERE owner_id = ?")
      .bind(new Date(Date.now() - 3_600_000).toISOString(), user.id)
      .run();
    await act(cookie, "accounting-sync");
    expect(await paymentsOf(debtor.id)).toHaveLength(2);

    const [sushi] = (await qboInvoices(realmId)).filter((i) => i.CustomerRef?.name === "Sushi by Katsuyuki");
    await postForm("/dev/quickbooks/void", { invoice: sushi!.Id }, { cookie });
    const voided = await eventually(
      () => syncedInvoicesOf(user.id),
      (rows) => rows.find((i) => i.external_id === sushi!.Id)?.status === "void",
    );
    expect(voided.find((i) => i.external_id === sushi!.Id)?.status).toBe("void");
    // Another user's invoice in the stand-in is not found.
    const other = await makeSignedInUser();
    const res = await postForm("/dev/quickbooks/pay", { invoice: sushi!.Id, amount: "1" }, { cookie: cookieOf(other) });
    expect(res.status).toBe(404);
  });

  it("a deleted invoice (change data capture's 'Deleted') is voided; a new open one comes in", async () => {
    const user = await makeSignedInUser();
    const { cookie, realmId } = await connect(user);
    await importAll(cookie);
    const [first] = await qboInvoices(realmId);
    await putQboObject(env, "invoice", realmId, first!.Id, {
      domain: "QBO",
      status: "Deleted",
      Id: first!.Id,
      MetaData: { LastUpdatedTime: new Date().toISOString() },
    });
    const [customer] = await listQboObjects<QboCustomer>(env, realmId, "customer");
    await putQboObject(
      env,
      "invoice",
      realmId,
      "77",
      qboInvoiceJson(
        "77",
        customer!,
        { number: "2077", total: 42, issued: "2026-01-05", due: "2026-02-05" },
        Date.now(),
      ),
    );
    const synced = await visibleText(await act(cookie, "accounting-sync"));
    expect(synced).toContain("1 new invoice");
    expect(synced).toContain("1 invoice voided");
    const rows = await syncedInvoicesOf(user.id);
    expect(rows).toHaveLength(6);
    expect(rows.find((i) => i.external_id === first!.Id)?.status).toBe("void");
  });

  it("a due date changed in QuickBooks moves the invoice's; each synced invoice links to its page there", async () => {
    const user = await makeSignedInUser();
    const { cookie, realmId } = await connect(user);
    await importAll(cookie);
    const [cars] = (await qboInvoices(realmId)).filter((i) => i.DocNumber === "1003");
    const { changeQboDueDate } = await import("~/accounting/index.server");
    expect(await changeQboDueDate(env, realmId, cars!.Id, "2027-03-31")).toBe(true);
    expect(await visibleText(await act(cookie, "accounting-sync"))).toContain("1 invoice changed");
    const row = await env.DB.prepare("SELECT due_on, source_url FROM invoices WHERE owner_id = ? AND external_id = ?")
      .bind(user.id, cars!.Id)
      .first<{ due_on: string; source_url: string }>();
    expect(row).toEqual({ due_on: "2027-03-31", source_url: `${ORIGIN}/dev/quickbooks#invoice-${cars!.Id}` });
  });

  it("a cursor older than change data capture's 30 days reads the changes by query instead", async () => {
    const user = await makeSignedInUser();
    const { cookie, realmId } = await connect(user);
    await importAll(cookie);
    const debtor = (await debtorRowsOf(user.id)).find((d) => d.full_name === "Cool Cars")!;
    const [cars] = (await qboInvoices(realmId)).filter((i) => i.DocNumber === "1003");
    const { addQboPayment } = await import("~/accounting/index.server");
    await addQboPayment(env, realmId, cars!.Id, 100);
    await env.DB.prepare("UPDATE accounting_connections SET sync_cursor = ? WHERE owner_id = ?")
      .bind(new Date(Date.now() - 40 * 86_400_000).toISOString(), user.id)
      .run();
    // The stand-in refuses change data capture that far back: only the query path can succeed.
    expect(await visibleText(await act(cookie, "accounting-sync"))).toContain("Synced with QuickBooks: 1 payment");
    expect((await paymentsOf(debtor.id)).map((p) => p.amount_cents)).toEqual([10000]);
    const cursor = (await connectionOf(entityScopeOf(user.id).db, user.id))?.syncCursor ?? "";
    expect(Date.now() - Date.parse(cursor)).toBeLessThan(60_000);
  });

  it("the watchdog syncs a QuickBooks connection like a Xero one: a payment with no webhook comes in", async () => {
    const user = await makeSignedInUser();
    const { cookie, realmId } = await connect(user);
    await importAll(cookie);
    const debtor = (await debtorRowsOf(user.id)).find((d) => d.full_name === "Sushi by Katsuyuki")!;
    const [sushi] = (await qboInvoices(realmId)).filter((i) => i.DocNumber === "1004");
    const { addQboPayment } = await import("~/accounting/index.server");
    await addQboPayment(env, realmId, sushi!.Id, 99.99);
    // Due first (never synced before any other connection).
    await env.DB.prepare("UPDATE accounting_connections SET last_sync_at = -1 WHERE owner_id = ?").bind(user.id).run();
    expect(await runAccountingSyncs(env)).toBeGreaterThanOrEqual(1);
    expect((await paymentsOf(debtor.id)).map((p) => [p.amount_cents, p.source])).toEqual([[9999, "quickbooks"]]);
    expect((await connectionOf(entityScopeOf(user.id).db, user.id))?.syncedPayments).toBe(1);
  });

  it("waits out a 429 (Retry-After, or a short back-off), and says so in words when QuickBooks stays busy", async () => {
    const user = await makeSignedInUser();
    const { cookie, realmId } = await connect(user);
    await putQboObject(env, "fault", realmId, "fault", { remaining: 1, retryAfter: 1 });
    let started = Date.now();
    expect(await visibleText(await act(cookie, "accounting-preview"))).toContain("3 customers");
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
    // No Retry-After: the client backs off on its own (2 s first).
    await putQboObject(env, "fault", realmId, "fault", { remaining: 1 });
    started = Date.now();
    expect(await visibleText(await act(cookie, "accounting-preview"))).toContain("3 customers");
    expect(Date.now() - started).toBeGreaterThanOrEqual(2000);
    await putQboObject(env, "fault", realmId, "fault", { remaining: 9, retryAfter: 120 });
    // The import starts; its step waits, and goes on a minute later (the jobs queue).
    const busy = await act(cookie, "accounting-import");
    expect(busy.status).toBe(303);
    const toast = decodeURIComponent(busy.headers.get("Set-Cookie") ?? "");
    expect(toast).toContain("QuickBooks is busy: this company reached its limit of calls a minute.");
    expect(toast).toContain("The import goes on in a minute.");
    const row = await connectionOf(entityScopeOf(user.id).db, user.id);
    expect(row?.lastError).toContain("QuickBooks is busy");
    expect(row).toMatchObject({ importPage: 1, importedAt: null });
    expect(await syncedInvoicesOf(user.id)).toHaveLength(0);
  });

  it("two refreshes at once make one token call; a refused refresh asks to reconnect", async () => {
    const user = await makeSignedInUser();
    const { realmId } = await connect(user);
    const db = entityScopeOf(user.id).db;
    await env.DB.prepare("UPDATE accounting_connections SET access_expires_at = 0 WHERE owner_id = ?")
      .bind(user.id)
      .run();
    const grants = async () =>
      (
        await env.DB.prepare("SELECT count(*) AS n FROM dev_quickbooks_objects WHERE kind = 'access' AND realm_id = ?")
          .bind(realmId)
          .first<{ n: number }>()
      )?.n ?? 0;
    const before = await grants();
    const row = (await connectionOf(db, user.id))!;
    const [a, b] = await Promise.all([
      quickBooksSession(db, setup(), row).accessToken(),
      quickBooksSession(db, setup(), row).accessToken(),
    ]);
    // One token call: one new access token, which both requests use.
    expect(await grants()).toBe(before + 1);
    const stored = (await connectionOf(db, user.id))!;
    expect(stored.status).toBe("connected");
    expect([a, b]).toEqual([await openToken(KEY(), user.id, stored.accessToken), a]);
    // Revoked at Intuit: the next refresh marks the connection for reconnecting, in words.
    await env.DB.prepare("DELETE FROM dev_quickbooks_objects WHERE kind = 'refresh'").run();
    await expect(quickBooksSession(db, setup(), { ...stored, accessExpiresAt: 0 }).accessToken()).rejects.toThrow(
      "Connect QuickBooks again",
    );
    expect((await connectionOf(db, user.id))?.status).toBe("reconnect");
    expect(await visibleText(await get("/iam/accounting", { cookie: cookieOf(user) }))).toContain(
      "QuickBooks refused: the connection has expired. Connect QuickBooks again",
    );
  });
});

describe("the webhook", () => {
  it("a good signature syncs that company's account; a bad or missing one is 401; a replay changes nothing", async () => {
    const user = await makeSignedInUser();
    const { cookie, realmId } = await connect(user);
    await importAll(cookie);
    const debtor = (await debtorRowsOf(user.id)).find((d) => d.full_name === "Amy's Bird Sanctuary")!;
    const [amy] = (await qboInvoices(realmId)).filter((i) => i.DocNumber === "1001");
    // Paid in QuickBooks, not yet notified.
    const { addQboPayment } = await import("~/accounting/index.server");
    await addQboPayment(env, realmId, amy!.Id, 1250);
    const body = JSON.stringify({
      eventNotifications: [
        {
          realmId,
          dataChangeEvent: {
            entities: [{ name: "Invoice", id: amy!.Id, operation: "Update", lastUpdated: new Date().toISOString() }],
          },
        },
      ],
    });
    const bad = await postWebhook(body, await intuitSignature(body, "not-the-verifier"));
    expect(bad.status).toBe(401);
    expect((await postWebhook(body, null)).status).toBe(401);
    expect((await postWebhook(body, "%%%")).status).toBe(401);
    expect(await paymentsOf(debtor.id)).toHaveLength(0);

    const good = await postWebhook(body, await intuitSignature(body, QUICKBOOKS_STANDIN_VERIFIER));
    expect(good.status).toBe(200);
    expect(await good.json()).toMatchObject({ ok: true, companies: 1 });
    const paid = await eventually(
      () => paymentsOf(debtor.id),
      (rows) => rows.length === 1,
    );
    expect(paid.map((p) => [p.amount_cents, p.source])).toEqual([[125000, "quickbooks"]]);

    const replay = await postWebhook(body, await intuitSignature(body, QUICKBOOKS_STANDIN_VERIFIER));
    expect(replay.status).toBe(200);
    expect(await replay.json()).toMatchObject({ ok: true, duplicate: true });
    expect(await paymentsOf(debtor.id)).toHaveLength(1);
  });
});
