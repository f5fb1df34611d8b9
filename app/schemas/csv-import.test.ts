import { describe, expect, it } from "vitest";
import { PHONE_MESSAGES, parseMobile } from "~/domain/phone";
import { MAX_IMPORT_BYTES, IMPORT_TOO_LARGE as TOO_LARGE } from "~/domain/upload-limits";
import {
  amountFormatMessage,
  EMPTY_FILE,
  guessField,
  guessMapping,
  IMPORT_FIELDS,
  MAX_IMPORT_COLUMNS,
  MAX_IMPORT_ROWS,
  type MappingInput,
  mappingOfForm,
  parseAmount,
  previewDebtorCsv,
  readMapping,
  TOO_MANY_COLUMNS,
  TOO_MANY_ROWS,
} from "./csv-import";

const opts = {
  timeZone: "Europe/Berlin",
  today: "2026-03-10",
  existing: new Map(),
  takenNumbers: new Map<string, string>(),
  maxInvoices: 500,
  mobile: parseMobile,
};

describe("previewDebtorCsv: a file of debtors, one row each", () => {
  it("reads a minimal file with defaults: person, Polite, USD, the user's zone, issued and due today", () => {
    const preview = previewDebtorCsv("name,email,amount\nAda Lovelace,ADA@example.com,120.50\n", opts);
    expect(preview.fileErrors).toEqual([]);
    expect(preview.valid).toBe(1);
    const debtor = {
      kind: "person",
      fullName: "Ada Lovelace",
      email: "ada@example.com",
      activeStrategy: 1,
      currency: "USD",
      timeZone: "Europe/Berlin",
      language: null,
      contactName: null,
      phone: null,
    };
    const invoice = {
      email: "ada@example.com",
      number: null,
      amountCents: 12050,
      currency: null,
      issuedOn: "2026-03-10",
      dueOn: "2026-03-10",
    };
    expect(preview.rows).toEqual([
      {
        line: 2,
        name: "Ada Lovelace",
        email: "ADA@example.com",
        amount: "120.50",
        number: "",
        currency: "",
        issuedOn: "",
        dueOn: "",
        kind: "",
        strategy: "",
        timeZone: "",
        language: "",
        contactName: "",
        phone: "",
        status: "ok",
        messages: [],
        debtor,
        invoice,
      },
    ]);
    // The debtor's first invoice is in the debtor's currency.
    expect(preview.debtors).toEqual([debtor]);
    expect(preview.invoices).toEqual([{ ...invoice, currency: "USD" }]);
  });

  it("reads a contact person column as the debtor's primary contact (decisions/057)", () => {
    const preview = previewDebtorCsv(
      "name,email,amount,Ansprechpartner\nAcme GmbH,ap@acme.example,10,Jana Klein\nBeta,b@beta.example,5,\n",
      opts,
    );
    expect(preview.debtors.map((d) => [d.fullName, d.contactName])).toEqual([
      ["Acme GmbH", "Jana Klein"],
      ["Beta", null],
    ]);
    const long = previewDebtorCsv(
      `name,email,amount,contact person\nAcme,a@acme.example,10,${"x".repeat(201)}\n`,
      opts,
    );
    expect(long.rows[0]).toMatchObject({
      status: "error",
      messages: ["Contact person: Please use at most 200 characters"],
    });
  });

  it("reads a mobile number column into E.164 and refuses a landline with why (decisions/069)", () => {
    const preview = previewDebtorCsv(
      "name,email,amount,Mobile\nAcme,ap@acme.example,10,+44 7400 123456\nBeta,b@beta.example,5,\nGamma,g@gamma.example,5,+44 20 7946 0018\nDelta,d@delta.example,5,07400 123456\n",
      opts,
    );
    expect(preview.debtors.map((d) => [d.fullName, d.phone])).toEqual([
      ["Acme", "+447400123456"],
      ["Beta", null],
    ]);
    expect(preview.rows.slice(2).map((r) => [r.status, r.messages])).toEqual([
      ["error", [`Mobile number: ${PHONE_MESSAGES.invalid}`]],
      ["error", [`Mobile number: ${PHONE_MESSAGES.international}`]],
    ]);
    expect(guessField("Telefonnummer")).toBe("phone");
    expect(guessField("Cell phone")).toBe("phone");
  });

  it("matches header names without case and with aliases, in any order, and reads every column", () => {
    const csv = [
      "Invoice Number;Time Zone;Debt;E-mail;Full Name;Kind;Strategy;Currency;Notes;Issue date;Due date",
      "INV-7;america/new_york;1,234.5;b@example.com;Bob Ltd;Company;middle ground;eur;ignored;2026-01-02;2026-02-01",
      "INV-8;Asia/Tokyo;$10;c@example.com;Cy;person;3;GBP;;;",
    ].join("\r\n");
    const preview = previewDebtorCsv(csv, opts);
    expect(preview.rows.map((r) => [r.debtor, r.invoice])).toEqual([
      [
        {
          kind: "company",
          fullName: "Bob Ltd",
          email: "b@example.com",
          activeStrategy: 2,
          currency: "EUR",
          timeZone: "America/New_York",
          language: null,
          contactName: null,
          phone: null,
        },
        {
          email: "b@example.com",
          number: "INV-7",
          amountCents: 123450,
          currency: "EUR",
          issuedOn: "2026-01-02",
          dueOn: "2026-02-01",
        },
      ],
      [
        {
          kind: "person",
          fullName: "Cy",
          email: "c@example.com",
          activeStrategy: 3,
          currency: "GBP",
          timeZone: "Asia/Tokyo",
          language: null,
          contactName: null,
          phone: null,
        },
        {
          email: "c@example.com",
          number: "INV-8",
          amountCents: 1000,
          currency: "GBP",
          issuedOn: "2026-03-10",
          dueOn: "2026-03-10",
        },
      ],
    ]);
  });

  it("reports each bad row with its line and every message", () => {
    const csv = [
      "name,email,amount,kind,strategy,currency,time zone",
      "Good,good@example.com,5,,,,",
      ",not-an-email,-3,robot,9,dollars,Mars/Base",
      "",
      "Decimals,d@example.com,1000.005",
    ].join("\n");
    const preview = previewDebtorCsv(csv, opts);
    expect(preview.valid).toBe(1);
    expect(preview.rows.map((r) => [r.line, r.status, r.messages])).toEqual([
      [2, "ok", []],
      [
        3,
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
      [5, "error", ["Please enter an amount with at most two decimals"]],
    ]);
  });

  it("tells how to write an amount it cannot read, such as a European spreadsheet's 1.234,56", () => {
    const csv = [
      "name;email;amount",
      "Comma;c@example.com;1.234,56",
      "Half;h@example.com;12,5",
      "Word;w@example.com;ten",
      "Negative;n@example.com;-3",
      "Zero;z@example.com;0",
    ].join("\n");
    const preview = previewDebtorCsv(csv, opts);
    expect(preview.rows.map((r) => [r.line, r.messages])).toEqual([
      [
        2,
        [
          '"1.234,56" is written in another number format than yours (1,234.56). Please type it as 1,234.56, or change your number format in Settings.',
        ],
      ],
      [3, ['"12,5" could be read as 12.50 or as 125.00. Please type the amount with its decimals, as in 1,234.56.']],
      [4, [amountFormatMessage()]],
      [5, ["Please enter a number greater than 0"]],
      [6, ["Please enter a number greater than 0"]],
    ]);
    // In a German number format the same file reads the European spellings.
    const german = previewDebtorCsv(csv, { ...opts, locale: "de-DE" });
    expect(german.rows.slice(0, 2).map((r) => [r.line, r.status])).toEqual([
      [2, "ok"],
      [3, "ok"],
    ]);
  });

  it("checks the invoice number and dates as the form and the API do", () => {
    const csv = [
      "name,email,amount,invoice number,issue date,due date",
      // 100 characters with a control character: the form's one-line message comes first.
      `A,a@example.com,1,${"N".repeat(99)}\u0007,,`,
      `B,b@example.com,1,${"N".repeat(65)},,`,
      "C,c@example.com,1,,2026-02-30,",
      "D,d@example.com,1,,,tomorrow",
      "E,e@example.com,1,,2026-03-05,2026-03-01",
      // A due date before today without an issue date: issued then.
      "F,f@example.com,0.5,,,2026-01-31",
    ].join("\n");
    const preview = previewDebtorCsv(csv, opts);
    expect(preview.rows.map((r) => [r.line, r.status, r.messages])).toEqual([
      [2, "error", ["Please enter the invoice number on one line"]],
      [3, "error", ["The invoice number can have at most 64 characters"]],
      [4, "error", ["The issue date must be a date written like 2026-03-31 or 03/31/2026"]],
      [5, "error", ["The due date must be a date written like 2026-03-31 or 03/31/2026"]],
      [6, "error", ["The due date cannot be before the issue date"]],
      [7, "ok", []],
    ]);
    expect(preview.rows[5]?.invoice).toMatchObject({ amountCents: 50, issuedOn: "2026-01-31", dueOn: "2026-01-31" });
  });

  it("reads dates in the user's format: day first in Europe, month first in the US", () => {
    const csv = ["name;email;amount;issue date;due date", "A;a@example.com;1;01.11.2026;08.11.2026"].join("\n");
    expect(previewDebtorCsv(csv, { ...opts, locale: "de-DE" }).rows[0]?.invoice).toMatchObject({
      issuedOn: "2026-11-01",
      dueOn: "2026-11-08",
    });
    const us = ["name,email,amount,due date", "A,a@example.com,1,11/08/2026"].join("\n");
    expect(previewDebtorCsv(us, opts).rows[0]?.invoice).toMatchObject({ dueOn: "2026-11-08" });
    // 13 is no month: refused, never swapped.
    expect(
      previewDebtorCsv(["name,email,amount,due date", "A,a@example.com,1,13/08/2026"].join("\n"), opts).rows[0]
        ?.messages,
    ).toEqual(["The due date must be a date written like 2026-03-31 or 03/31/2026"]);
  });

  it("counts lines through quoted values that span lines", () => {
    const csv = 'name,email,amount\n"Multi\nLine Name",m@example.com,"1,000.00"\nNext,n@example.com,2\n';
    const preview = previewDebtorCsv(csv, opts);
    expect(preview.rows.map((r) => [r.line, r.status])).toEqual([
      [2, "ok"],
      [4, "ok"],
    ]);
    expect(preview.rows[0]?.invoice?.amountCents).toBe(100000);
  });

  it("refuses an empty file, too many rows, columns or bytes", () => {
    expect(previewDebtorCsv("", opts).fileErrors).toEqual([EMPTY_FILE]);
    // A header without rows is empty whatever its columns.
    expect(previewDebtorCsv("x,y\n", opts).fileErrors).toEqual([EMPTY_FILE]);
    const wide = Array.from({ length: MAX_IMPORT_COLUMNS + 1 }, (_, i) => `c${i}`).join(",");
    expect(previewDebtorCsv(`${wide}\n1\n`, opts)).toMatchObject({ fileErrors: [TOO_MANY_COLUMNS], columns: [] });
    expect(previewDebtorCsv("name,email,amount\n", opts).fileErrors).toEqual([EMPTY_FILE]);
    const rows = Array.from({ length: MAX_IMPORT_ROWS + 1 }, (_, i) => `N${i},n${i}@example.com,1`);
    expect(previewDebtorCsv(`name,email,amount\n${rows.join("\n")}`, opts)).toMatchObject({
      fileErrors: [TOO_MANY_ROWS],
      rows: [],
      valid: 0,
    });
    expect(previewDebtorCsv(`name,email,amount\n${rows.slice(1).join("\n")}`, opts).valid).toBe(MAX_IMPORT_ROWS);
    expect(previewDebtorCsv("x".repeat(MAX_IMPORT_BYTES + 1), opts).fileErrors).toEqual([TOO_LARGE]);
  });

  it("strips a byte-order mark and flags an unclosed quote", () => {
    const preview = previewDebtorCsv('\uFEFFName,Email,Amount\nA,a@example.com,"5\n', opts);
    expect(preview.rows[0]?.status).toBe("error");
    expect(preview.rows[0]?.messages).toContain("A quoted value is not closed on this row");
  });
});

describe("previewDebtorCsv: rows as invoices, debtors matched by e-mail", () => {
  it("makes one debtor of the rows with one address (any case), from its first valid row", () => {
    const csv = [
      "name,email,amount,currency,invoice number,due date",
      "Broken,a@example.com,x,,,",
      "Ada Lovelace,a@example.com,10,EUR,A-1,2026-04-01",
      "Ada L.,A@Example.com,20,,A-2,2026-05-01",
      "Ada,a@example.com,30,GBP,,",
    ].join("\n");
    const preview = previewDebtorCsv(csv, opts);
    expect(preview.rows.map((r) => [r.line, r.status, r.note])).toEqual([
      [2, "error", undefined],
      [3, "ok", undefined],
      [4, "ok", "An invoice of Ada Lovelace (line 3)"],
      [5, "ok", "An invoice of Ada Lovelace (line 3)"],
    ]);
    expect(preview.debtors).toEqual([expect.objectContaining({ fullName: "Ada Lovelace", currency: "EUR" })]);
    // A later row is an invoice of that debtor, whatever its own columns would have made.
    expect(preview.rows.slice(2).map((r) => [r.debtor?.fullName, r.debtor?.currency])).toEqual([
      ["Ada Lovelace", "EUR"],
      ["Ada Lovelace", "EUR"],
    ]);
    // Without a currency, an invoice is in its debtor's.
    expect(preview.invoices.map((i) => [i.email, i.number, i.amountCents, i.currency, i.dueOn])).toEqual([
      ["a@example.com", "A-1", 1000, "EUR", "2026-04-01"],
      ["a@example.com", "A-2", 2000, null, "2026-05-01"],
      ["a@example.com", null, 3000, "GBP", "2026-03-10"],
    ]);
    expect(preview).toMatchObject({ valid: 3, existingDebtors: 0 });
  });

  it("adds numbered rows to the user's debtor with that address; a row without a number is a duplicate", () => {
    const existing = new Map([["old@example.com", { id: 42, fullName: "Old Timer", invoices: 3 }]]);
    const csv = "email,name,amount,invoice\nOLD@example.com,Old,3,OLD-9\nold@example.com,Old,4,\n";
    const preview = previewDebtorCsv(csv, { ...opts, existing });
    expect(preview.rows.map((r) => [r.line, r.status, r.messages, r.note])).toEqual([
      [2, "ok", [], "An invoice of Old Timer, already one of your debtors"],
      [
        3,
        "duplicate",
        [
          "Already one of your debtors (same e-mail). To add this row as an invoice of theirs, give it an invoice number.",
        ],
        undefined,
      ],
    ]);
    expect(preview.debtors).toEqual([]);
    expect(preview.invoices).toEqual([expect.objectContaining({ debtorId: 42, number: "OLD-9", currency: null })]);
    expect(preview.existingDebtors).toBe(1);
  });

  it("refuses an invoice number the account uses or an earlier row has, and a debtor's invoices past the cap", () => {
    const csv = [
      "email,name,amount,invoice",
      "a@example.com,A,1,TAKEN",
      "b@example.com,B,1,N-1",
      "c@example.com,C,1,N-1",
      "d@example.com,D,1,",
      "d@example.com,D,1,",
      "d@example.com,D,1,",
    ].join("\n");
    const preview = previewDebtorCsv(csv, {
      ...opts,
      takenNumbers: new Map([["TAKEN", "someone-else@example.com"]]),
      maxInvoices: 2,
    });
    expect(preview.rows.map((r) => [r.line, r.status, r.messages])).toEqual([
      [2, "error", ["Another invoice of yours already has this number"]],
      [3, "ok", []],
      [4, "error", ["Same invoice number as line 3"]],
      [5, "ok", []],
      [6, "ok", []],
      [7, "error", ["This debtor would have more than 2 invoices, the most one debtor can have."]],
    ]);
    expect(preview.debtors.map((d) => d.email)).toEqual(["b@example.com", "d@example.com"]);
  });
});

/** A mapping as the form sends it: each column's field by its index, "" for not imported. */
const mapped = (...fields: string[]): MappingInput => fields.map((field, index) => ({ index: String(index), field }));

describe("the column mapping", () => {
  it("guesses a field from common headers without case, spaces, accents or punctuation", () => {
    const guesses: [string, string | null][] = [
      ["Client", "name"],
      ["CUSTOMER", "name"],
      ["Company", "name"],
      ["Debtor", "name"],
      ["Kunde", "name"],
      ["E-mail", "email"],
      ["Email address", "email"],
      ["contact_email", "email"],
      ["Amount due", "amount"],
      ["Balance", "amount"],
      ["Outstanding", "amount"],
      ["Open amount", "amount"],
      ["Total", "amount"],
      ["Betrag", "amount"],
      ["Montant dû", "amount"],
      ["Invoice #", "invoice"],
      ["Invoice no.", "invoice"],
      ["Reference", "invoice"],
      ["Rechnungsnummer", "invoice"],
      ["N° facture", "invoice"],
      ["Due", "dueOn"],
      ["Payment due", "dueOn"],
      ["Fällig am", "dueOn"],
      ["Date d'échéance", "dueOn"],
      ["Issued", "issuedOn"],
      ["Invoice date", "issuedOn"],
      ["Date", "issuedOn"],
      ["Währung", "currency"],
      ["Time-zone", "timeZone"],
      ["Sprache", "language"],
      ["Langue", "language"],
      // Not an alias: never guessed, whatever it contains.
      ["Owed (EUR)", null],
      ["Notes", null],
      ["", null],
    ];
    expect(guesses.map(([header]) => [header, guessField(header)])).toEqual(guesses);
    // Every field has a label, and no alias is two fields'.
    expect(IMPORT_FIELDS.map((f) => f.field).sort()).toEqual(
      [
        "amount",
        "contactName",
        "currency",
        "dueOn",
        "email",
        "invoice",
        "issuedOn",
        "kind",
        "language",
        "name",
        "phone",
        "strategy",
        "timeZone",
      ].sort(),
    );
  });

  it("gives a field to the first column that names it; a later one is not imported", () => {
    // An exported file's Amount and Owed: the first is imported.
    expect(guessMapping(["Name", "Email", "Amount", "Owed", "Client", "Notes"])).toEqual([
      "name",
      "email",
      "amount",
      null,
      null,
      null,
    ]);
  });

  it("previews a file with the guessed mapping and shows each column with its first row's value", () => {
    const preview = previewDebtorCsv(
      "Client;Amount due;E-mail;Notes\nAcme Ltd;1,200.00;acme@example.com;call first\n",
      opts,
    );
    expect(preview.columnErrors).toEqual([]);
    expect(preview.columns).toEqual([
      { header: "Client", sample: "Acme Ltd", field: "name" },
      { header: "Amount due", sample: "1,200.00", field: "amount" },
      { header: "E-mail", sample: "acme@example.com", field: "email" },
      { header: "Notes", sample: "call first", field: null },
    ]);
    expect(preview.invoices).toEqual([expect.objectContaining({ email: "acme@example.com", amountCents: 120000 })]);
  });

  it("reads the rows with the user's mapping instead of the guess", () => {
    const csv = "Name,Contact,Owed (EUR),Total\nAcme Ltd,acme@example.com,50,999\n";
    // Guessed: Total is the amount and no column the e-mail.
    expect(previewDebtorCsv(csv, opts).columnErrors).toEqual(["Choose the column that holds the email address."]);
    const preview = previewDebtorCsv(csv, { ...opts, columns: mapped("name", "email", "amount", "") });
    expect(preview.columnErrors).toEqual([]);
    expect(preview.columns.map((c) => c.field)).toEqual(["name", "email", "amount", null]);
    expect(preview.rows[0]).toMatchObject({ status: "ok", name: "Acme Ltd", email: "acme@example.com", amount: "50" });
    expect(preview.invoices[0]?.amountCents).toBe(5000);
  });

  it("names each required field no column holds, and reads no row until one does", () => {
    const preview = previewDebtorCsv("x,y\n1,2\n", opts);
    expect(preview.fileErrors).toEqual([]);
    expect(preview.columnErrors).toEqual([
      "Choose the column that holds the debtor's name.",
      "Choose the column that holds the email address.",
      "Choose the column that holds the amount.",
    ]);
    expect(preview).toMatchObject({ rows: [], valid: 0, invoices: [] });
    expect(preview.columns).toEqual([
      { header: "x", sample: "1", field: null },
      { header: "y", sample: "2", field: null },
    ]);
    // Chosen as not imported: the same error, and the choice kept.
    const chosen = previewDebtorCsv("name,email,amount\nA,a@example.com,1\n", {
      ...opts,
      columns: mapped("name", "email", ""),
    });
    expect(chosen.columnErrors).toEqual(["Choose the column that holds the amount."]);
    expect(chosen.columns.map((c) => c.field)).toEqual(["name", "email", null]);
  });

  it("refuses one field chosen for two columns, naming both headers, beside both selects", () => {
    const preview = previewDebtorCsv("Client,Contact,Email,Balance\nAcme,Ann,a@example.com,5\n", {
      ...opts,
      columns: mapped("name", "name", "email", "amount"),
    });
    const message = '"Client" and "Contact" both import as Name: please choose one of them.';
    expect(preview.columnErrors).toEqual([message]);
    expect(preview.columns.map((c) => [c.field, c.error])).toEqual([
      ["name", message],
      ["name", message],
      ["email", undefined],
      ["amount", undefined],
    ]);
    expect(preview.rows).toEqual([]);
  });

  it("refuses an index outside the file's header and a field that is none of the list, keeping the rest", () => {
    const header = ["Client", "Email", "Balance"];
    const outside = readMapping(header, [...mapped("name", "email", "amount"), { index: "3", field: "currency" }]);
    expect(outside.errors).toEqual(['The file has no column "3" (it has 3). Please choose the columns again.']);
    expect(outside.mapping).toEqual(["name", "email", "amount"]);
    for (const index of ["-1", "1.5", "x", "99999999", ""]) {
      expect(readMapping(header, [{ index, field: "name" }]).errors[0]).toMatch(/^The file has no column/);
    }
    const unknown = readMapping(header, mapped("name", "password", "amount"));
    expect(unknown.errors).toEqual([
      'Please choose what "Email" imports as from the list.',
      "Choose the column that holds the email address.",
    ]);
    expect(unknown.byColumn.get(1)).toBe("Please choose one of the fields in the list");
    expect(unknown.mapping).toEqual(["name", null, "amount"]);
  });

  it("reads the mapping from the form's columns[…] fields; none sent is the guess", () => {
    const form = new FormData();
    form.set("intent", "import-preview");
    expect(mappingOfForm(form)).toBeUndefined();
    form.set("columns[0]", "name");
    form.set("columns[1]", "");
    form.set("columns[x]", "email");
    expect(mappingOfForm(form)).toEqual([
      { index: "0", field: "name" },
      { index: "1", field: "" },
      { index: "x", field: "email" },
    ]);
  });
});

describe("parseAmount", () => {
  it("reads plain, grouped and currency-prefixed amounts and nothing else", () => {
    const read = (raw: string, locale?: string) => {
      const r = parseAmount(raw, locale);
      return r.ok ? r.value : r.reason;
    };
    expect(read("12")).toBe(12);
    expect(read(" 1,234.56 ")).toBe(1234.56);
    expect(read("$5.5")).toBe(5.5);
    expect(read("€ 1.234,56", "de-DE")).toBe(1234.56);
    expect(read("1,23")).toBe("ambiguous");
    expect(read("1,234")).toBe("ambiguous");
    expect(read("abc")).toBe("malformed");
    expect(read("")).toBe("empty");
    expect(read("1e3")).toBe("malformed");
  });
});
