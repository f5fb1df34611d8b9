import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { getDb } from "~/db/client.server";
import { followAlarms } from "~/reminders/alarms.server";
import { apiJson, formAction, type Json } from "./data-helpers";
import { alarmAt } from "./engine-helpers";
import { makeDebtor, makeOrg, makeSchedule, payInvoice } from "./fixtures";
import { type SignedIn, signIn, uniqueEmail } from "./helpers";
import { ACTIONS } from "./schedule-helpers";

/**
 * The parity sweep (docs/decisions/012): every mutation that both a form
 * and the JSON API offer is run both ways, on two accounts set up the same way. The rows it leaves
 * (the debtor, organization or payment, the debtor's schedules, each schedule's Durable Object
 * alarm and the timeline events) must be the same once ids, owners and times are set aside, and
 * every schedule's alarm must follow its row (armed at its next run while ENABLED, else none).
 */

const today = () => new Date().toISOString().slice(0, 10);

/** One account's data before the mutation: the seeded debtor, its organization, schedule and payment. */
interface Seeded {
  user: SignedIn;
  debtorId: number;
  /** The debtor's invoice (their debt). */
  invoiceId: number;
  orgId: number;
  scheduleId: string;
  paymentId: number | null;
  contactId: number | null;
}

interface SeedOptions {
  /** The debtor has one other contact (decisions/057): its id is `contactId`. */
  contact?: boolean;
  /** A payment of this many cents already recorded (the debtor owes 100.00). */
  paidCents?: number;
  /** The schedule is sent as the organization. */
  asOrganization?: boolean;
}

/**
 * A fresh account with a debtor owing 100.00 (same name and address in every account), an
 * organization, and a weekly schedule whose Durable Object is really armed at its next run.
 */
async function seed(prefix: string, run: string, options: SeedOptions = {}): Promise<Seeded> {
  const user = await signIn(uniqueEmail(prefix));
  const debtor = await makeDebtor(user.userId, {
    fullName: "Pat Parity",
    email: `pat-${run}@example.com`,
    debtCents: 10_000,
    timeZone: "Europe/Paris",
  });
  const orgId = await makeOrg(user.userId, "Parity Org", "1 Parity Lane");
  const scheduleId = await makeSchedule(user.userId, debtor.id, {
    frequency: "weekly",
    preset: "FRIENDLY_REMINDER",
    timeZone: "Europe/Paris",
    organizationId: options.asOrganization ? orgId : undefined,
  });
  const row = await env.DB.prepare("SELECT next_run_at FROM schedules WHERE id = ?")
    .bind(scheduleId)
    .first<{ next_run_at: number }>();
  await followAlarms({ env, db: getDb(env.DB) }, { arm: [{ id: scheduleId, at: row!.next_run_at }] });
  expect(await alarmAt(scheduleId), "seeded schedule armed").toBe(row!.next_run_at);
  let paymentId: number | null = null;
  if (options.paidCents) {
    paymentId = await payInvoice(user.userId, debtor.id, debtor.invoiceId, options.paidCents, "USD", {
      paidOn: "2026-01-15",
      note: "Seeded",
    });
  }
  let contactId: number | null = null;
  if (options.contact) {
    const row = await env.DB.prepare(
      "INSERT INTO debtor_contacts (owner_id, debtor_id, name, email) VALUES (?, ?, 'Carl Copy', 'carl@example.com') RETURNING id",
    )
      .bind(user.userId, debtor.id)
      .first<{ id: number }>();
    contactId = row!.id;
  }
  return { user, debtorId: debtor.id, invoiceId: debtor.invoiceId, orgId, scheduleId, paymentId, contactId };
}

type Row = Record<string, unknown>;

async function rows(sql: string, ...values: unknown[]): Promise<Row[]> {
  return (
    await env.DB.prepare(sql)
      .bind(...values)
      .all<Row>()
  ).results;
}

/** A row without the columns that differ between two accounts by nature: ids, owners, times, random keys. */
function strip(row: Row, ...more: string[]) {
  const out: Row = {};
  for (const [key, value] of Object.entries(row)) {
    if (["id", "owner_id", "created_at", "updated_at", "opt_out_key", ...more].includes(key)) continue;
    out[key] = value;
  }
  return out;
}

/**
 * What an account holds after the mutation, comparable across accounts: debtors, organizations,
 * payments (with their debtor's name), schedules (their debtor and organization by name, whether
 * they have a next or last run), the alarm of every schedule the account ever had (in the order
 * they were made) and the timeline events.
 */
async function holdings(account: Seeded) {
  const owner = account.user.userId;
  const schedules = await rows(
    `SELECT s.*, d.full_name AS debtor, o.name AS organization FROM schedules s
       JOIN debtors d ON d.id = s.debtor_id LEFT JOIN organizations o ON o.id = s.organization_id
       WHERE s.owner_id = ? ORDER BY s.created_at, s.id`,
    owner,
  );
  const known = [...new Set([account.scheduleId, ...schedules.map((s) => String(s.id))])];
  const alarms = await Promise.all(
    known.map(async (id) => {
      const row = schedules.find((s) => s.id === id);
      const at = await alarmAt(id);
      // The alarm follows the row: armed at its next run while ENABLED, none otherwise (or once deleted).
      const expected = row?.state === "ENABLED" ? row.next_run_at : null;
      return {
        schedule: row ? `${row.debtor} ${row.preset}` : "deleted",
        armed: at !== null,
        followsRow: at === expected,
      };
    }),
  );
  return {
    debtors: (await rows("SELECT * FROM debtors WHERE owner_id = ? ORDER BY id", owner)).map((d) => strip(d)),
    organizations: (await rows("SELECT * FROM organizations WHERE owner_id = ? ORDER BY id", owner)).map((o) =>
      strip(o),
    ),
    payments: (
      await rows(
        "SELECT p.*, d.full_name AS debtor FROM payments p JOIN debtors d ON d.id = p.debtor_id WHERE p.owner_id = ? ORDER BY p.id",
        owner,
      )
    ).map((p) => strip(p, "debtor_id", "invoice_id")),
    invoices: (
      await rows(
        "SELECT i.*, d.full_name AS debtor FROM invoices i JOIN debtors d ON d.id = i.debtor_id WHERE i.owner_id = ? ORDER BY i.id",
        owner,
      )
    ).map((i) => strip(i, "debtor_id")),
    schedules: schedules.map((s) => ({
      ...strip(s, "debtor_id", "organization_id", "next_run_at", "last_run_at"),
      has_next_run: s.next_run_at !== null,
      has_last_run: s.last_run_at !== null,
    })),
    alarms,
    contacts: (await rows("SELECT * FROM debtor_contacts WHERE owner_id = ? ORDER BY id", owner)).map((c) =>
      strip(c, "debtor_id"),
    ),
    events: (
      await rows(
        "SELECT e.type, e.detail, d.full_name AS debtor FROM debtor_events e JOIN debtors d ON d.id = e.debtor_id WHERE e.owner_id = ? ORDER BY e.id",
        owner,
      )
    ).map((e) => strip(e)),
  };
}

type Holdings = Awaited<ReturnType<typeof holdings>>;

interface Mutation {
  name: string;
  seed?: SeedOptions;
  /** The form way: a fetcher's post to the page's action. */
  form(s: Seeded): Promise<{ status: number; data: Json }>;
  /** The API way. */
  api(s: Seeded): Promise<{ status: number; body: Json }>;
  /** What the mutation must have done (so that two ways doing nothing do not pass). */
  check(after: Holdings): void;
}

const DEBTORS_PAGE = "/debtors-list";
const ORGS_PAGE = "/iam/orgs";

const newDebtor = {
  kind: "company",
  full_name: "Nora New",
  email: "nora.new@example.com",
  debt: "250.5",
  active_strategy: "2",
  time_zone: "Asia/Tokyo",
  language: "de",
  invoice_number: "INV-7",
  currency: "EUR",
};
const jsonDebtor = { ...newDebtor, debt: 250.5, active_strategy: 2 };

/** The seeded debtor's fields as an edit sends them, with `debt` changed. */
const debtorEdit = (s: Seeded, debt: string) => ({
  id: String(s.debtorId),
  kind: "person",
  full_name: "Pat Parity-Renamed",
  email: "pat.renamed@example.com",
  debt,
  active_strategy: "3",
  time_zone: "Europe/Paris",
  language: "nl",
  invoice_number: "",
});
const jsonDebtorEdit = (s: Seeded, debt: number) => ({
  ...debtorEdit(s, String(debt)),
  id: s.debtorId,
  debt,
  active_strategy: 3,
});

const org = { name: "Second Org", address: "2 Parity Lane", payment_url: "https://pay.example.com/parity" };

const MUTATIONS: Mutation[] = [
  {
    name: "debtor add",
    form: (s) => formAction(DEBTORS_PAGE, { intent: "debtor-add", ...newDebtor }, s.user.cookie),
    api: (s) => apiJson("POST", "/debtors/add", { cookie: s.user.cookie, json: jsonDebtor }),
    check: (after) => expect(after.debtors).toHaveLength(2),
  },
  {
    name: "debtor edit",
    form: (s) => formAction(DEBTORS_PAGE, { intent: "debtor-edit", ...debtorEdit(s, "120") }, s.user.cookie),
    api: (s) => apiJson("PUT", "/debtors/edit", { cookie: s.user.cookie, json: jsonDebtorEdit(s, 120) }),
    check: (after) => {
      expect(after.debtors[0]).toMatchObject({ full_name: "Pat Parity-Renamed", debt_cents: 12_000 });
      expect(after.schedules[0]).toMatchObject({ state: "ENABLED" });
    },
  },
  {
    name: "debtor edit that makes the debt paid in full (an armed schedule)",
    seed: { paidCents: 3000 },
    form: (s) => formAction(DEBTORS_PAGE, { intent: "debtor-edit", ...debtorEdit(s, "30") }, s.user.cookie),
    api: (s) => apiJson("PUT", "/debtors/edit", { cookie: s.user.cookie, json: jsonDebtorEdit(s, 30) }),
    check: (after) => {
      expect(after.debtors[0]).toMatchObject({ debt_cents: 3000, paid_cents: 3000, status: "paid" });
      expect(after.schedules[0]).toMatchObject({ state: "COMPLETED", stopped_reason: "paid", has_next_run: false });
      expect(after.alarms[0]).toMatchObject({ armed: false });
    },
  },
  {
    name: "debtor delete (an armed schedule)",
    form: (s) => formAction(DEBTORS_PAGE, { intent: "debtor-delete", id: String(s.debtorId) }, s.user.cookie),
    api: (s) => apiJson("DELETE", "/debtors/del", { cookie: s.user.cookie, json: { id: s.debtorId } }),
    check: (after) => {
      expect(after.debtors).toEqual([]);
      expect(after.schedules).toEqual([]);
      expect(after.alarms).toEqual([{ schedule: "deleted", armed: false, followsRow: true }]);
    },
  },
  {
    name: "organization add",
    form: (s) => formAction(ORGS_PAGE, { intent: "org-add", ...org }, s.user.cookie),
    api: (s) => apiJson("POST", "/org/add", { cookie: s.user.cookie, json: org }),
    check: (after) => expect(after.organizations).toHaveLength(2),
  },
  {
    name: "organization edit",
    form: (s) => formAction(ORGS_PAGE, { intent: "org-edit", id: String(s.orgId), ...org }, s.user.cookie),
    api: (s) => apiJson("PUT", "/org/edit", { cookie: s.user.cookie, json: { id: s.orgId, ...org } }),
    check: (after) => expect(after.organizations).toEqual([expect.objectContaining({ name: "Second Org" })]),
  },
  {
    name: "organization delete (a schedule sent as it)",
    seed: { asOrganization: true },
    form: (s) => formAction(ORGS_PAGE, { intent: "org-delete", id: String(s.orgId) }, s.user.cookie),
    api: (s) => apiJson("DELETE", "/org/del", { cookie: s.user.cookie, json: { id: s.orgId } }),
    check: (after) => expect(after.organizations).toEqual([]),
  },
  {
    name: "invoice add",
    form: (s) =>
      formAction(
        DEBTORS_PAGE,
        {
          intent: "invoice-add",
          debtor_id: String(s.debtorId),
          number: "PAR-2",
          amount: "40.5",
          currency: "USD",
          issued_on: "2026-02-01",
          due_on: "2026-03-01",
        },
        s.user.cookie,
      ),
    api: (s) =>
      apiJson("POST", "/invoices/add", {
        cookie: s.user.cookie,
        json: { debtor_id: s.debtorId, number: "PAR-2", amount: 40.5, issued_on: "2026-02-01", due_on: "2026-03-01" },
      }),
    check: (after) => {
      expect(after.invoices).toHaveLength(2);
      expect(after.debtors[0]).toMatchObject({ debt_cents: 14_050, status: "active" });
    },
  },
  {
    name: "invoice edit",
    form: (s) =>
      formAction(
        DEBTORS_PAGE,
        {
          intent: "invoice-edit",
          id: String(s.invoiceId),
          number: "PAR-1",
          amount: "80",
          currency: "USD",
          issued_on: "2026-01-01",
          due_on: "2026-02-01",
        },
        s.user.cookie,
      ),
    api: (s) =>
      apiJson("PUT", "/invoices/edit", {
        cookie: s.user.cookie,
        json: {
          id: s.invoiceId,
          number: "PAR-1",
          amount: 80,
          currency: "USD",
          issued_on: "2026-01-01",
          due_on: "2026-02-01",
        },
      }),
    check: (after) => {
      expect(after.invoices).toEqual([expect.objectContaining({ number: "PAR-1", amount_cents: 8000 })]);
      expect(after.debtors[0]).toMatchObject({ debt_cents: 8000 });
    },
  },
  {
    name: "invoice void that leaves nothing owed (an armed schedule)",
    form: (s) => formAction(DEBTORS_PAGE, { intent: "invoice-void", id: String(s.invoiceId) }, s.user.cookie),
    api: (s) => apiJson("PUT", "/invoices/void", { cookie: s.user.cookie, json: { id: s.invoiceId } }),
    check: (after) => {
      expect(after.invoices).toEqual([expect.objectContaining({ status: "void" })]);
      expect(after.debtors[0]).toMatchObject({ debt_cents: 0, status: "paid" });
      expect(after.schedules[0]).toMatchObject({ state: "COMPLETED", stopped_reason: "paid" });
      expect(after.alarms[0]).toMatchObject({ armed: false });
    },
  },
  {
    name: "payment add",
    form: (s) =>
      formAction(
        DEBTORS_PAGE,
        { intent: "payment-add", debtor_id: String(s.debtorId), amount: "25.5", paid_on: today(), note: "Cheque" },
        s.user.cookie,
      ),
    api: (s) =>
      apiJson("POST", "/payments/add", {
        cookie: s.user.cookie,
        json: { debtor_id: s.debtorId, amount: 25.5, paid_on: today(), note: "Cheque" },
      }),
    check: (after) => {
      expect(after.debtors[0]).toMatchObject({ paid_cents: 2550, status: "active" });
      expect(after.schedules[0]).toMatchObject({ state: "ENABLED" });
    },
  },
  {
    name: "payment add that pays in full (an armed schedule)",
    form: (s) =>
      formAction(
        DEBTORS_PAGE,
        { intent: "payment-add", debtor_id: String(s.debtorId), amount: "100", paid_on: today(), note: "" },
        s.user.cookie,
      ),
    api: (s) =>
      apiJson("POST", "/payments/add", {
        cookie: s.user.cookie,
        json: { debtor_id: s.debtorId, amount: 100, paid_on: today() },
      }),
    check: (after) => {
      expect(after.debtors[0]).toMatchObject({ paid_cents: 10_000, status: "paid" });
      expect(after.schedules[0]).toMatchObject({ state: "COMPLETED", stopped_reason: "paid" });
      expect(after.alarms[0]).toMatchObject({ armed: false });
    },
  },
  {
    name: "payment edit",
    seed: { paidCents: 3000 },
    form: (s) =>
      formAction(
        DEBTORS_PAGE,
        { intent: "payment-edit", id: String(s.paymentId), amount: "40", paid_on: "2026-01-20", note: "Corrected" },
        s.user.cookie,
      ),
    api: (s) =>
      apiJson("PUT", "/payments/edit", {
        cookie: s.user.cookie,
        json: { id: s.paymentId, amount: 40, paid_on: "2026-01-20", note: "Corrected" },
      }),
    check: (after) => expect(after.payments).toEqual([expect.objectContaining({ amount_cents: 4000 })]),
  },
  {
    name: "payment edit that pays in full (an armed schedule)",
    seed: { paidCents: 3000 },
    form: (s) =>
      formAction(
        DEBTORS_PAGE,
        { intent: "payment-edit", id: String(s.paymentId), amount: "100", paid_on: "2026-01-15", note: "Seeded" },
        s.user.cookie,
      ),
    api: (s) =>
      apiJson("PUT", "/payments/edit", {
        cookie: s.user.cookie,
        json: { id: s.paymentId, amount: 100, paid_on: "2026-01-15", note: "Seeded" },
      }),
    check: (after) => {
      expect(after.debtors[0]).toMatchObject({ status: "paid" });
      expect(after.schedules[0]).toMatchObject({ state: "COMPLETED", stopped_reason: "paid" });
      expect(after.alarms[0]).toMatchObject({ armed: false });
    },
  },
  {
    name: "payment delete",
    seed: { paidCents: 3000 },
    form: (s) => formAction(DEBTORS_PAGE, { intent: "payment-delete", id: String(s.paymentId) }, s.user.cookie),
    api: (s) => apiJson("DELETE", "/payments/del", { cookie: s.user.cookie, json: { id: s.paymentId } }),
    check: (after) => {
      expect(after.payments).toEqual([]);
      expect(after.debtors[0]).toMatchObject({ paid_cents: 0, status: "active" });
    },
  },
  {
    name: "contact add",
    form: (s) =>
      formAction(
        DEBTORS_PAGE,
        {
          intent: "contact-add",
          debtor_id: String(s.debtorId),
          name: "Jane Payable",
          email: "Jane@Example.com",
          role: "Accounts payable",
          cc: "on",
        },
        s.user.cookie,
      ),
    api: (s) =>
      apiJson("POST", "/debtors/contacts/add", {
        cookie: s.user.cookie,
        json: { debtor_id: s.debtorId, name: "Jane Payable", email: "Jane@Example.com", role: "Accounts payable" },
      }),
    check: (after) =>
      expect(after.contacts).toEqual([
        expect.objectContaining({ name: "Jane Payable", email: "jane@example.com", role: "Accounts payable", cc: 1 }),
      ]),
  },
  {
    name: "contact edit (CC off)",
    seed: { contact: true },
    form: (s) =>
      formAction(
        DEBTORS_PAGE,
        { intent: "contact-edit", id: String(s.contactId), name: "Carl C.", email: "carl@example.com" },
        s.user.cookie,
      ),
    api: (s) =>
      apiJson("PUT", "/debtors/contacts/edit", {
        cookie: s.user.cookie,
        json: { id: s.contactId, name: "Carl C.", email: "carl@example.com", cc: false },
      }),
    check: (after) => expect(after.contacts).toEqual([expect.objectContaining({ name: "Carl C.", cc: 0, role: null })]),
  },
  {
    name: "contact delete",
    seed: { contact: true },
    form: (s) => formAction(DEBTORS_PAGE, { intent: "contact-delete", id: String(s.contactId) }, s.user.cookie),
    api: (s) => apiJson("DELETE", "/debtors/contacts/del", { cookie: s.user.cookie, json: { id: s.contactId } }),
    check: (after) => expect(after.contacts).toEqual([]),
  },
  {
    name: "schedule delete (an armed schedule)",
    form: (s) => formAction(ACTIONS, { intent: "schedule-delete", id: s.scheduleId }, s.user.cookie),
    api: (s) => apiJson("DELETE", `/schedule?Name=${encodeURIComponent(s.scheduleId)}`, { cookie: s.user.cookie }),
    check: (after) => {
      expect(after.schedules).toEqual([]);
      expect(after.alarms).toEqual([{ schedule: "deleted", armed: false, followsRow: true }]);
      expect(after.events.map((e) => e.type)).toEqual(["schedule_created", "schedule_deleted"]);
    },
  },
];

describe("the form and the API leave the same rows for the same mutation", () => {
  for (const mutation of MUTATIONS) {
    it(mutation.name, async () => {
      const run = crypto.randomUUID().slice(0, 8);
      const viaForm = await seed("parity-form", run, mutation.seed);
      const viaApi = await seed("parity-api", run, mutation.seed);
      // The two accounts start the same.
      expect(await holdings(viaForm)).toEqual(await holdings(viaApi));

      const form = await mutation.form(viaForm);
      expect(form.status, JSON.stringify(form.data)).toBe(200);
      expect(form.data).toMatchObject({ ok: true });
      const api = await mutation.api(viaApi);
      expect(api.status, JSON.stringify(api.body)).toBe(200);
      expect(api.body).toMatchObject({ success: true });

      const afterForm = await holdings(viaForm);
      const afterApi = await holdings(viaApi);
      expect(afterForm).toEqual(afterApi);
      // Every alarm follows its schedule's row, whichever way the change came.
      for (const alarm of afterForm.alarms) expect(alarm, mutation.name).toMatchObject({ followsRow: true });
      mutation.check(afterForm);
    });
  }
});
