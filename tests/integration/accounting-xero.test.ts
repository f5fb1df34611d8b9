import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import {
  addStandInPayment,
  connectionOf,
  listStandInObjects,
  openToken,
  putStandInObject,
  runAccountingSyncs,
  voidStandInInvoice,
  type XeroContact,
  type XeroInvoice,
  xeroSession,
  xeroSetup,
} from "~/accounting/index.server";
import { FieldsRefused } from "~/domain/refused";
import { invoiceEntity } from "~/ledger/index.server";
import { readConfig } from "~/platform/config.server";
import { daytimeZone } from "../support/daytime-zone";
import { fireAndSend, resendDelivered } from "./engine-helpers";
import {
  debtorRowsOf,
  entityScopeOf,
  invoicesOf,
  makeDebtor,
  makeSchedule,
  makeSignedInUser,
  paymentsOf,
  scheduleRow,
} from "./fixtures";
import { get, location, ORIGIN, postForm, visibleText } from "./helpers";

/**
 * Xero sync through the local stand-in (decisions/060): connect (OAuth 2.0 with PKCE, tokens sealed
 * at rest), the first import after a preview, incremental syncs that settle the ledger from Xero's
 * payments and close voided invoices, the client's failure policy (429, refresh), owner scoping.
 */

const setup = () => {
  const s = xeroSetup(readConfig(env), env, ORIGIN);
  if (!s) throw new Error("the Xero stand-in should answer in tests");
  return s;
};
const KEY = () => readConfig(env).ACCOUNTING_TOKEN_KEY ?? "";

type User = Awaited<ReturnType<typeof makeSignedInUser>>;
const cookieOf = (u: User) => `dunly_session=${u.token}`;

/** Connect → the stand-in's consent page → Allow → the callback: the connection row. */
async function connect(user: User) {
  const cookie = cookieOf(user);
  const started = await postForm("/iam/accounting/xero/connect", {}, { cookie });
  expect(started.status).toBe(303);
  const consent = new URL(location(started)!);
  expect(consent.pathname).toBe("/dev/xero/authorize");
  expect(consent.searchParams.get("code_challenge_method")).toBe("S256");
  expect(consent.searchParams.get("scope")).toContain("offline_access");
  const page = await get(consent.pathname + consent.search, { cookie });
  expect(await visibleText(page)).toContain("Allow access");
  const allowed = await postForm("/dev/xero/authorize", [...consent.searchParams.entries(), ["decision", "allow"]], {
    cookie,
  });
  expect(allowed.status).toBe(303);
  const callback = new URL(location(allowed)!);
  expect(callback.pathname).toBe("/iam/accounting/xero/callback");
  const done = await get(callback.pathname + callback.search, { cookie });
  expect(done.status).toBe(303);
  expect(location(done)?.href).toBe(`${ORIGIN}/iam/accounting`);
  const row = await connectionOf(entityScopeOf(user.id).db, user.id);
  if (!row?.tenantId) throw new Error("not connected");
  return { row, tenantId: row.tenantId, cookie, callback };
}

const act = (cookie: string, intent: string) => postForm("/iam/accounting", { intent }, { cookie });

async function importAll(cookie: string) {
  const preview = await act(cookie, "accounting-preview");
  expect(preview.status).toBe(200);
  const imported = await act(cookie, "accounting-import");
  // Back to the tab, which shows the sync now, with the outcome as a toast.
  expect(imported.status).toBe(303);
  return {
    preview: await visibleText(preview),
    imported: decodeURIComponent(imported.headers.get("Set-Cookie") ?? ""),
  };
}

const syncedInvoicesOf = async (ownerId: string) =>
  (
    await env.DB.prepare(
      "SELECT id, debtor_id, number, amount_cents, paid_cents, status, external_id, source_provider FROM invoices WHERE owner_id = ? AND source_provider = 'xero' ORDER BY number",
    )
      .bind(ownerId)
      .all<{
        id: number;
        debtor_id: number;
        number: string;
        amount_cents: number;
        paid_cents: number;
        status: string;
        external_id: string;
      }>()
  ).results;

const xeroInvoices = (tenantId: string) => listStandInObjects<XeroInvoice>(env, tenantId, "invoice");

describe("connecting Xero", () => {
  it("goes through the consent page with PKCE and keeps only sealed tokens", async () => {
    const user = await makeSignedInUser();
    const { row } = await connect(user);
    expect(row).toMatchObject({ provider: "xero", status: "connected", tenantName: "Demo Company (stand-in)" });
    const access = await openToken(KEY(), user.id, row.accessToken);
    const refresh = await openToken(KEY(), user.id, row.refreshToken);
    expect(access).toMatch(/^standin-access-/);
    expect(refresh).toMatch(/^standin-refresh-/);
    // The database holds neither token in the clear, anywhere.
    const raw = JSON.stringify(
      await env.DB.prepare("SELECT * FROM accounting_connections WHERE owner_id = ?").bind(user.id).first(),
    );
    expect(raw).not.toContain(access!);
    expect(raw).not.toContain(refresh!);
    const standIn = await env.DB.prepare(
      "SELECT count(*) AS n FROM dev_xero_objects WHERE id = ? OR instr(data, ?) > 0",
    )
      .bind(access, access)
      .first<{ n: number }>();
    expect(standIn?.n).toBe(0);
    // Sealed for this owner: another account's id does not open it.
    expect(await openToken(KEY(), "someone-else", row.accessToken)).toBeNull();
    expect(await visibleText(await get("/iam/accounting", { cookie: cookieOf(user) }))).toContain(
      "Connected to Xero: Demo Company (stand-in)",
    );
  });

  it("refuses a callback whose state is another user's, or used twice", async () => {
    const user = await makeSignedInUser();
    const other = await makeSignedInUser();
    const started = await postForm("/iam/accounting/xero/connect", {}, { cookie: cookieOf(user) });
    const consent = new URL(location(started)!);
    const allowed = await postForm("/dev/xero/authorize", [...consent.searchParams.entries(), ["decision", "allow"]]);
    const callback = new URL(location(allowed)!);
    const stolen = await get(callback.pathname + callback.search, { cookie: cookieOf(other) });
    expect(stolen.status).toBe(303);
    expect(await connectionOf(entityScopeOf(other.id).db, other.id)).toBeUndefined();
    // Still usable by its owner once, then never again.
    await get(callback.pathname + callback.search, { cookie: cookieOf(user) });
    expect(await connectionOf(entityScopeOf(user.id).db, user.id)).toBeDefined();
    await env.DB.prepare("DELETE FROM accounting_connections WHERE owner_id = ?").bind(user.id).run();
    await get(callback.pathname + callback.search, { cookie: cookieOf(user) });
    expect(await connectionOf(entityScopeOf(user.id).db, user.id)).toBeUndefined();
  });

  it("a denied consent connects nothing", async () => {
    const user = await makeSignedInUser();
    const started = await postForm("/iam/accounting/xero/connect", {}, { cookie: cookieOf(user) });
    const consent = new URL(location(started)!);
    const denied = await postForm("/dev/xero/authorize", [...consent.searchParams.entries(), ["decision", "deny"]]);
    const callback = new URL(location(denied)!);
    expect(callback.searchParams.get("error")).toBe("access_denied");
    await get(callback.pathname + callback.search, { cookie: cookieOf(user) });
    expect(await connectionOf(entityScopeOf(user.id).db, user.id)).toBeUndefined();
  });

  it("disconnect revokes the refresh token at Xero and deletes the tokens", async () => {
    const user = await makeSignedInUser();
    const { row } = await connect(user);
    const refresh = await openToken(KEY(), user.id, row.refreshToken);
    const res = await postForm("/iam/accounting/xero/disconnect", {}, { cookie: cookieOf(user) });
    expect(res.status).toBe(303);
    expect(await connectionOf(entityScopeOf(user.id).db, user.id)).toBeUndefined();
    const grant = await env.DB.prepare("SELECT count(*) AS n FROM dev_xero_objects WHERE kind = 'refresh' AND id = ?")
      .bind(
        [...new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(refresh!)))]
          .map((b) => b.toString(16).padStart(2, "0"))
          .join(""),
      )
      .first<{ n: number }>();
    expect(grant?.n).toBe(0);
  });
});

describe("the first import", () => {
  it("previews, then imports open sales invoices once: never drafts, paid ones or bills", async () => {
    const user = await makeSignedInUser();
    const { cookie } = await connect(user);
    const { preview, imported } = await importAll(cookie);
    expect(preview).toContain("3 customers, 5 open invoices, 2 overdue: they join your cadence after you confirm.");
    expect(imported).toContain("Imported 5 invoices of 3 customers from Xero.");
    const invoices = await syncedInvoicesOf(user.id);
    expect(invoices.map((i) => i.amount_cents)).toEqual([125000, 30050, 82000, 9999, 41000]);
    expect(invoices.every((i) => i.status === "open" && i.external_id)).toBe(true);
    // Each with a link to its page in Xero (the stand-in's row here).
    const withLinks = await env.DB.prepare("SELECT external_id, source_url FROM invoices WHERE owner_id = ?")
      .bind(user.id)
      .all<{ external_id: string; source_url: string }>();
    expect(withLinks.results.map((i) => i.source_url)).toEqual(
      withLinks.results.map((i) => `${ORIGIN}/dev/xero#invoice-${i.external_id}`),
    );
    const debtors = await debtorRowsOf(user.id);
    expect(debtors).toHaveLength(3);
    expect(debtors.find((d) => d.full_name === "Ridgeway University")).toMatchObject({
      contact_name: "Ana Ruiz",
      currency: "USD",
      debt_cents: 155050,
      source_provider: "xero",
    });
    // Never twice: a second import is refused, a sync adds nothing.
    expect(await visibleText(await act(cookie, "accounting-import"))).toContain("imported already");
    expect((await act(cookie, "accounting-import")).status).toBe(409);
    expect(await visibleText(await act(cookie, "accounting-sync"))).toContain("nothing changed");
    expect(await syncedInvoicesOf(user.id)).toHaveLength(5);
    const again = await env.DB.prepare(
      "INSERT INTO invoices (owner_id, debtor_id, amount_cents, currency, issued_on, due_on, source_provider, external_id) VALUES (?, ?, 100, 'USD', '2026-01-01', '2026-01-01', 'xero', ?)",
    )
      .bind(user.id, invoices[0]!.debtor_id, invoices[0]!.external_id)
      .run()
      .catch((e: Error) => e);
    expect(String(again)).toContain("UNIQUE");
    const page = await visibleText(await get("/iam/accounting", { cookie }));
    expect(page).toContain("Invoices from Xero");
    expect(page).toContain("5 (5 still owed)");
  });

  it("reads every page of over a hundred invoices", async () => {
    const user = await makeSignedInUser();
    const { cookie, tenantId } = await connect(user);
    const contact: XeroContact = {
      ContactID: crypto.randomUUID(),
      Name: "Bulk Buyer Ltd",
      EmailAddress: `bulk-${tenantId}@buyer.example`,
      DefaultCurrency: "USD",
    };
    await putStandInObject(env, "contact", contact.ContactID, tenantId, contact);
    const now = Date.now();
    const statements = Array.from({ length: 230 }, (_, i) => {
      const id = crypto.randomUUID();
      const invoice = {
        Type: "ACCREC",
        InvoiceID: id,
        InvoiceNumber: `BULK-${tenantId.slice(0, 6)}-${i}`,
        Contact: { ContactID: contact.ContactID, Name: contact.Name },
        DateString: "2026-01-05T00:00:00",
        DueDateString: "2026-02-05T00:00:00",
        Status: "AUTHORISED",
        CurrencyCode: "USD",
        Total: 10 + i,
        AmountDue: 10 + i,
        UpdatedDateUTC: `/Date(${now + i}+0000)/`,
      };
      return env.DB.prepare(
        "INSERT INTO dev_xero_objects (id, kind, tenant_id, data, updated_at) VALUES (?, 'invoice', ?, ?, ?)",
      ).bind(id, tenantId, JSON.stringify(invoice), now + i);
    });
    await env.DB.batch(statements);
    const { preview } = await importAll(cookie);
    expect(preview).toContain("4 customers, 235 open invoices");
    expect(await syncedInvoicesOf(user.id)).toHaveLength(235);
  });
});

describe("the sync", () => {
  it("a payment in Xero settles the ledger and completes the debtor's schedule; a void closes", async () => {
    const user = await makeSignedInUser();
    const { cookie, tenantId } = await connect(user);
    await importAll(cookie);
    const debtor = (await debtorRowsOf(user.id)).find((d) => d.full_name === "Bayside Club")!;
    const scheduleId = await makeSchedule(user.id, debtor.id);
    const [bayside] = (await xeroInvoices(tenantId)).filter(
      (i) => i.Contact.Name === "Bayside Club" && i.Status === "AUTHORISED",
    );
    // Part first: the invoice owes less, the reminders go on.
    await addStandInPayment(env, bayside!.InvoiceID, 200);
    expect(await visibleText(await act(cookie, "accounting-sync"))).toContain("Synced with Xero: 1 payment");
    expect((await invoicesOf(debtor.id))[0]).toMatchObject({ paid_cents: 20000, status: "open" });
    expect((await scheduleRow(scheduleId))?.state).toBe("ENABLED");
    // Then the rest: paid in full, the schedule completes as for any payment.
    await addStandInPayment(env, bayside!.InvoiceID, 620);
    await act(cookie, "accounting-sync");
    expect((await invoicesOf(debtor.id))[0]).toMatchObject({ paid_cents: 82000, status: "paid" });
    expect(await scheduleRow(scheduleId)).toMatchObject({ state: "COMPLETED", stopped_reason: "paid" });
    const payments = await paymentsOf(debtor.id);
    expect(payments.map((p) => [p.amount_cents, p.source])).toEqual([
      [20000, "xero"],
      [62000, "xero"],
    ]);
    // The same state synced again records nothing more.
    await env.DB.prepare("UPDATE accounting_connections SET sync_cursor = NULL WHERE owner_id = ?").bind(user.id).run();
    await act(cookie, "accounting-sync");
    expect(await paymentsOf(debtor.id)).toHaveLength(2);

    const [city] = (await xeroInvoices(tenantId)).filter(
      (i) => i.Contact.Name === "City Agency" && i.Status === "AUTHORISED",
    );
    expect(await voidStandInInvoice(env, city!.InvoiceID)).toBe(true);
    expect(await visibleText(await act(cookie, "accounting-sync"))).toContain("1 invoice voided");
    expect((await syncedInvoicesOf(user.id)).find((i) => i.external_id === city!.InvoiceID)?.status).toBe("void");
  });

  it("new open invoices in Xero come in at the next sync", async () => {
    const user = await makeSignedInUser();
    const { cookie, tenantId } = await connect(user);
    await importAll(cookie);
    const [contact] = await listStandInObjects<XeroContact>(env, tenantId, "contact");
    const id = crypto.randomUUID();
    await putStandInObject(env, "invoice", id, tenantId, {
      Type: "ACCREC",
      InvoiceID: id,
      InvoiceNumber: `NEW-${tenantId.slice(0, 6)}`,
      Contact: { ContactID: contact!.ContactID, Name: contact!.Name },
      DateString: "2026-01-05T00:00:00",
      DueDateString: "2026-02-05T00:00:00",
      Status: "AUTHORISED",
      CurrencyCode: "USD",
      Total: 42,
      AmountDue: 42,
      UpdatedDateUTC: `/Date(${Date.now() + 5000}+0000)/`,
    });
    expect(await visibleText(await act(cookie, "accounting-sync"))).toContain("1 new invoice");
    expect(await syncedInvoicesOf(user.id)).toHaveLength(6);
  });

  it("synced invoices are read-only; another user's stand-in invoice is not found", async () => {
    const user = await makeSignedInUser();
    const other = await makeSignedInUser();
    const { cookie, tenantId } = await connect(user);
    await importAll(cookie);
    const [invoice] = await syncedInvoicesOf(user.id);
    const scope = entityScopeOf(user.id);
    await expect(
      invoiceEntity.edit(scope, invoice!.id, {
        amount: 1,
        currency: "USD",
        number: "X",
        issued_on: "2026-01-01",
        due_on: "2026-01-02",
      } as never),
    ).rejects.toBeInstanceOf(FieldsRefused);
    await expect(invoiceEntity.void(scope, invoice!.id)).rejects.toBeInstanceOf(FieldsRefused);
    // Another user's write finds nothing.
    expect(await invoiceEntity.void(entityScopeOf(other.id), invoice!.id)).toBeUndefined();
    const [xero] = await xeroInvoices(tenantId);
    const res = await postForm("/dev/xero/pay", { invoice: xero!.InvoiceID, amount: "1" }, { cookie: cookieOf(other) });
    expect(res.status).toBe(404);
  });

  it("waits out a 429 with Retry-After, and says so in words when Xero stays busy", async () => {
    const user = await makeSignedInUser();
    const { cookie, tenantId } = await connect(user);
    await putStandInObject(env, "fault", `fault:${tenantId}`, tenantId, { remaining: 1, retryAfter: 1 });
    const started = Date.now();
    const preview = await act(cookie, "accounting-preview");
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
    expect(await visibleText(preview)).toContain("3 customers");
    await putStandInObject(env, "fault", `fault:${tenantId}`, tenantId, { remaining: 9, retryAfter: 120 });
    // The import starts; its step waits, and goes on a minute later (the jobs queue).
    const busy = await act(cookie, "accounting-import");
    expect(busy.status).toBe(303);
    const toast = decodeURIComponent(busy.headers.get("Set-Cookie") ?? "");
    expect(toast).toContain("Xero is busy: this organisation reached its limit of calls a minute.");
    expect(toast).toContain("The import goes on in a minute.");
    const row = await connectionOf(entityScopeOf(user.id).db, user.id);
    expect(row?.lastError).toContain("Xero is busy");
    expect(row).toMatchObject({ importPage: 1, importedAt: null, syncLeaseUntil: null });
    expect(await syncedInvoicesOf(user.id)).toHaveLength(0);
    const tab = await visibleText(await get("/iam/accounting", { cookie }));
    expect(tab).toContain("Importing from Xero: 0 invoices of 0 customers in so far.");
    expect(tab).toContain("Xero is busy");
  });

  it("two refreshes racing leave one working grant; a refused refresh asks to reconnect", async () => {
    const user = await makeSignedInUser();
    await connect(user);
    const db = entityScopeOf(user.id).db;
    await env.DB.prepare("UPDATE accounting_connections SET access_expires_at = 0 WHERE owner_id = ?")
      .bind(user.id)
      .run();
    const row = (await connectionOf(db, user.id))!;
    const [a, b] = await Promise.all([
      xeroSession(db, setup(), row).accessToken(),
      xeroSession(db, setup(), row).accessToken(),
    ]);
    const stored = (await connectionOf(db, user.id))!;
    expect(stored.status).toBe("connected");
    const current = await openToken(KEY(), user.id, stored.accessToken);
    expect([a, b]).toEqual([current, current]);
    // The stored refresh token still works (it was the winner's).
    const fresh = await xeroSession(db, setup(), { ...stored, accessExpiresAt: 0 }).accessToken();
    expect(fresh).toMatch(/^standin-access-/);
    // Revoked at Xero: the next refresh marks the connection for reconnecting, in words.
    await env.DB.prepare("DELETE FROM dev_xero_objects WHERE kind = 'refresh' AND tenant_id = ?")
      .bind(stored.tenantId)
      .run();
    const latest = (await connectionOf(db, user.id))!;
    await expect(xeroSession(db, setup(), { ...latest, accessExpiresAt: 0 }).accessToken()).rejects.toThrow(
      "Connect Xero again",
    );
    expect((await connectionOf(db, user.id))?.status).toBe("reconnect");
    expect(await visibleText(await get("/iam/accounting", { cookie: cookieOf(user) }))).toContain(
      "Xero refused: the connection has expired. Connect Xero again",
    );
  });
});

describe("when the books go quiet", () => {
  it("reminders of synced invoices wait after 24 hours without a sync, and go once a sync succeeds", async () => {
    const user = await makeSignedInUser();
    const { cookie } = await connect(user);
    await importAll(cookie);
    const synced = (await debtorRowsOf(user.id)).find((d) => d.full_name === "Bayside Club")!;
    await env.DB.prepare("UPDATE debtors SET time_zone = ? WHERE id = ?").bind(daytimeZone(), synced.id).run();
    // A debtor of the user's own, typed in: its reminders do not depend on Xero.
    const own = await makeDebtor(user.id, { fullName: "Own Debtor" });
    const syncedSchedule = await makeSchedule(user.id, synced.id, { frequency: "now" });
    const ownSchedule = await makeSchedule(user.id, own.id, { frequency: "now" });
    const now = Date.now() + 2 * 60_000;
    const lastSync = (at: number) =>
      env.DB.prepare("UPDATE accounting_connections SET last_sync_at = ? WHERE owner_id = ?").bind(at, user.id).run();

    await lastSync(now - 25 * 3_600_000);
    const waiting = await fireAndSend(syncedSchedule, now);
    expect(waiting).toMatchObject({ kind: "deferred" });
    if (waiting.kind !== "deferred") throw new Error("not deferred");
    expect(waiting.reason).toContain("Waiting for Xero: Dunly has not synced with Xero for over 24 hours");
    expect(waiting.nextAlarmAt).toBe(now + 3_600_000);
    const row = await env.DB.prepare("SELECT status, error FROM deliveries WHERE occurrence_key = ?")
      .bind(waiting.occurrenceKey)
      .first<{ status: string; error: string }>();
    expect(row).toMatchObject({ status: "deferred", error: waiting.reason });
    expect(await resendDelivered(synced.email)).toHaveLength(0);
    expect(await visibleText(await get("/iam/accounting", { cookie }))).toContain(
      "Reminders of invoices from Xero are waiting",
    );
    // The user's own debtor is reminded all the same.
    expect(await fireAndSend(ownSchedule, now)).toMatchObject({ kind: "done", status: "sent" });

    // A sync succeeds: the same occurrence goes, once.
    await lastSync(now - 60_000);
    expect(await fireAndSend(syncedSchedule, now + 60_000)).toMatchObject({ kind: "done", status: "sent" });
    expect(await resendDelivered(synced.email)).toHaveLength(1);
    const [occurrence] = (
      await env.DB.prepare("SELECT status FROM deliveries WHERE schedule_id = ?").bind(syncedSchedule).all<{
        status: string;
      }>()
    ).results;
    expect(occurrence?.status).toBe("sent");
  });

  it("a connection Xero no longer accepts e-mails the user once, and connecting again clears it", async () => {
    const user = await makeSignedInUser();
    const { cookie } = await connect(user);
    await importAll(cookie);
    await env.DB.prepare("UPDATE accounting_connections SET status = 'reconnect' WHERE owner_id = ?")
      .bind(user.id)
      .run();
    const notices = () =>
      env.DB.prepare(
        "SELECT kind, recipient, payload FROM emails WHERE owner_id = ? AND idem_key LIKE 'books_reconnect:%'",
      )
        .bind(user.id)
        .all<{ kind: string; recipient: string; payload: string }>()
        .then((r) => r.results);
    await runAccountingSyncs(env);
    await runAccountingSyncs(env);
    const told = await notices();
    expect(told).toHaveLength(1);
    expect(told[0]).toMatchObject({ kind: "account-notice", recipient: user.email });
    expect(told[0]!.payload).toContain("books_reconnect");
    expect(told[0]!.payload).toContain("/iam/accounting");
    expect((await connectionOf(entityScopeOf(user.id).db, user.id))?.reconnectToldAt).not.toBeNull();
    // Connected again: a later loss is told again.
    await connect(user);
    expect((await connectionOf(entityScopeOf(user.id).db, user.id))?.reconnectToldAt).toBeNull();
  });
});
