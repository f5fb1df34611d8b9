import { describe, expect, it } from "vitest";
import cdc from "./fixtures/cdc.json";
import customerQuery from "./fixtures/customer-query.json";
import invoiceQuery from "./fixtures/invoice-query.json";
import webhook from "./fixtures/webhook.json";
import cloudEvents from "./fixtures/webhook-cloudevents.json";
import {
  cdcInvoices,
  debtorOf,
  firstAddress,
  invoiceOf,
  isVoided,
  notifiedRealms,
  type QboCdcResponse,
  type QboQueryResponse,
  qboTime,
  queriedCustomers,
  queriedInvoices,
} from "./mapping";

/** QuickBooks Online's answers as Intuit documents them (fixtures/), read the way the sync reads them. */
const invoices = queriedInvoices(invoiceQuery as QboQueryResponse);
const customers = queriedCustomers(customerQuery as QboQueryResponse);
const byId = (id: string) => invoices.find((i) => i.Id === id)!;

describe("invoices", () => {
  it("an open invoice: its number, total, what is due, currency and dates", () => {
    expect(invoiceOf(byId("130"))).toEqual({
      externalId: "130",
      contactId: "1",
      number: "1037",
      amountCents: 10000,
      dueCents: 10000,
      currency: "USD",
      issuedOn: "2019-12-20",
      dueOn: "2020-01-19",
      open: true,
      closed: false,
      updatedAt: Date.parse("2019-12-20T18:08:51Z"),
      billEmail: "birds@intuit.com",
    });
  });

  it("a part-paid invoice is open for its Balance", () => {
    expect(invoiceOf(byId("239"))).toMatchObject({ amountCents: 15000, dueCents: 4950, open: true, closed: false });
  });

  it("a voided invoice (Balance 0, QuickBooks' 'Voided' note) is closed, never open", () => {
    expect(isVoided(byId("241"))).toBe(true);
    expect(invoiceOf(byId("241"))).toMatchObject({ open: false, closed: true, dueCents: 0 });
  });

  it("a paid invoice is neither open nor closed: it stays, paid", () => {
    expect(invoiceOf(byId("242"))).toMatchObject({
      open: false,
      closed: false,
      dueCents: 0,
      currency: "CAD",
      billEmail: "accounts@intario.example",
    });
  });

  it("a due date before the issue date is the issue date; no due date is the issue date", () => {
    const base = byId("130");
    expect(invoiceOf({ ...base, DueDate: "2019-12-01" }).dueOn).toBe("2019-12-20");
    expect(invoiceOf({ ...base, DueDate: undefined }).dueOn).toBe("2019-12-20");
    expect(invoiceOf({ ...base, TxnDate: undefined }).open).toBe(false);
  });
});

describe("change data capture", () => {
  const changed = cdcInvoices(cdc as QboCdcResponse).map(invoiceOf);

  it("reads every entity's invoices: a paid one owes nothing, a deleted one is closed", () => {
    expect(changed.map((i) => [i.externalId, i.dueCents, i.open, i.closed])).toEqual([
      ["239", 0, false, false],
      ["244", 0, false, true],
    ]);
    expect(changed[1]?.updatedAt).toBe(Date.parse("2015-10-08T18:51:37Z"));
  });

  it("its time is the next cursor", () => {
    expect(new Date(qboTime((cdc as QboCdcResponse).time)).toISOString()).toBe("2015-10-08T19:00:32.146Z");
    expect(qboTime(undefined)).toBe(0);
  });
});

describe("customers", () => {
  it("a customer with an address: its display name, the person, its currency or the invoice's", () => {
    expect(debtorOf(customers[0]!, invoiceOf(byId("130")), "EUR")).toEqual({
      externalId: "1",
      fullName: "Amy's Bird Sanctuary",
      email: "birds@intuit.com",
      contactName: "Amy Lauterbach",
      currency: "USD",
    });
  });

  it("without a primary address, the address its invoice is billed to (the first of several)", () => {
    expect(debtorOf(customers[1]!, invoiceOf(byId("242")), "USD")).toMatchObject({
      externalId: "181",
      email: "accounts@intario.example",
      currency: "CAD",
      contactName: null,
    });
  });

  it("no address at all: not a debtor", () => {
    expect(debtorOf(customers[2]!, undefined, "USD")).toBeNull();
    expect(firstAddress("not an address")).toBeNull();
  });
});

describe("webhook notifications", () => {
  it("name the companies that changed, once each, in either format; anything else names none", () => {
    expect(notifiedRealms(cloudEvents)).toEqual(["1185883450"]);
    expect(notifiedRealms(webhook)).toEqual(["1185883450"]);
    expect(notifiedRealms([{ intuitaccountid: 42 }, { intuitaccountid: "9130" }, null])).toEqual(["9130"]);
    expect(notifiedRealms({ eventNotifications: [{ realmId: "1" }, { realmId: "1" }, { realmId: "x;drop" }] })).toEqual(
      ["1"],
    );
    expect(notifiedRealms(null)).toEqual([]);
    expect(notifiedRealms({ eventNotifications: "no" })).toEqual([]);
  });
});
