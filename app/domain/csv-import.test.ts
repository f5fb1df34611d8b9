import { describe, expect, it } from "vitest";
import {
  EMPTY_FILE,
  MAX_IMPORT_BYTES,
  MAX_IMPORT_ROWS,
  parseAmount,
  previewDebtorCsv,
  TOO_LARGE,
  TOO_MANY_ROWS,
} from "./csv-import";

const opts = { timeZone: "Europe/Berlin", existingEmails: new Set<string>() };

describe("previewDebtorCsv", () => {
  it("reads a minimal file with defaults: person, Polite, USD, the user's zone", () => {
    const preview = previewDebtorCsv("name,email,amount\nAda Lovelace,ADA@example.com,120.50\n", opts);
    expect(preview.fileErrors).toEqual([]);
    expect(preview.valid).toBe(1);
    expect(preview.rows).toEqual([
      {
        line: 2,
        name: "Ada Lovelace",
        email: "ADA@example.com",
        amount: "120.50",
        status: "ok",
        messages: [],
        debtor: {
          kind: "person",
          fullName: "Ada Lovelace",
          email: "ada@example.com",
          debtCents: 12050,
          activeStrategy: 1,
          currency: "USD",
          invoiceNumber: null,
          timeZone: "Europe/Berlin",
        },
      },
    ]);
  });

  it("matches header names without case and with aliases, in any order, and reads every column", () => {
    const csv = [
      "Invoice Number;Time Zone;Debt;E-mail;Full Name;Kind;Strategy;Currency;Notes",
      "INV-7;america/new_york;1,234.5;b@example.com;Bob Ltd;Company;middle ground;eur;ignored",
      "INV-8;Asia/Tokyo;$10;c@example.com;Cy;person;3;GBP;",
    ].join("\r\n");
    const preview = previewDebtorCsv(csv, opts);
    expect(preview.rows.map((r) => r.debtor)).toEqual([
      {
        kind: "company",
        fullName: "Bob Ltd",
        email: "b@example.com",
        debtCents: 123450,
        activeStrategy: 2,
        currency: "EUR",
        invoiceNumber: "INV-7",
        timeZone: "America/New_York",
      },
      {
        kind: "person",
        fullName: "Cy",
        email: "c@example.com",
        debtCents: 1000,
        activeStrategy: 3,
        currency: "GBP",
        invoiceNumber: "INV-8",
        timeZone: "Asia/Tokyo",
      },
    ]);
  });

  it("reports each bad row with its line and every message", () => {
    const csv = [
      "name,email,amount,kind,strategy,currency,time zone",
      "Good,good@example.com,5,,,,",
      ",not-an-email,-3,robot,9,dollars,Mars/Base",
      "",
      "Decimals,d@example.com,1.005",
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
          "Currency must be a three-letter code such as USD or EUR",
          "Please choose a valid time zone",
        ],
      ],
      [5, "error", ["Please enter an amount with at most two decimals"]],
    ]);
  });

  it("counts lines through quoted values that span lines", () => {
    const csv = 'name,email,amount\n"Multi\nLine Name",m@example.com,"1,000"\nNext,n@example.com,2\n';
    const preview = previewDebtorCsv(csv, opts);
    expect(preview.rows.map((r) => [r.line, r.status])).toEqual([
      [2, "ok"],
      [4, "ok"],
    ]);
    expect(preview.rows[0]?.debtor?.debtCents).toBe(100000);
  });

  it("flags duplicates within the file and of existing debtors by lower-cased e-mail", () => {
    const csv = "email,name,amount\na@example.com,A,1\nA@Example.com,A again,2\nold@example.com,Old,3\n";
    const preview = previewDebtorCsv(csv, { ...opts, existingEmails: new Set(["old@example.com"]) });
    expect(preview.rows.map((r) => [r.line, r.status, r.messages])).toEqual([
      [2, "ok", []],
      [3, "duplicate", ["Same e-mail as line 2"]],
      [4, "duplicate", ["Already one of your debtors (same e-mail)"]],
    ]);
    expect(preview.valid).toBe(1);
  });

  it("refuses a file without the required columns, an empty one, too many rows or too many bytes", () => {
    expect(previewDebtorCsv("name,amount\nA,1\n", opts).fileErrors[0]).toMatch(/^The header row has no email column/);
    expect(previewDebtorCsv("", opts).fileErrors).toEqual([EMPTY_FILE]);
    expect(previewDebtorCsv("name,email,amount\n", opts).fileErrors).toEqual([EMPTY_FILE]);
    const rows = Array.from({ length: MAX_IMPORT_ROWS + 1 }, (_, i) => `N${i},n${i}@example.com,1`);
    expect(previewDebtorCsv(`name,email,amount\n${rows.join("\n")}`, opts)).toEqual({
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

describe("parseAmount", () => {
  it("reads plain, grouped and currency-prefixed amounts and nothing else", () => {
    expect(parseAmount("12")).toBe(12);
    expect(parseAmount(" 1,234.56 ")).toBe(1234.56);
    expect(parseAmount("$5.5")).toBe(5.5);
    expect(parseAmount("1,23")).toBeNaN();
    expect(parseAmount("abc")).toBeNaN();
    expect(parseAmount("")).toBeNaN();
    expect(parseAmount("1e3")).toBeNaN();
  });
});
