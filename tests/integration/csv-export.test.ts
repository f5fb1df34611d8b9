import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { decodeTurbo, postMultipart } from "./data-helpers";
import { FIXTURE_SCHEDULE_ID, makeDebtor, makeInvoice } from "./fixtures";
import { DAY, get, signIn, uniqueEmail } from "./helpers";

/**
 * CSV export of debtors, of invoices and of the report: the signed-in user's rows
 * only, as a download, with formula-like cells neutralized; the report's export takes the report's filters.
 */

/**
 * RFC 4180 as the export writes it (quotes doubled inside quoted cells, CRLF between rows), read
 * here by hand: papaparse's UMD bundle does not load in the test isolate (the app bundles it).
 */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ",") {
      row.push(cell);
      cell = "";
    } else if (c === "\r" && text[i + 1] === "\n") {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = "";
      i++;
    } else cell += c;
  }
  if (cell !== "" || row.length > 0) rows.push([...row, cell]);
  return rows;
}

async function download(path: string, cookie: string) {
  const res = await get(path, { cookie });
  expect(res.status, path).toBe(200);
  expect(res.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
  const bytes = new Uint8Array(await res.arrayBuffer());
  // A UTF-8 byte-order mark first, so spreadsheets read the names right.
  expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const text = new TextDecoder().decode(bytes);
  return { res, text, rows: parseCsv(text) };
}

async function delivery(ownerId: string, debtorId: number, fields: { at: number; status: string; error?: string }) {
  await env.DB.prepare(
    "INSERT INTO deliveries (owner_id, schedule_id, debtor_id, occurrence_key, template, tone, status, error, created_at, sent_at) VALUES (?, ?, ?, ?, 'final-notice', 3, ?, ?, ?, ?)",
  )
    .bind(
      ownerId,
      FIXTURE_SCHEDULE_ID,
      debtorId,
      `exp-${crypto.randomUUID()}`,
      fields.status,
      fields.error ?? null,
      fields.at,
      fields.status === "sent" ? fields.at : null,
    )
    .run();
}

describe("CSV export", () => {
  it("/debtors.csv: the user's debtors only, formula-safe, and importable again", async () => {
    const owner = await signIn(uniqueEmail("exp"));
    const stranger = await signIn(uniqueEmail("exp-other"));
    const evil = await makeDebtor(owner.userId, {
      fullName: '=HYPERLINK("http://evil")',
      debtCents: 12050,
      paidCents: 2050,
    });
    await env.DB.prepare("UPDATE invoices SET number = ? WHERE id = ?").bind(`EXP-${evil.id}`, evil.invoiceId).run();
    const plain = await makeDebtor(owner.userId, {
      fullName: "Plain, Name",
      email: uniqueEmail("plain"),
      currency: "EUR",
    });
    // Several invoices: no single number to export.
    await makeInvoice(owner.userId, plain.id, { number: `EXP-${plain.id}-2`, currency: "EUR" });
    await makeDebtor(stranger.userId, { fullName: "Their Debtor" });

    const { res, text, rows } = await download("/debtors.csv", owner.cookie);
    expect(res.headers.get("Content-Disposition")).toBe('attachment; filename="debtors.csv"');
    expect(rows[0]).toEqual([
      "Name",
      "Email",
      "Kind",
      "Amount",
      "Paid",
      "Owed",
      "Currency",
      "Strategy",
      "Status",
      "Invoice number",
      "Time zone",
      "Added (UTC)",
      "Charges owed",
      "Charges paid",
      "Charges in other currencies",
    ]);
    expect(rows).toHaveLength(3);
    expect(rows[1]?.slice(0, 9)).toEqual([
      `'=HYPERLINK("http://evil")`,
      expect.stringContaining("@example.com"),
      "person",
      "120.5",
      "20.5",
      "100",
      "USD",
      "Polite",
      "active",
    ]);
    expect(rows[1]?.[9]).toBe(`EXP-${evil.id}`);
    expect(rows[2]?.slice(0, 7)).toEqual(["Plain, Name", plain.email, "person", "1234.5", "0", "1234.5", "EUR"]);
    expect(rows[2]?.[9]).toBe("");
    expect(text).not.toContain("Their Debtor");

    // What is exported can be imported again: by another user, as new debtors.
    const form = new FormData();
    form.set("intent", "import-preview");
    form.set("file", new File([text], "debtors.csv", { type: "text/csv" }));
    const again = (await decodeTurbo(await postMultipart("/debtors/import.data", form, stranger.cookie))).data;
    expect(again.preview).toMatchObject({ total: 2, valid: 2 });

    // A visitor is sent to sign in.
    const visitor = await get("/debtors.csv");
    expect(visitor.status).toBe(302);
  });

  it("/invoices.csv: one row per invoice with its debtor's name and e-mail, the user's only, importable again", async () => {
    const owner = await signIn(uniqueEmail("exp-inv"));
    const stranger = await signIn(uniqueEmail("exp-inv-other"));
    const ada = await makeDebtor(owner.userId, { fullName: "Ada Invoices", debtCents: 10000, paidCents: 2500 });
    const tag = ada.id;
    await env.DB.prepare("UPDATE invoices SET number = ? WHERE id = ?").bind(`+A-${tag}`, ada.invoiceId).run();
    await makeInvoice(owner.userId, ada.id, {
      number: `A-${tag}-2`,
      amountCents: 5000,
      issuedOn: "2026-02-01",
      dueOn: "2026-03-01",
      status: "disputed",
      disputeReason: "Never ordered",
    });
    const bo = await makeDebtor(owner.userId, { fullName: "Bo", currency: "EUR", debtCents: 700 });
    await makeDebtor(stranger.userId, { fullName: "Their Debtor" });

    const { res, text, rows } = await download("/invoices.csv", owner.cookie);
    expect(res.headers.get("Content-Disposition")).toBe('attachment; filename="invoices.csv"');
    expect(rows[0]).toEqual([
      "Name",
      "Email",
      "Amount",
      "Currency",
      "Invoice number",
      "Issue date",
      "Due date",
      "Kind",
      "Strategy",
      "Time zone",
      "Paid",
      "Owed",
      "Status",
      "Dispute reason",
    ]);
    expect(rows.slice(1).map((r) => [r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[10], r[11], r[12], r[13]])).toEqual([
      ["Ada Invoices", ada.email, "100", "USD", `'+A-${tag}`, "2026-01-01", "2026-01-15", "25", "75", "open", ""],
      [
        "Ada Invoices",
        ada.email,
        "50",
        "USD",
        `A-${tag}-2`,
        "2026-02-01",
        "2026-03-01",
        "0",
        "50",
        "disputed",
        "Never ordered",
      ],
      ["Bo", bo.email, "7", "EUR", "", "2026-01-01", "2026-01-15", "0", "7", "open", ""],
    ]);
    expect(text).not.toContain("Their Debtor");

    // Imported by another user: Ada's two rows are one debtor's two invoices.
    const form = new FormData();
    form.set("intent", "import-preview");
    form.set("file", new File([text], "invoices.csv", { type: "text/csv" }));
    const again = (await decodeTurbo(await postMultipart("/debtors/import.data", form, stranger.cookie))).data;
    expect(again.preview).toMatchObject({ total: 3, valid: 3, errors: 0, newDebtors: 2, existingDebtors: 0 });

    // A visitor is sent to sign in.
    expect((await get("/invoices.csv")).status).toBe(302);
  });

  it("/report.csv: the report's rows with its debtor and period filters, newest first", async () => {
    const owner = await signIn(uniqueEmail("exp-rep"));
    const stranger = await signIn(uniqueEmail("exp-rep-other"));
    const ada = await makeDebtor(owner.userId, { fullName: "Ada Report" });
    const bob = await makeDebtor(owner.userId, { fullName: "Bob Report" });
    const theirs = await makeDebtor(stranger.userId, { fullName: "Their Report" });
    const now = Date.now();
    await delivery(owner.userId, ada.id, { at: now - 2 * 60_000, status: "sent" });
    await delivery(owner.userId, ada.id, { at: now - 60_000, status: "failed", error: "@SUM(1+1) went wrong" });
    await delivery(owner.userId, bob.id, { at: now - 400 * DAY, status: "sent" });
    await delivery(stranger.userId, theirs.id, { at: now, status: "sent" });

    const all = await download("/report.csv", owner.cookie);
    expect(all.res.headers.get("Content-Disposition")).toBe('attachment; filename="reminders-report.csv"');
    expect(all.rows[0]).toEqual([
      "Date (UTC)",
      "ISO time (UTC)",
      "Debtor",
      "Template",
      "Tone",
      "Status",
      "Error",
      "Message id",
      "Channel",
    ]);
    expect(all.rows.slice(1).map((r) => [r[2], r[5], r[6]])).toEqual([
      ["Ada Report", "Failed", "'@SUM(1+1) went wrong"],
      ["Ada Report", "Sent", ""],
      ["Bob Report", "Sent", ""],
    ]);
    expect(all.rows[1]?.[3]).toBe("Final Notice");
    expect(all.rows[1]?.[4]).toBe("Aggressive");
    expect(all.text).not.toContain("Their Report");

    const oneDebtor = await download(`/report.csv?debtor=${bob.id}`, owner.cookie);
    expect(oneDebtor.rows.slice(1).map((r) => r[2])).toEqual(["Bob Report"]);
    const recent = await download("/report.csv?period=30d", owner.cookie);
    expect(recent.rows.slice(1).map((r) => r[2])).toEqual(["Ada Report", "Ada Report"]);
    // Another user's debtor as the filter: nothing of theirs.
    const foreign = await download(`/report.csv?debtor=${theirs.id}`, owner.cookie);
    expect(foreign.rows).toHaveLength(1);

    // The report page links to the export with its filters.
    const page = await (await get(`/report?debtor=${bob.id}`, { cookie: owner.cookie })).text();
    expect(page).toContain(`href="/report.csv?debtor=${bob.id}"`);
  });
});
