import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { decodeTurbo, type Json, postMultipart } from "./data-helpers";
import { debtorRowsOf, eventsOfOwner, makeDebtor } from "./fixtures";
import { get, ORIGIN, pageText, request, signIn, uniqueEmail, uniqueIp } from "./helpers";

/**
 * CSV import of debtors (docs/architecture.md §10): the preview writes nothing and lists each row's
 * errors and duplicates; the confirm parses and validates the text again and adds only the valid,
 * new rows, all or none within the account's cap.
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
}

/** The import form as the page submits it (multipart, `.data` single fetch): status and action data. */
async function importPost(cookie: string, { intent = "import-preview", csv, file }: Post) {
  const form = new FormData();
  form.set("intent", intent);
  if (csv !== undefined) form.set("csv", csv);
  if (file) form.set("file", new File([file.text], file.name ?? "debtors.csv", { type: "text/csv" }));
  const res = await postMultipart(`${PATH}.data`, form, cookie);
  const decoded = await decodeTurbo(res);
  return { status: res.status, data: decoded?.data as Json };
}

const FILE = [
  "Full Name,E-mail,Debt,Kind,Strategy,Currency,Invoice Number,Time Zone",
  "Ada Lovelace,ada@example.com,120.50,,,,INV-1,",
  'Bits Ltd,BITS@example.com,"1,000",company,aggressive,eur,,Europe/Berlin',
  ",broken,-5,robot,7,dollars,,Mars/Olympus",
  "Dup Existing,dup@example.com,10,,,,,",
  "Cy Clone,cy@example.com,5,person,2,GBP,,Asia/Tokyo",
  "Ada Again,Ada@Example.com,9,,,,,",
  "Tiny,tiny@example.com,1.005,,,,,",
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
      message: "3 of 7 rows can be imported; the others will be skipped.",
      csv: FILE,
      preview: { total: 7, valid: 3, errors: 2, duplicates: 2, hidden: 0 },
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
          "Currency must be a three-letter code such as USD or EUR",
          "Please choose a valid time zone",
        ],
      ],
      [5, "duplicate", ["Already one of your debtors (same e-mail)"]],
      [6, "ok", []],
      [7, "duplicate", ["Same e-mail as line 2"]],
      [8, "error", ["Please enter an amount with at most two decimals"]],
    ]);
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
      message: "Imported 3 debtors. Skipped 4 rows:",
      skipped: { total: 4 },
    });
    expect(confirmed.data.skipped.rows.map((r: Json) => r.line)).toEqual([4, 5, 7, 8]);
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
        d.invoice_number,
        d.time_zone,
      ]),
    ).toEqual([
      ["Ada Lovelace", "ada@example.com", "person", 12050, 0, "USD", 1, "active", "INV-1", "UTC"],
      ["Bits Ltd", "bits@example.com", "company", 100000, 0, "EUR", 3, "active", null, "Europe/Berlin"],
      ["Cy Clone", "cy@example.com", "person", 500, 0, "GBP", 2, "active", null, "Asia/Tokyo"],
    ]);
    expect(new Set(rows.map((d) => d.opt_out_key)).size).toBe(3);
    expect(await eventsOfOwner(owner.userId)).toMatchObject(
      rows.map((d) => ({ debtor_id: d.id, type: "imported", detail: "CSV import" })),
    );

    // The same file again: everything is a duplicate now, nothing is added.
    const again = await importPost(owner.cookie, { intent: "import-confirm", csv: FILE });
    expect(again.data).toMatchObject({ ok: true, message: "Imported 0 debtors. Skipped 7 rows:" });
    expect(await debtorRowsOf(owner.userId)).toHaveLength(4);
    expect(await debtorRowsOf(stranger.userId)).toEqual(strangerBefore);

    // Duplicates are per account: another user imports the same file's valid rows, dup@ included.
    const theirs = await importPost(stranger.cookie, { intent: "import-confirm", csv: FILE });
    expect(theirs.data).toMatchObject({ ok: true, message: "Imported 4 debtors. Skipped 3 rows:" });
    expect(await debtorRowsOf(owner.userId)).toHaveLength(4);
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
      [{ csv: "name,amount\nA,1" }, 400, "The header row has no email column."],
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
