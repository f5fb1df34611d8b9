import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { DEBTORS_BY_EMAIL } from "~/debtors/import.server";
import { apiJson, formAction, type Json, replyErrors } from "./data-helpers";
import { debtorRow, debtorRowsOf, invoicesOf, makeDebtor, makeInvoice, makeSignedInUser, payInvoice } from "./fixtures";
import { get, pageText, postForm } from "./helpers";
import { loaderData } from "./schedule-helpers";

/**
 * Invoices through the debtor pages' form action (the modal on
 * /debtors-list and /dashboard, the Invoices section of /debtors/:id) and the JSON API: the same
 * operation answers alike on both, scoped to the owner; and the add-debtor flow that offers the
 * debtor an e-mail already belongs to instead of making a twin. Messages are spelled out so a changed one fails here.
 */

const MSG = {
  added: "Invoice added.",
  updated: "Invoice updated.",
  voided: "Invoice voided.",
  amount: "Please enter a number greater than 0",
  numberTaken: "Another invoice of yours already has this number",
  numberLine: "Please enter the invoice number on one line",
  dueBeforeIssue: "The due date cannot be before the issue date",
  voidPaid: "Payments were recorded on this invoice: delete them before voiding it.",
  invoiceNotFound: "Invoice not found",
  debtorNotFound: "Debtor not found",
  several: "This debtor owes several invoices: edit them in the Invoices section.",
} as const;

const PAGE = "/debtors-list";

async function signedIn() {
  const user = await makeSignedInUser();
  return { userId: user.id, cookie: `dunly_session=${user.token}` };
}

/** A signed-in user with a debtor owing one invoice of $100.00 (numbered INV-<n>). */
async function owing(number = `INV-${crypto.randomUUID().slice(0, 8)}`) {
  const user = await signedIn();
  const debtor = await makeDebtor(user.userId, { debtCents: 10000, fullName: "Ada Lovelace" });
  // makeDebtor's invoice has no number.
  await env.DB.prepare("UPDATE invoices SET number = ? WHERE id = ?").bind(number, debtor.invoiceId).run();
  return { user, debtor, number };
}

const invoiceFields = (fields: Record<string, string> = {}) => ({
  number: "",
  amount: "50",
  currency: "USD",
  issued_on: "2026-02-01",
  due_on: "2026-03-01",
  ...fields,
});

/** The debtors list's row of the debtor, as the table and the modal show it. */
async function listRow(cookie: string, debtorId: number) {
  const data = await loaderData(PAGE, "routes/debtors-list", cookie);
  return (data.debtors as Json[]).find((d) => d.id === debtorId);
}

describe("invoice intents through the debtor pages' form action", () => {
  for (const page of ["/debtors-list", "/dashboard"]) {
    it(`invoice-add on ${page}: a second invoice, the debt is the sum, the list counts 2 open invoices`, async () => {
      const { user, debtor } = await owing();
      const path = page === "/dashboard" ? `/dashboard?debtor=${debtor.id}` : page;
      const { status, data } = await formAction(
        path,
        { intent: "invoice-add", debtor_id: String(debtor.id), ...invoiceFields({ number: "INV-2B" }) },
        user.cookie,
      );
      expect(status, JSON.stringify(data)).toBe(200);
      expect(data).toMatchObject({ intent: "invoice-add", ok: true, message: MSG.added });
      expect(
        (await invoicesOf(debtor.id)).map((i) => [i.number?.startsWith("INV-"), i.amount_cents, i.status]),
      ).toEqual([
        [true, 10000, "open"],
        [true, 5000, "open"],
      ]);
      const added = (await invoicesOf(debtor.id))[1]!;
      expect(added).toMatchObject({ number: "INV-2B", issued_on: "2026-02-01", due_on: "2026-03-01", currency: "USD" });
      expect(await debtorRow(debtor.id)).toMatchObject({ debt_cents: 15000, paid_cents: 0, status: "active" });
      // The list and the modal: two open invoices, and the debtor form edits no single invoice any more.
      expect(await listRow(user.cookie, debtor.id)).toMatchObject({
        openInvoices: 2,
        singleInvoice: false,
        invoiceNumber: null,
      });
    });
  }

  it("invoice-add refuses bad fields (400, on the field, what was typed kept) and a number already used", async () => {
    const { user, debtor, number } = await owing();
    const cases: [Record<string, string>, string, string][] = [
      [{ amount: "" }, "amount", MSG.amount],
      [{ amount: "-1" }, "amount", MSG.amount],
      [{ number: `A${"x".repeat(98)}\u0007` }, "number", MSG.numberLine],
      [{ issued_on: "2026-03-02", due_on: "2026-03-01" }, "due_on", MSG.dueBeforeIssue],
      [{ number }, "number", MSG.numberTaken],
      [{ number: ` ${number} ` }, "number", MSG.numberTaken],
    ];
    for (const [change, field, message] of cases) {
      const fields = {
        intent: "invoice-add",
        debtor_id: String(debtor.id),
        ...invoiceFields({ number: "T-1" }),
        ...change,
      };
      const { status, data } = await formAction(PAGE, fields, user.cookie);
      expect(status, JSON.stringify(change)).toBe(400);
      // The first message is the one the form shows (a long line with a control character also has
      // the length's, after it).
      expect(replyErrors(data)[field]?.[0], JSON.stringify(change)).toBe(message);
      expect(data.result.initialValue).toMatchObject({ issued_on: fields.issued_on });
    }
    expect(await invoicesOf(debtor.id)).toHaveLength(1);
  });

  it("invoice-edit changes an invoice; an amount below what was paid is refused on the amount", async () => {
    const { user, debtor } = await owing("EDIT-1");
    await payInvoice(user.userId, debtor.id, debtor.invoiceId, 9500);
    const edit = (fields: Record<string, string>) =>
      formAction(
        PAGE,
        { intent: "invoice-edit", id: String(debtor.invoiceId), ...invoiceFields({ number: "EDIT-1" }), ...fields },
        user.cookie,
      );

    const below = await edit({ amount: "10" });
    expect(below.status).toBe(400);
    expect(replyErrors(below.data)).toEqual({
      amount: ["Please enter at least $95.00: that much has been paid on it."],
    });
    expect(below.data.result.initialValue).toMatchObject({ amount: "10", number: "EDIT-1" });
    expect((await invoicesOf(debtor.id))[0]).toMatchObject({ amount_cents: 10000, paid_cents: 9500 });

    const ok = await edit({ amount: "95", number: "EDIT-2" });
    expect(ok.status, JSON.stringify(ok.data)).toBe(200);
    expect(ok.data).toMatchObject({ intent: "invoice-edit", ok: true });
    expect(ok.data.message).toContain(MSG.updated);
    expect((await invoicesOf(debtor.id))[0]).toMatchObject({ number: "EDIT-2", amount_cents: 9500, status: "paid" });
    // Nothing is owed any more: the debtor is paid.
    expect(await debtorRow(debtor.id)).toMatchObject({ debt_cents: 9500, paid_cents: 9500, status: "paid" });
  });

  it("invoice-void voids an invoice nothing was paid on, and refuses one with payments, saying why", async () => {
    const { user, debtor } = await owing();
    const second = await makeInvoice(user.userId, debtor.id, { amountCents: 2500 });
    await payInvoice(user.userId, debtor.id, second, 1000);

    const refused = await formAction(PAGE, { intent: "invoice-void", id: String(second) }, user.cookie);
    expect(refused.status).toBe(400);
    expect(refused.data).toMatchObject({ intent: "invoice-void", ok: false, message: MSG.voidPaid });

    const voided = await formAction(PAGE, { intent: "invoice-void", id: String(debtor.invoiceId) }, user.cookie);
    expect(voided.status, JSON.stringify(voided.data)).toBe(200);
    expect(voided.data).toMatchObject({ intent: "invoice-void", ok: true, message: MSG.voided });
    expect((await invoicesOf(debtor.id)).map((i) => i.status)).toEqual(["void", "open"]);
    // Void invoices no longer count: the debt is the other invoice's.
    expect(await debtorRow(debtor.id)).toMatchObject({ debt_cents: 2500, paid_cents: 1000, status: "active" });

    // Void is final: it can be neither edited nor voided again.
    const again = await formAction(PAGE, { intent: "invoice-void", id: String(debtor.invoiceId) }, user.cookie);
    expect(again.status).toBe(404);
    const edit = await formAction(
      PAGE,
      { intent: "invoice-edit", id: String(debtor.invoiceId), ...invoiceFields() },
      user.cookie,
    );
    expect(edit.status).toBe(404);
  });

  it("another user's debtor or invoice answers 404 and changes nothing", async () => {
    const owner = await owing();
    const stranger = await signedIn();
    const before = await invoicesOf(owner.debtor.id);
    const add = await formAction(
      PAGE,
      { intent: "invoice-add", debtor_id: String(owner.debtor.id), ...invoiceFields() },
      stranger.cookie,
    );
    expect(add.status).toBe(404);
    expect(add.data).toMatchObject({ ok: false, message: MSG.debtorNotFound });
    const edit = await formAction(
      PAGE,
      { intent: "invoice-edit", id: String(owner.debtor.invoiceId), ...invoiceFields({ amount: "1" }) },
      stranger.cookie,
    );
    expect(edit.status).toBe(404);
    expect(edit.data).toMatchObject({ ok: false, message: MSG.invoiceNotFound });
    const voided = await formAction(
      PAGE,
      { intent: "invoice-void", id: String(owner.debtor.invoiceId) },
      stranger.cookie,
    );
    expect(voided.status).toBe(404);
    // A malformed id is only a request, like another user's.
    const malformed = await formAction(PAGE, { intent: "invoice-void", id: "1e3" }, stranger.cookie);
    expect(malformed.status).toBe(404);
    expect(await invoicesOf(owner.debtor.id)).toEqual(before);
    expect(await debtorRowsOf(stranger.userId)).toEqual([]);
  });

  it("the debtor's page lists the invoices, and its action takes the invoice intents, also as a document post", async () => {
    const { user, debtor, number } = await owing();
    const page = await get(`/debtors/${debtor.id}`, { cookie: user.cookie });
    expect(page.status).toBe(200);
    const html = await pageText(page);
    expect(html).toContain("Invoices");
    expect(html).toContain(number);

    const res = await postForm(
      `/debtors/${debtor.id}`,
      { intent: "invoice-add", debtor_id: String(debtor.id), ...invoiceFields({ number: "DOC-77" }) },
      { cookie: user.cookie },
    );
    expect(res.status).toBe(200);
    expect(await pageText(res)).toContain("DOC-77");
    expect(await invoicesOf(debtor.id)).toHaveLength(2);

    // A refused one answers 400 with the page, nothing added.
    const refused = await postForm(
      `/debtors/${debtor.id}`,
      { intent: "invoice-add", debtor_id: String(debtor.id), ...invoiceFields({ number: "DOC-77", amount: "12.34" }) },
      { cookie: user.cookie },
    );
    expect(refused.status).toBe(400);
    expect(await pageText(refused)).toContain("DOC-77");
    expect(await invoicesOf(debtor.id)).toHaveLength(2);
    // The page's fetchers post to it (.data) like the modal's to the lists.
    const edit = await formAction(
      `/debtors/${debtor.id}`,
      { intent: "invoice-edit", id: String(debtor.invoiceId), ...invoiceFields({ number }) },
      user.cookie,
    );
    expect(edit.status, JSON.stringify(edit.data)).toBe(200);
    expect(edit.data).toMatchObject({ intent: "invoice-edit", ok: true });

    // Another user's debtor page is the 404 page.
    const stranger = await signedIn();
    expect((await get(`/debtors/${debtor.id}`, { cookie: stranger.cookie })).status).toBe(404);
  });
});

describe("the debtor form with several invoices", () => {
  it("keeps the total as it is and refuses another debt, with what to do instead", async () => {
    const { user, debtor } = await owing();
    await makeInvoice(user.userId, debtor.id, { amountCents: 5000 });
    // The ledger's sums follow a write; this one changes nothing but the name.
    const fields = {
      intent: "debtor-edit",
      id: String(debtor.id),
      kind: "person",
      full_name: "Ada King",
      email: debtor.email,
      active_strategy: "1",
    };
    const other = await formAction(PAGE, { ...fields, debt: "10", currency: "USD" }, user.cookie);
    expect(other.status).toBe(400);
    expect(replyErrors(other.data)).toEqual({ debt: [MSG.several] });

    const same = await formAction(PAGE, { ...fields, debt: "100", currency: "USD" }, user.cookie);
    expect(same.status, JSON.stringify(same.data)).toBe(200);
    expect(await debtorRow(debtor.id)).toMatchObject({ full_name: "Ada King", debt_cents: 15000 });
    expect((await invoicesOf(debtor.id)).map((i) => i.amount_cents)).toEqual([10000, 5000]);
  });
});

describe("one debtor per address: the add-debtor form", () => {
  const typed = (email: string) => ({
    intent: "debtor-add",
    kind: "person",
    full_name: "Ada Twin",
    email,
    debt: "42.50",
    currency: "USD",
    invoice_number: "TW-1",
    due_on: "2026-05-01",
    active_strategy: "1",
  });

  it("offers the debtor the e-mail belongs to (any case), keeping what was typed; then adds the invoice to them", async () => {
    const { user, debtor } = await owing();
    const { status, data } = await formAction(PAGE, typed(debtor.email.toUpperCase()), user.cookie);
    expect(status).toBe(409);
    expect(data).toMatchObject({
      intent: "debtor-add",
      ok: false,
      existing: { id: debtor.id, name: "Ada Lovelace" },
      result: { error: { "": ["You already have a debtor with this e-mail: Ada Lovelace."] } },
    });
    expect(data.result.initialValue).toMatchObject({ full_name: "Ada Twin", debt: "42.50", invoice_number: "TW-1" });
    expect(await debtorRowsOf(user.userId)).toHaveLength(1);

    // "Add this invoice to Ada Lovelace".
    const added = await formAction(
      PAGE,
      { ...typed(debtor.email), intent: "debtor-add-invoice", debtor_id: String(debtor.id), allow_duplicate: "true" },
      user.cookie,
    );
    expect(added.status, JSON.stringify(added.data)).toBe(200);
    expect(added.data).toMatchObject({
      intent: "debtor-add-invoice",
      ok: true,
      message: "Invoice added to Ada Lovelace.",
    });
    expect(await debtorRowsOf(user.userId)).toHaveLength(1);
    expect((await invoicesOf(debtor.id))[1]).toMatchObject({
      number: "TW-1",
      amount_cents: 4250,
      due_on: "2026-05-01",
    });
    expect(await debtorRow(debtor.id)).toMatchObject({ debt_cents: 14250 });

    // The same number again: refused on the debtor form's own field.
    const again = await formAction(
      PAGE,
      { ...typed(debtor.email), intent: "debtor-add-invoice", debtor_id: String(debtor.id) },
      user.cookie,
    );
    expect(again.status).toBe(400);
    expect(replyErrors(again.data)).toEqual({ invoice_number: [MSG.numberTaken] });
  });

  it('"Add as a new debtor anyway" adds the twin; another user\'s debtor is never offered nor reachable', async () => {
    const { user, debtor } = await owing();
    const anyway = await formAction(
      PAGE,
      { ...typed(debtor.email), allow_duplicate: "true", invoice_number: "" },
      user.cookie,
    );
    expect(anyway.status, JSON.stringify(anyway.data)).toBe(200);
    expect(anyway.data).toMatchObject({ intent: "debtor-add", ok: true, message: "Debtor added" });
    expect((await debtorRowsOf(user.userId)).map((d) => d.email)).toEqual([debtor.email, debtor.email]);

    // A stranger with the same address among their own debtors: no offer, their own debtor.
    const stranger = await signedIn();
    const theirs = await formAction(PAGE, typed(debtor.email), stranger.cookie);
    expect(theirs.status, JSON.stringify(theirs.data)).toBe(200);
    // …and they cannot add an invoice to the user's debtor.
    const hijack = await formAction(
      PAGE,
      { ...typed(debtor.email), intent: "debtor-add-invoice", debtor_id: String(debtor.id), invoice_number: "" },
      stranger.cookie,
    );
    expect(hijack.status).toBe(404);
    expect(await invoicesOf(debtor.id)).toHaveLength(1);
  });
});

describe("finding a debtor by address", () => {
  it("reads the index on debtors (owner_id, lower(email)), for the twin check and the import's lookup", async () => {
    const plan = async (sql: string, ...values: unknown[]) =>
      (
        await env.DB.prepare(`EXPLAIN QUERY PLAN ${sql}`)
          .bind(...values)
          .all<{ detail: string }>()
      ).results
        .map((r) => r.detail)
        .join("; ");
    expect(
      await plan(
        'select "id", "full_name" from "debtors" where ("debtors"."owner_id" = ? and lower("debtors"."email") = ?) order by "debtors"."id" asc limit ?',
        "x",
        "a@example.com",
        1,
      ),
    ).toContain("debtors_owner_email_idx");
    expect(await plan(DEBTORS_BY_EMAIL, "x", '["a@example.com"]')).toContain("debtors_owner_email_idx");
  });
});

describe("the JSON API", () => {
  it("GET /api/debtors/:id/invoices lists the owner's invoices, oldest due first and void last; 404 for anyone else", async () => {
    const { user, debtor, number } = await owing();
    const voided = await makeInvoice(user.userId, debtor.id, { amountCents: 700, dueOn: "2025-01-01", status: "void" });
    await makeInvoice(user.userId, debtor.id, { amountCents: 300, dueOn: "2025-06-01", number: `${number}-B` });
    const { status, body } = await apiJson("GET", `/debtors/${debtor.id}/invoices`, { cookie: user.cookie });
    expect(status).toBe(200);
    expect(body.map((i: Json) => [i.due_on, i.status, i.amount, i.owed])).toEqual([
      ["2025-06-01", "open", 3, 3],
      ["2026-01-15", "open", 100, 100],
      ["2025-01-01", "void", 7, 0],
    ]);
    expect(body[2].id).toBe(voided);
    const stranger = await signedIn();
    const foreign = await apiJson("GET", `/debtors/${debtor.id}/invoices`, { cookie: stranger.cookie });
    expect(foreign.status).toBe(404);
  });

  it("add, edit and void are the owner's only: another user's debtor or invoice is 404, nothing changes", async () => {
    const { user, debtor } = await owing();
    const stranger = await signedIn();
    const before = await invoicesOf(debtor.id);
    const cases: [string, string, Record<string, unknown>][] = [
      ["POST", "/invoices/add", { debtor_id: debtor.id, amount: 5 }],
      ["PUT", "/invoices/edit", { id: debtor.invoiceId, amount: 5 }],
      ["PUT", "/invoices/void", { id: debtor.invoiceId }],
    ];
    for (const [method, path, json] of cases) {
      const { status, body } = await apiJson(method, path, { cookie: stranger.cookie, json });
      expect(status, `${method} ${path}`).toBe(404);
      expect(body.success).toBe(false);
    }
    expect(await invoicesOf(debtor.id)).toEqual(before);

    // The owner: added, edited (below what was paid refused), voided.
    const added = await apiJson("POST", "/invoices/add", {
      cookie: user.cookie,
      json: { debtor_id: debtor.id, amount: "20.5", number: null, due_on: "2026-04-01" },
    });
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    expect(added.body).toMatchObject({
      success: true,
      data: { amount: 20.5, number: null, due_on: "2026-04-01", status: "open" },
      debtor: { id: debtor.id, debt: 120.5 },
    });
    await payInvoice(user.userId, debtor.id, added.body.data.id, 1000);
    const below = await apiJson("PUT", "/invoices/edit", {
      cookie: user.cookie,
      json: { id: added.body.data.id, amount: 5 },
    });
    expect(below.status).toBe(400);
    expect(below.body.errors).toEqual({ amount: ["Please enter at least $10.00: that much has been paid on it."] });
    const voided = await apiJson("PUT", "/invoices/void", { cookie: user.cookie, json: { id: debtor.invoiceId } });
    expect(voided.status).toBe(200);
    expect(voided.body.data.status).toBe("void");
  });

  it("PUT /api/debtors/edit with a debt below what was paid is a 400 field error", async () => {
    const { user, debtor } = await owing();
    await payInvoice(user.userId, debtor.id, debtor.invoiceId, 9500);
    const { status, body } = await apiJson("PUT", "/debtors/edit", {
      cookie: user.cookie,
      json: { id: debtor.id, full_name: "Ada", email: debtor.email, debt: 10 },
    });
    expect(status).toBe(400);
    expect(body.errors).toEqual({ debt: ["Please enter at least $95.00: that much has been paid on it."] });
    expect((await invoicesOf(debtor.id))[0]).toMatchObject({ amount_cents: 10000, paid_cents: 9500 });
  });

  it("POST /api/debtors/add with an address the user already has is 409 with that debtor, unless allow_duplicate", async () => {
    const { user, debtor } = await owing();
    const json = { full_name: "Ada Twin", email: ` ${debtor.email.toUpperCase()} `, debt: 5 };
    const twin = await apiJson("POST", "/debtors/add", { cookie: user.cookie, json });
    expect(twin.status).toBe(409);
    expect(twin.body).toEqual({
      success: false,
      error: "You already have a debtor with this e-mail: Ada Lovelace.",
      existing: { id: debtor.id, full_name: "Ada Lovelace" },
      existing_debtor_id: debtor.id,
    });
    expect(await debtorRowsOf(user.userId)).toHaveLength(1);

    const anyway = await apiJson("POST", "/debtors/add", {
      cookie: user.cookie,
      json: { ...json, allow_duplicate: true },
    });
    expect(anyway.status, JSON.stringify(anyway.body)).toBe(200);
    expect(anyway.body.data).toMatchObject({ full_name: "Ada Twin", email: debtor.email, open_invoices: 1 });
    // Only a JSON true counts.
    const stringy = await apiJson("POST", "/debtors/add", {
      cookie: user.cookie,
      json: { ...json, allow_duplicate: "true" },
    });
    expect(stringy.status).toBe(409);
    expect(await debtorRowsOf(user.userId)).toHaveLength(2);
  });
});
