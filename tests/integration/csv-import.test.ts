import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { turnAutopilotOn } from "~/reminders/index.server";
import { apiJson, decodeTurbo, formAction, type Json, postMultipart, replyErrors } from "./data-helpers";
import { alarmStub, db, debtorRowsOf, eventsOfOwner, invoicesOf, makeDebtor, withAlarms } from "./fixtures";
import { get, ORIGIN, pageText, request, signIn, uniqueEmail, uniqueIp } from "./helpers";

/**
 * CSV import of debtors and invoices: the preview writes nothing and
 * lists each row's errors and duplicates; the confirm parses and validates the text again and adds
 * only the valid rows, all or none within the account's cap. Rows with one e-mail are one debtor's
 * invoices; a file with one row per debtor imports one debtor each, as it always did.
 */

const PATH = "/debtors/import";
const TOO_MANY = "The file has more than 5,000 rows. Please split it into smaller files.";
const TOO_LARGE = "The file is larger than 2 MB. Please split it into smaller files.";
const CAP_FULL =
  "This account has reached its limit of 2,000 debtors. Delete debtors you no longer need to add new ones.";

interface Post {
  intent?: string;
  csv?: string;
  file?: { text: string | Uint8Array<ArrayBuffer>; name?: string };
  /** The preview's other fields: its columns' choices (`columns[0]`), the mapping it previewed. */
  fields?: Record<string, string>;
}

/** The import form as the page submits it (multipart, `.data` single fetch): status and action data. */
async function importPost(cookie: string, { intent = "import-preview", csv, file, fields = {} }: Post) {
  const form = new FormData();
  form.set("intent", intent);
  for (const [name, value] of Object.entries(fields)) form.set(name, value);
  if (csv !== undefined) form.set("csv", csv);
  if (file) form.set("file", new File([file.text], file.name ?? "debtors.csv", { type: "text/csv" }));
  const res = await postMultipart(`${PATH}.data`, form, cookie);
  const decoded = await decodeTurbo(res);
  return { status: res.status, data: decoded?.data as Json };
}

const FILE = [
  "Full Name,E-mail,Debt,Kind,Strategy,Currency,Invoice Number,Time Zone",
  "Ada Lovelace,ada@example.com,120.50,,,,INV-1,",
  'Bits Ltd,BITS@example.com,"1,000.00",company,aggressive,eur,,Europe/Berlin',
  ",broken,-5,robot,7,dollars,,Mars/Olympus",
  "Dup Existing,dup@example.com,10,,,,,",
  "Cy Clone,cy@example.com,5,person,2,GBP,,Asia/Tokyo",
  "Ada Again,Ada@Example.com,9,,,,,",
  "Tiny,tiny@example.com,1000.005,,,,,",
].join("\n");

describe("CSV import", () => {
  it("previews a file with bad rows without importing anything, and imports only the valid new rows on confirm", async () => {
    const owner = await signIn(uniqueEmail("imp"));
    const stranger = await signIn(uniqueEmail("imp-other"));
    await makeDebtor(owner.userId, { email: "dup@example.com", fullName: "Already Here" });
    const strangerBefore = await debtorRowsOf(stranger.userId);

    // From a file: the preview lists every row with its line and its errors; nothing is written.
    const preview = await importPost(owner.cookie, { file: { text: FILE } });
    expect(preview.status, JSON.stringify(preview.data)).toBe(200);
    expect(preview.data).toMatchObject({
      intent: "import-preview",
      ok: true,
      message: "4 of 7 rows can be imported; the others will be skipped.",
      csv: FILE,
      preview: { total: 7, valid: 4, errors: 2, duplicates: 1, newDebtors: 3, existingDebtors: 0, hidden: 0 },
    });
    expect(preview.data.preview.rows.map((r: Json) => [r.line, r.status, r.messages])).toEqual([
      [2, "ok", []],
      [3, "ok", []],
      [
        4,
        "error",
        [
          "Please enter the full name of the debtor",
          "Please enter a valid email",
          "Please enter a number greater than 0",
          "Kind must be person or company",
          "Strategy must be 1, 2, 3, Polite, Middle Ground or Aggressive",
          "Currency must be one of USD, EUR, GBP, CAD, AUD, NZD, CHF, JPY, SEK, NOK, DKK, PLN",
          "Please choose a valid time zone",
        ],
      ],
      [
        5,
        "duplicate",
        [
          "Already one of your debtors (same e-mail). To add this row as an invoice of theirs, give it an invoice number.",
        ],
      ],
      [6, "ok", []],
      // Same e-mail as line 2: the same debtor's second invoice.
      [7, "ok", []],
      [8, "error", ["Please enter an amount with at most two decimals"]],
    ]);
    expect(preview.data.preview.rows[5].note).toBe("An invoice of Ada Lovelace (line 2)");
    expect(await debtorRowsOf(owner.userId)).toHaveLength(1);

    // Pasted, the same preview; still nothing written.
    const pasted = await importPost(owner.cookie, { csv: FILE });
    expect(pasted.data.preview).toEqual(preview.data.preview);
    expect(await debtorRowsOf(owner.userId)).toHaveLength(1);
    expect(await eventsOfOwner(owner.userId)).toEqual([]);

    // Confirmed: the valid rows, with every column, and an 'imported' event each.
    const confirmed = await importPost(owner.cookie, { intent: "import-confirm", csv: preview.data.csv });
    expect(confirmed.status, JSON.stringify(confirmed.data)).toBe(200);
    expect(confirmed.data).toMatchObject({
      intent: "import-confirm",
      ok: true,
      message: "Imported 4 invoices for 3 new debtors. Skipped 3 rows:",
      skipped: { total: 3 },
    });
    expect(confirmed.data.skipped.rows.map((r: Json) => r.line)).toEqual([4, 5, 8]);
    const rows = (await debtorRowsOf(owner.userId)).slice(1);
    expect(
      rows.map((d) => [
        d.full_name,
        d.email,
        d.kind,
        d.debt_cents,
        d.paid_cents,
        d.currency,
        d.active_strategy,
        d.status,
        d.time_zone,
      ]),
    ).toEqual([
      ["Ada Lovelace", "ada@example.com", "person", 12950, 0, "USD", 1, "active", "UTC"],
      ["Bits Ltd", "bits@example.com", "company", 100000, 0, "EUR", 3, "active", "Europe/Berlin"],
      ["Cy Clone", "cy@example.com", "person", 500, 0, "GBP", 2, "active", "Asia/Tokyo"],
    ]);
    const invoices = await Promise.all(rows.map((d) => invoicesOf(d.id)));
    expect(invoices.map((list) => list.map((i) => [i.number, i.amount_cents, i.currency, i.status]))).toEqual([
      [
        ["INV-1", 12050, "USD", "open"],
        [null, 900, "USD", "open"],
      ],
      [[null, 100000, "EUR", "open"]],
      [[null, 500, "GBP", "open"]],
    ]);
    expect(new Set(rows.map((d) => d.opt_out_key)).size).toBe(3);
    expect(await eventsOfOwner(owner.userId)).toMatchObject(
      rows.map((d) => ({ debtor_id: d.id, type: "imported", detail: "CSV import" })),
    );

    // The same file again: nothing is added twice (a numbered row's number is taken now, the rest
    // are duplicates of the debtors it made).
    const again = await importPost(owner.cookie, { intent: "import-confirm", csv: FILE });
    expect(again.data).toMatchObject({ ok: true, message: "Imported 0 debtors. Skipped 7 rows:" });
    expect(await debtorRowsOf(owner.userId)).toHaveLength(4);
    expect(await debtorRowsOf(stranger.userId)).toEqual(strangerBefore);

    // Duplicates are per account: another user imports the same file's valid rows, dup@ included.
    const theirs = await importPost(stranger.cookie, { intent: "import-confirm", csv: FILE });
    expect(theirs.data).toMatchObject({ ok: true, message: "Imported 5 invoices for 4 new debtors. Skipped 2 rows:" });
    expect(await debtorRowsOf(owner.userId)).toHaveLength(4);
  });

  it("a file of invoices: rows with one e-mail are one debtor's invoices, one of the user's debtors gets the numbered ones", async () => {
    const owner = await signIn(uniqueEmail("imp-inv"));
    const known = await makeDebtor(owner.userId, { email: uniqueEmail("known"), fullName: "Known Debtor" });
    const tag = crypto.randomUUID().slice(0, 8);
    const file = [
      "Name,Email,Amount,Currency,Invoice number,Issue date,Due date",
      `Nia New,nia-${tag}@example.com,100,EUR,N-${tag}-1,2026-01-05,2026-02-05`,
      `Nia N.,NIA-${tag}@example.com,"1,250.50",,N-${tag}-2,2026-01-20,2026-02-20`,
      `Known,${known.email.toUpperCase()},40,,K-${tag}-1,,2026-04-01`,
      `Known,${known.email},40,,,,`,
    ].join("\n");
    const preview = await importPost(owner.cookie, { csv: file });
    expect(preview.data.preview).toMatchObject({
      total: 4,
      valid: 3,
      duplicates: 1,
      newDebtors: 1,
      existingDebtors: 1,
    });
    expect(preview.data.preview.rows.map((r: Json) => [r.line, r.status, r.note ?? null])).toEqual([
      [2, "ok", null],
      [3, "ok", "An invoice of Nia New (line 2)"],
      [4, "ok", "An invoice of Known Debtor, already one of your debtors"],
      [5, "duplicate", null],
    ]);
    // A blank currency shows as it will be: the debtor's (line 2's EUR), or the user's debtor's own.
    expect(preview.data.preview.rows.map((r: Json) => r.currency)).toEqual(["EUR", "EUR", "the debtor's", ""]);

    const confirmed = await importPost(owner.cookie, { intent: "import-confirm", csv: file });
    expect(confirmed.data).toMatchObject({
      ok: true,
      message: "Imported 3 invoices for 1 new debtor and 1 debtor you already had. Skipped 1 row:",
    });
    const debtors = await debtorRowsOf(owner.userId);
    expect(debtors).toHaveLength(2);
    const nia = debtors.find((d) => d.email === `nia-${tag}@example.com`)!;
    expect(nia).toMatchObject({ full_name: "Nia New", currency: "EUR", debt_cents: 135050, status: "active" });
    expect(
      (await invoicesOf(nia.id)).map((i) => [i.number, i.amount_cents, i.currency, i.issued_on, i.due_on]),
    ).toEqual([
      [`N-${tag}-1`, 10000, "EUR", "2026-01-05", "2026-02-05"],
      [`N-${tag}-2`, 125050, "EUR", "2026-01-20", "2026-02-20"],
    ]);
    // The user's debtor: a second invoice in their own currency, the sums follow, an event says so.
    expect((await invoicesOf(known.id)).map((i) => [i.number, i.amount_cents, i.currency, i.due_on])).toEqual([
      [null, 123450, "USD", "2026-01-15"],
      [`K-${tag}-1`, 4000, "USD", "2026-04-01"],
    ]);
    expect(debtors.find((d) => d.id === known.id)).toMatchObject({ debt_cents: 127450, status: "active" });
    expect((await eventsOfOwner(owner.userId)).map((e) => [e.debtor_id, e.type, e.detail])).toEqual([
      [nia.id, "imported", "CSV import"],
      [known.id, "imported", "CSV import: invoices added"],
    ]);

    // An invoice number the account already uses, or twice in a file, is a row error.
    const again = await importPost(owner.cookie, {
      csv: `name,email,amount,invoice\nX,x-${tag}@example.com,1,N-${tag}-1\nY,y-${tag}@example.com,1,Z-${tag}\nZ,z-${tag}@example.com,1,Z-${tag}`,
    });
    expect(again.data.preview.rows.map((r: Json) => [r.line, r.status, r.messages])).toEqual([
      [2, "error", ["Another invoice of yours already has this number"]],
      [3, "ok", []],
      [4, "error", ["Same invoice number as line 3"]],
    ]);
  });

  it("a re-import says 'already imported' for every row it added before and adds nothing twice; a 'Client' header is read", async () => {
    const u = await signIn(uniqueEmail("reimport"));
    const file = [
      "Client;Email;Amount due;Invoice number;Due date",
      "Acme Ltd;acme@example.com;1200.00;INV-101;2026-11-08",
      "Acme Ltd;acme@example.com;800.00;;2026-12-09",
      "Bob Smith;bob@example.com;350.00;;2026-11-28",
    ].join("\n");
    const first = await importPost(u.cookie, { intent: "import-confirm", csv: file });
    expect(first.status, JSON.stringify(first.data)).toBe(200);
    expect(await debtorRowsOf(u.userId)).toHaveLength(2);

    // The preview shows every column it reads: the first file's rows, as the preview listed them.
    const preview = await importPost(u.cookie, { csv: file.replace("INV-101", "INV-201") });
    // Acme is one of the user's debtors now: their invoice is in their own currency.
    expect(preview.data.preview.rows[0]).toMatchObject({
      number: "INV-201",
      currency: "the debtor's",
      dueOn: "2026-11-08",
    });
    const again = await importPost(u.cookie, { csv: file });
    expect(again.data.preview).toMatchObject({ total: 3, valid: 0, errors: 0, duplicates: 3 });
    expect(again.data.preview.rows.map((r: Json) => [r.line, r.status, r.messages])).toEqual([
      [2, "duplicate", ["Already imported: invoice INV-101 is already yours."]],
      [3, "duplicate", ["Already imported: Acme Ltd has this invoice (same amount and due date)."]],
      [4, "duplicate", ["Already imported: Bob Smith has this invoice (same amount and due date)."]],
    ]);
    const confirm = await importPost(u.cookie, { intent: "import-confirm", csv: file });
    expect(confirm.status).toBeGreaterThanOrEqual(200);
    const invoices = await env.DB.prepare("SELECT count(*) AS n FROM invoices WHERE owner_id = ?")
      .bind(u.userId)
      .first<{ n: number }>();
    expect(invoices?.n).toBe(3);
  });

  it("a file whose headers are not all guessed imports once its columns are chosen; a bad mapping is field errors, nothing written", async () => {
    const owner = await signIn(uniqueEmail("imp-map"));
    const tag = crypto.randomUUID().slice(0, 8);
    const file = [
      "Client;Balance;Contact",
      `Acme Ltd;1200.50;acme-${tag}@example.com`,
      `Bob Smith;"1,000.00";bob-${tag}@example.com`,
    ].join("\r\n");
    const CHOOSE = "Please choose what the file's columns import as: see Columns below.";

    // Guessed: Client is the name and Balance the amount; no column is the e-mail (Contact could
    // be a name too, which Client has). The file is not refused: the mapping asks for the e-mail.
    const first = await importPost(owner.cookie, { file: { text: file } });
    expect(first.status).toBe(400);
    expect(first.data).toEqual({
      intent: "import-preview",
      ok: false,
      message: CHOOSE,
      csv: file,
      columns: [
        { header: "Client", sample: "Acme Ltd", field: "name" },
        { header: "Balance", sample: "1200.50", field: "amount" },
        { header: "Contact", sample: `acme-${tag}@example.com`, field: null },
      ],
      columnErrors: ["Choose the column that holds the email address."],
    });

    // Bad mappings, previewed or confirmed: field errors naming the field or the headers, the other
    // choices kept, never a 500, nothing written.
    const bad: [Record<string, string>, string[], (string | null)[]][] = [
      [
        { "columns[0]": "name", "columns[1]": "amount", "columns[2]": "name" },
        [
          '"Client" and "Contact" both import as Name: please choose one of them.',
          "Choose the column that holds the email address.",
        ],
        ["name", "amount", "name"],
      ],
      [
        { "columns[0]": "name", "columns[1]": "", "columns[2]": "email" },
        ["Choose the column that holds the amount."],
        ["name", null, "email"],
      ],
      [
        { "columns[0]": "name", "columns[1]": "amount", "columns[2]": "passwordHash" },
        ['Please choose what "Contact" imports as from the list.', "Choose the column that holds the email address."],
        ["name", "amount", null],
      ],
      [
        { "columns[0]": "name", "columns[1]": "amount", "columns[2]": "email", "columns[3]": "currency" },
        ['The file has no column "3" (it has 3). Please choose the columns again.'],
        ["name", "amount", "email"],
      ],
      [
        { "columns[0]": "name", "columns[1]": "amount", "columns[2]": "email", "columns[-1]": "name" },
        ['The file has no column "-1" (it has 3). Please choose the columns again.'],
        ["name", "amount", "email"],
      ],
    ];
    for (const intent of ["import-preview", "import-confirm"]) {
      for (const [fields, columnErrors, chosen] of bad) {
        const res = await importPost(owner.cookie, { intent, csv: file, fields });
        expect(res.status, JSON.stringify(res.data)).toBe(400);
        expect(res.data).toMatchObject({ intent, ok: false, message: CHOOSE, csv: file, columnErrors });
        expect(res.data.columns.map((c: Json) => c.field)).toEqual(chosen);
        expect(res.data.preview).toBeUndefined();
      }
    }
    // The duplicate's message stands beside both its selects.
    const duplicate = await importPost(owner.cookie, { csv: file, fields: bad[0]![0] });
    expect(duplicate.data.columns.map((c: Json) => c.error ?? null)).toEqual([
      '"Client" and "Contact" both import as Name: please choose one of them.',
      null,
      '"Client" and "Contact" both import as Name: please choose one of them.',
    ]);
    expect(await debtorRowsOf(owner.userId)).toEqual([]);

    // Mapped: the preview reads every row with the choice.
    const fields = { "columns[0]": "name", "columns[1]": "amount", "columns[2]": "email" };
    const mapped = await importPost(owner.cookie, { csv: file, fields });
    expect(mapped.status, JSON.stringify(mapped.data)).toBe(200);
    expect(mapped.data).toMatchObject({
      ok: true,
      message: "2 rows are ready to import.",
      columns: [{ field: "name" }, { field: "amount" }, { field: "email" }],
      preview: { total: 2, valid: 2, errors: 0 },
    });
    expect(mapped.data.columnErrors).toBeUndefined();
    expect(mapped.data.preview.rows.map((r: Json) => [r.name, r.email, r.amount])).toEqual([
      ["Acme Ltd", `acme-${tag}@example.com`, "1200.50"],
      ["Bob Smith", `bob-${tag}@example.com`, "1,000.00"],
    ]);

    // A confirm whose columns differ from those previewed imports nothing: it previews them.
    const changed = await importPost(owner.cookie, {
      intent: "import-confirm",
      csv: file,
      fields: { ...fields, previewed: "name,amount," },
    });
    expect(changed.status).toBe(200);
    expect(changed.data).toMatchObject({ intent: "import-preview", ok: true, preview: { valid: 2 } });
    expect(changed.data.message).toMatch(/^You changed the columns, so nothing was imported yet/);
    expect(await debtorRowsOf(owner.userId)).toEqual([]);

    // The page without JavaScript: a labelled select per column, the choice and the errors shown.
    const form = new FormData();
    form.set("intent", "import-preview");
    form.set("csv", file);
    const html = await pageText(await postMultipart(PATH, form, owner.cookie));
    expect(html).toContain("Choose the column that holds the email address.");
    expect(html).toMatch(/<label for="([^"]+)"[^>]*>Column "Contact" imports as<\/label><select[^>]*id="\1"/);
    expect(html).toMatch(
      /<select[^>]*name="columns\[1\]"[^>]*>(?:(?!<\/select>)[\s\S])*<option value="amount" selected=""/,
    );

    // Confirmed with the mapping it previewed: both rows, as mapped.
    const confirmed = await importPost(owner.cookie, {
      intent: "import-confirm",
      csv: file,
      fields: { ...fields, previewed: "name,amount,email" },
    });
    expect(confirmed.status, JSON.stringify(confirmed.data)).toBe(200);
    expect(confirmed.data).toMatchObject({ intent: "import-confirm", ok: true, message: "Imported 2 debtors." });
    expect((await debtorRowsOf(owner.userId)).map((d) => [d.full_name, d.email, d.debt_cents])).toEqual([
      ["Acme Ltd", `acme-${tag}@example.com`, 120050],
      ["Bob Smith", `bob-${tag}@example.com`, 100000],
    ]);
  });

  it("refuses an invoice number the form refuses (100 characters with a control character), with the form's message", async () => {
    const owner = await signIn(uniqueEmail("imp-number"));
    const number = `${"N".repeat(99)}\u0001`;
    const csv = `name,email,amount,invoice number\nLong Number,long@example.com,5,"${number}"`;
    const res = await importPost(owner.cookie, { intent: "import-confirm", csv });
    expect(res.data).toMatchObject({ ok: true, message: "Imported 0 debtors. Skipped 1 row:" });
    const [row] = res.data.skipped.rows;
    expect(row).toMatchObject({ line: 2, status: "error" });
    expect(await debtorRowsOf(owner.userId)).toEqual([]);

    // The debtor form and the API refuse the same number with the same first message.
    const form = await formAction(
      "/debtors-list",
      {
        intent: "debtor-add",
        kind: "person",
        full_name: "Long",
        email: "long@example.com",
        debt: "5",
        invoice_number: number,
      },
      owner.cookie,
    );
    expect(form.status).toBe(400);
    expect(row.messages).toEqual([replyErrors(form.data).invoice_number?.[0]]);
    const api = await apiJson("POST", "/debtors/add", {
      cookie: owner.cookie,
      json: { full_name: "Long", email: "long@example.com", debt: 5, invoice_number: number },
    });
    expect(api.status).toBe(400);
    expect(api.body.errors.invoice_number[0]).toBe(row.messages[0]);
    expect(row.messages).toEqual(["Please enter the invoice number on one line"]);
  });

  it("the confirm never trusts the preview: it validates the text it gets again", async () => {
    const owner = await signIn(uniqueEmail("imp-trust"));
    // An empty row (only delimiters) is no row; the others are checked like any file.
    const tampered = "name,email,amount\nGood,good@example.com,5\nEvil,<script>@x,1e9\n,,\nNo Amount,na@example.com,\n";
    const res = await importPost(owner.cookie, { intent: "import-confirm", csv: tampered });
    expect(res.data).toMatchObject({ ok: true, message: "Imported 1 debtor. Skipped 2 rows:" });
    expect((await debtorRowsOf(owner.userId)).map((d) => d.email)).toEqual(["good@example.com"]);
  });

  it("refuses files that are too large, too long, without the required columns or empty, with a clear message", async () => {
    const owner = await signIn(uniqueEmail("imp-limits"));
    const rows = (n: number) =>
      `name,email,amount\n${Array.from({ length: n }, (_, i) => `N ${i},n${i}@example.com,1`).join("\n")}`;
    const cases: [Post, number, string][] = [
      [{ file: { text: rows(5001) } }, 400, TOO_MANY],
      [{ csv: rows(5001), intent: "import-confirm" }, 400, TOO_MANY],
      [{ file: { text: `name,email,amount\n${"x".repeat(2 * 1024 * 1024)}` } }, 400, TOO_LARGE],
      [{ file: { text: "x".repeat(3 * 1024 * 1024) } }, 413, TOO_LARGE],
      [{ csv: "name,email,amount\n" }, 400, "The file has no rows to import."],
      [{ csv: "   " }, 400, "Please choose a CSV file or paste its text."],
      [{ intent: "import-everything", csv: "name,email,amount\nA,a@example.com,1" }, 400, "Something went wrong"],
    ];
    for (const [post, status, message] of cases) {
      const res = await importPost(owner.cookie, post);
      expect(res.status, message).toBe(status);
      expect(res.data.ok).toBe(false);
      expect(res.data.message).toContain(message);
    }
    expect(await debtorRowsOf(owner.userId)).toEqual([]);

    // Without an e-mail column the file is not refused: the mapping asks for one.
    const noEmail = await importPost(owner.cookie, { csv: "name,amount\nA,1" });
    expect(noEmail.status).toBe(400);
    expect(noEmail.data).toMatchObject({
      ok: false,
      columnErrors: ["Choose the column that holds the email address."],
    });

    // A visitor is sent to sign in, and nothing is read.
    const form = new FormData();
    form.set("intent", "import-confirm");
    form.set("csv", "name,email,amount\nA,a@example.com,1");
    const visitor = await request(PATH, {
      method: "POST",
      headers: { Origin: ORIGIN, "CF-Connecting-IP": uniqueIp() },
      body: form,
    });
    expect(visitor.status).toBe(302);
    expect((await get(PATH)).status).toBe(302);
  });

  it("an import that would pass the account's cap is refused whole; one that fits is added", async () => {
    const owner = await signIn(uniqueEmail("imp-cap"));
    // On Aggressive, whose debtors are bounded by the account's cap alone (docs/decisions/019).
    await env.DB.prepare("UPDATE users SET plan = 'aggressive', subscription_status = 'active' WHERE id = ?")
      .bind(owner.userId)
      .run();
    await env.DB.prepare(
      `WITH RECURSIVE seq(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM seq WHERE n < 1998)
       INSERT INTO debtors (owner_id, full_name, email, debt_cents) SELECT ?1, 'Seed ' || n, 'seed-' || n || '@example.com', 100 FROM seq`,
    )
      .bind(owner.userId)
      .run();
    const three = "name,email,amount\nA,a@example.com,1\nB,b@example.com,2\nC,c@example.com,3\nD,seed-1@example.com,4";
    const refused = await importPost(owner.cookie, { intent: "import-confirm", csv: three });
    expect(refused.status).toBe(403);
    expect(refused.data).toMatchObject({ intent: "import-confirm", ok: false, message: CAP_FULL });
    expect(refused.data.preview).toMatchObject({ valid: 3, duplicates: 1 });
    expect(await debtorRowsOf(owner.userId)).toHaveLength(1998);

    const two = await importPost(owner.cookie, { intent: "import-confirm", csv: three.split("\nC,")[0]! });
    expect(two.data).toMatchObject({ ok: true, message: "Imported 2 debtors." });
    expect(await debtorRowsOf(owner.userId)).toHaveLength(2000);
  });

  it("the preview tells a file past the plan's debtors limit before the confirm refuses it", async () => {
    const owner = await signIn(uniqueEmail("imp-limit"));
    // A new account is on the trial's Medium plan: 250 debtors (docs/decisions/019).
    const rows = (n: number) =>
      ["name,email,amount", ...Array.from({ length: n }, (_, i) => `Row ${i},row-${i}@example.com,1`)].join("\n");
    const over = await importPost(owner.cookie, { csv: rows(251) });
    expect(over.status).toBe(200);
    expect(over.data.message).toBe(
      "251 rows are valid, but the file adds more debtors than your limit allows: nothing can be imported.",
    );
    expect(over.data.preview).toMatchObject({
      valid: 251,
      newDebtors: 251,
      overLimit:
        "Your Medium plan allows up to 250 debtors. Upgrade on the Pricing page to add more. This file adds 251 new debtors; you have 0.",
    });
    // The page says it beside the preview, and offers no import the server would refuse.
    const form = new FormData();
    form.set("intent", "import-preview");
    form.set("csv", rows(251));
    const html = await pageText(await postMultipart(PATH, form, owner.cookie));
    expect(html).toContain("Your Medium plan allows up to 250 debtors.");
    expect(html).toMatch(/<button[^>]*disabled=""[^>]*>(?:(?!<\/button>)[\s\S])*Import 251 debtors/);

    const fits = await importPost(owner.cookie, { csv: rows(250) });
    expect(fits.data.preview.overLimit).toBeUndefined();
    const confirmed = await importPost(owner.cookie, { intent: "import-confirm", csv: rows(250) });
    expect(confirmed.data).toMatchObject({ ok: true, message: "Imported 250 debtors." });
    // Full now: one more new debtor is told at the preview.
    const one = await importPost(owner.cookie, { csv: "name,email,amount\nOne More,one-more@example.com,1" });
    expect(one.data.preview.overLimit).toBe(
      "Your Medium plan allows up to 250 debtors. Upgrade on the Pricing page to add more. This file adds 1 new debtor; you have 250.",
    );
  });

  it("a 5,000-row CSV previews in under 5 s, and the page renders the preview and the result", async () => {
    const owner = await signIn(uniqueEmail("imp-big"));
    const zones = ["Europe/Berlin", "America/New_York", "Asia/Tokyo", ""];
    const big = [
      "name,email,amount,kind,strategy,currency,invoice number,time zone",
      ...Array.from(
        { length: 5000 },
        (_, i) =>
          `"Debtor, No. ${i}",debtor-${i}@example.com,${(i % 900) + 1}.25,${i % 2 ? "company" : "person"},${(i % 3) + 1},EUR,INV-${i},${zones[i % 4]}`,
      ),
    ].join("\r\n");
    const t0 = Date.now();
    const preview = await importPost(owner.cookie, { file: { text: big } });
    const elapsed = Date.now() - t0;
    expect(preview.status).toBe(200);
    expect(preview.data.preview).toMatchObject({ total: 5000, valid: 5000, errors: 0, duplicates: 0 });
    // Only some OK rows are listed; the page says how many more.
    expect(preview.data.preview.rows).toHaveLength(100);
    expect(preview.data.preview.hidden).toBe(4900);
    expect(elapsed, `preview took ${elapsed} ms`).toBeLessThan(5000);
    expect(await debtorRowsOf(owner.userId)).toEqual([]);

    // Without JavaScript: the document post renders the preview table and the confirm form.
    const form = new FormData();
    form.set("intent", "import-preview");
    form.set("csv", "name,email,amount\nAda,ada@example.com,1\nBad,bad,1");
    const html = await pageText(await postMultipart(PATH, form, owner.cookie));
    expect(html).toContain("2 rows: 1 ready to import, 1 with errors, 0 duplicates.");
    expect(html).toContain("Please enter a valid email");
    expect(html).toContain("Import 1 debtor");
    expect(html).toContain('name="csv" value="name,email,amount');
    const done = new FormData();
    done.set("intent", "import-confirm");
    done.set("csv", "name,email,amount\nAda,ada@example.com,1\nBad,bad,1");
    const result = await pageText(await postMultipart(PATH, done, owner.cookie));
    expect(result).toContain("Imported 1 debtor. Skipped 1 row:");
    expect(result).toContain("Line 3 (bad): Please enter a valid email");
  });
});

describe("CSV import with autopilot on", () => {
  it("says before the confirm what will go out, then the new debtors follow the cadence", async () => {
    const owner = await signIn(uniqueEmail("imp-auto"));
    await turnAutopilotOn({ env: withAlarms(alarmStub()), db: db(), ownerId: owner.userId, now: Date.now() });
    const day = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
    const csv = [
      "Full Name,E-mail,Debt,Invoice Number,Due Date,Time Zone",
      `Late Larry,larry@example.com,300,L-1,${day(-30)},UTC`,
      `Soon Sue,sue@example.com,200,S-1,${day(20)},UTC`,
    ].join("\n");
    const preview = await importPost(owner.cookie, { csv });
    expect(preview.status, JSON.stringify(preview.data)).toBe(200);
    expect(preview.data.message).toContain(
      "Autopilot is on: the 2 new debtors will follow your cadence. 1 of their 2 invoices is overdue: 1 e-mail will go out today",
    );
    const confirmed = await importPost(owner.cookie, { intent: "import-confirm", csv: preview.data.csv });
    expect(confirmed.data.message).toContain("Autopilot is now chasing 2 of them.");
    const following = await env.DB.prepare(
      "SELECT count(*) AS n FROM schedules WHERE owner_id = ? AND follows_account = 1 AND state = 'ENABLED'",
    )
      .bind(owner.userId)
      .first<{ n: number }>();
    expect(following?.n).toBe(2);
  });
});
