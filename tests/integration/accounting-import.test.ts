import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import {
  accountingSetups,
  connectionOf,
  IMPORT_INVOICES_PER_STEP,
  type ImportStep,
  importStep,
} from "~/accounting/index.server";
import { readConfig } from "~/platform/config.server";
import { type AccountingUser, connectedTenant, connectThroughStandIn, cookieOf } from "./accounting-helpers";
import { entityScopeOf, makeSignedInUser } from "./fixtures";
import { get, ORIGIN, postForm, visibleText } from "./helpers";

/**
 * A large organisation's first import (decisions/060): the request runs its first step, the rest
 * goes on a few pages a step (the jobs queue in production; called here one after the other), the
 * tab shows the progress, and the number of calls stays what the tool's limits allow. The size is
 * BOOKS_IMPORT_SIZE ("customers:invoices") when set, for the measurement the decision records.
 */

async function connect(user: AccountingUser) {
  const cookie = cookieOf(user);
  await connectThroughStandIn("xero", cookie);
  return { cookie, tenantId: (await connectedTenant(user, "xero")).tenantId };
}

/** A large organisation in the stand-in: `customers` contacts with `invoices` open invoices between them. */
async function seedLarge(tenantId: string, customers: number, invoices: number) {
  const now = Date.now();
  // Instead of the demo organisation's few.
  await env.DB.prepare("DELETE FROM dev_xero_objects WHERE tenant_id = ? AND kind IN ('contact', 'invoice')")
    .bind(tenantId)
    .run();
  const contacts = Array.from({ length: customers }, (_, c) => ({
    ContactID: crypto.randomUUID(),
    Name: `Customer ${c} of ${tenantId.slice(0, 6)}`,
    // Every tenth without an address: it stays out, and is counted.
    EmailAddress: c % 10 === 9 ? "" : `c${c}-${tenantId.slice(0, 8)}@large.example`,
    DefaultCurrency: "EUR",
  }));
  const rows = [
    ...contacts.map((c, i) => ({ id: c.ContactID, kind: "contact", data: c, at: now - 10_000 + i })),
    ...Array.from({ length: invoices }, (_, i) => {
      const contact = contacts[i % customers]!;
      const id = crypto.randomUUID();
      return {
        id,
        kind: "invoice",
        at: now + i,
        data: {
          Type: "ACCREC",
          InvoiceID: id,
          InvoiceNumber: `L-${tenantId.slice(0, 6)}-${i}`,
          Contact: { ContactID: contact.ContactID, Name: contact.Name },
          DateString: "2026-09-01T00:00:00",
          DueDateString: i % 3 === 0 ? "2026-10-01T00:00:00" : "2027-01-15T00:00:00",
          Status: "AUTHORISED",
          CurrencyCode: "EUR",
          Total: 100 + (i % 50),
          AmountDue: 100 + (i % 50),
          UpdatedDateUTC: `/Date(${now + i}+0000)/`,
        },
      };
    }),
  ];
  // 500 rows a statement, each slice one JSON value.
  for (let i = 0; i < rows.length; i += 500) {
    await env.DB.prepare(
      `INSERT INTO dev_xero_objects (id, kind, tenant_id, data, updated_at)
       SELECT json_extract(value, '$.id'), json_extract(value, '$.kind'), ?1, json(json_extract(value, '$.data')), json_extract(value, '$.at')
       FROM json_each(?2)`,
    )
      .bind(tenantId, JSON.stringify(rows.slice(i, i + 500).map((r) => ({ ...r, data: JSON.stringify(r.data) }))))
      .run();
  }
}

const counted = async (ownerId: string) =>
  env.DB.prepare(
    "SELECT (SELECT count(*) FROM invoices WHERE owner_id = ?1 AND source_provider = 'xero') AS invoices, (SELECT count(*) FROM debtors WHERE owner_id = ?1 AND source_provider = 'xero') AS debtors",
  )
    .bind(ownerId)
    .first<{ invoices: number; debtors: number }>();

/** The first `n` invoices whose customer has an address (invoice i is customer i % customers's). */
const reachableOf = (n: number, customers: number) =>
  Array.from({ length: n }, (_, i) => i % customers).filter((c) => c % 10 !== 9).length;

const size = () => {
  const [customers, invoices] = String((env as unknown as Record<string, unknown>).BOOKS_IMPORT_SIZE ?? "300:1000")
    .split(":")
    .map(Number);
  return { customers: customers ?? 300, invoices: invoices ?? 1000 };
};

describe("a large organisation's first import", () => {
  it("goes on step by step with its progress shown, every invoice once, within the calls the limits allow", async () => {
    const { customers, invoices } = size();
    const user = await makeSignedInUser();
    const { cookie, tenantId } = await connect(user);
    await seedLarge(tenantId, customers, invoices);
    const preview = await visibleText(await postForm("/iam/accounting", { intent: "accounting-preview" }, { cookie }));
    expect(preview).toMatch(/open invoices, [\d,]+ overdue/);

    // Every call to the tool counted: the stand-in answers them as Xero would.
    const setups = accountingSetups(readConfig(env), env, ORIGIN);
    let calls = 0;
    const xero = setups.xero!;
    const counting = (input: RequestInfo | URL, init?: RequestInit) => {
      calls++;
      return xero.fetch(input, init);
    };
    setups.xero = { ...xero, fetch: counting as typeof fetch };

    const started = Date.now();
    const imported = await postForm("/iam/accounting", { intent: "accounting-import" }, { cookie });
    expect(imported.status).toBe(303);
    const firstStep = Date.now() - started;
    const pages = Math.ceil(invoices / 100);
    const steps: ImportStep[] = [];
    const stepTimes: number[] = [];
    // Xero's pages hold 100: a step reads IMPORT_INVOICES_PER_STEP / 100 of them.
    const pagesPerStep = IMPORT_INVOICES_PER_STEP / 100;
    if (pages > pagesPerStep) {
      expect(decodeURIComponent(imported.headers.get("Set-Cookie") ?? "")).toContain(
        "Importing from Xero: the first invoices are in, the rest follow in the background.",
      );
      const after = await counted(user.id);
      const firstReachable = reachableOf(IMPORT_INVOICES_PER_STEP, customers);
      expect(after?.invoices).toBe(firstReachable);
      const tab = await visibleText(await get("/iam/accounting", { cookie }));
      expect(tab).toContain(`Importing from Xero: ${firstReachable.toLocaleString("en")} invoices of`);
      // Confirming again while it runs starts nothing twice.
      expect(
        await visibleText(await postForm("/iam/accounting", { intent: "accounting-import" }, { cookie })),
      ).toContain("being imported");
      for (let i = 0; i < 100; i++) {
        const t = Date.now();
        const step = await importStep({ ...entityScopeOf(user.id), currency: "EUR", maxSchedules: 100_000 }, setups);
        stepTimes.push(Date.now() - t);
        steps.push(step);
        if (step.kind !== "more") break;
      }
      expect(steps.at(-1)).toMatchObject({ kind: "done", invoices: reachableOf(invoices, customers) });
    }
    const total = Date.now() - started;
    const done = await counted(user.id);
    // Every tenth customer has no address: their invoices stay out.
    const withoutAddress = Math.floor(customers / 10);
    expect(done).toEqual({ invoices: reachableOf(invoices, customers), debtors: customers - withoutAddress });
    const connection = await connectionOf(entityScopeOf(user.id).db, user.id);
    expect(connection).toMatchObject({ importPage: null, importSkipped: invoices - reachableOf(invoices, customers) });
    expect(connection?.importedAt).not.toBeNull();
    const tab = await visibleText(await get("/iam/accounting", { cookie }));
    expect(tab).toContain("Invoices from Xero");
    // Calls after the first step (counted here): each step reads its pages, its last one again, and
    // the new customers' contacts, 50 a call.
    const stepsAfterFirst = Math.max(0, Math.ceil(pages / pagesPerStep) - 1);
    expect(calls).toBeLessThanOrEqual(pages + stepsAfterFirst + Math.ceil(customers / 50) + stepsAfterFirst * 2);
    console.log(
      `[import] ${customers} customers, ${invoices} invoices: first step ${firstStep} ms, ${steps.length} more steps (${stepTimes.join(", ")} ms), ${calls} calls after the first step, ${total} ms in all`,
    );
  }, 300_000);
});
