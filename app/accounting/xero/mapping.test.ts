import { describe, expect, it } from "vitest";
import {
  contactEmail,
  debtorOf,
  invoiceOf,
  isClosed,
  isOpen,
  type XeroContact,
  type XeroInvoice,
  xeroDay,
  xeroTime,
} from "./mapping";

// Shapes as Xero's Accounting API documents them (GET /Contacts, GET /Invoices), trimmed to what is read.
const CONTACT: XeroContact = {
  ContactID: "bd2270c3-8706-4c11-9cfb-000b551c3f51",
  ContactStatus: "ACTIVE",
  Name: "ABC Limited",
  FirstName: "Andrea",
  LastName: "Dutchess",
  EmailAddress: "A.Dutchess@ABClimited.com",
  ContactPersons: [{ FirstName: "Ben", LastName: "Pole", EmailAddress: "ben@abclimited.com", IncludeInEmails: true }],
  DefaultCurrency: "NZD",
  IsCustomer: true,
};

const INVOICE: XeroInvoice = {
  Type: "ACCREC",
  InvoiceID: "243216c5-369e-4056-ac67-05388f86dc81",
  InvoiceNumber: "OIT00546",
  Reference: "Ref:SMITHK",
  Contact: { ContactID: "025867f1-d741-4d6b-b1af-9ac774b59ba7", Name: "City Agency" },
  Date: "/Date(1518134400000+0000)/",
  DateString: "2018-02-09T00:00:00",
  DueDate: "/Date(1518825600000+0000)/",
  DueDateString: "2018-02-17T00:00:00",
  Status: "AUTHORISED",
  CurrencyCode: "NZD",
  Total: 1800.0,
  AmountDue: 1200.5,
  AmountPaid: 599.5,
  AmountCredited: 0,
  UpdatedDateUTC: "/Date(1518164470750+0000)/",
};

describe("Xero's dates", () => {
  it("reads /Date(ms+zone)/ and the organisation's own day", () => {
    expect(xeroTime("/Date(1518164470750+0000)/")).toBe(1518164470750);
    expect(xeroTime("2018-02-09T08:21:10")).toBe(Date.parse("2018-02-09T08:21:10Z"));
    expect(xeroDay("2018-02-09T00:00:00", "/Date(1518134400000+0000)/")).toBe("2018-02-09");
    expect(xeroDay(undefined, "/Date(1518134400000+0000)/")).toBe("2018-02-09");
    expect(xeroDay(undefined, undefined)).toBeNull();
  });
});

describe("a contact becomes a debtor", () => {
  it("with its own address, the person's name and its currency", () => {
    expect(debtorOf(CONTACT, "USD")).toEqual({
      externalId: CONTACT.ContactID,
      fullName: "ABC Limited",
      email: "a.dutchess@abclimited.com",
      contactName: "Andrea Dutchess",
      currency: "NZD",
    });
  });

  it("without its own address, the first person included in e-mails", () => {
    const c = { ...CONTACT, EmailAddress: "", FirstName: "", LastName: "", DefaultCurrency: undefined };
    expect(contactEmail(c)).toBe("ben@abclimited.com");
    expect(debtorOf(c, "EUR")).toMatchObject({ contactName: "Ben Pole", currency: "EUR" });
  });

  it("not at all without any address", () => {
    expect(debtorOf({ ...CONTACT, EmailAddress: "", ContactPersons: [] }, "USD")).toBeNull();
  });
});

describe("an invoice", () => {
  it("keeps its number, total, what is due, currency and days", () => {
    expect(invoiceOf(INVOICE)).toEqual({
      externalId: INVOICE.InvoiceID,
      contactId: INVOICE.Contact.ContactID,
      number: "OIT00546",
      amountCents: 180000,
      dueCents: 120050,
      currency: "NZD",
      issuedOn: "2018-02-09",
      dueOn: "2018-02-17",
    });
    expect(isOpen(INVOICE)).toBe(true);
  });

  it("a bill, a draft, a paid or voided one is not chased", () => {
    expect(invoiceOf({ ...INVOICE, Type: "ACCPAY" })).toBeNull();
    expect(isOpen({ ...INVOICE, Status: "DRAFT" })).toBe(false);
    expect(isOpen({ ...INVOICE, Status: "PAID", AmountDue: 0 })).toBe(false);
    expect(isClosed({ ...INVOICE, Status: "VOIDED" })).toBe(true);
    expect(isClosed({ ...INVOICE, Status: "DELETED" })).toBe(true);
  });

  it("due before it was issued: due on its issue day", () => {
    expect(invoiceOf({ ...INVOICE, DueDateString: "2018-02-01T00:00:00" })?.dueOn).toBe("2018-02-09");
  });
});
