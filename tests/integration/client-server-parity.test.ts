import { env } from "cloudflare:workers";
import { parseWithValibot } from "@conform-to/valibot";
import { createElement, type ReactElement } from "react";
import { renderToString } from "react-dom/server";
import { createRoutesStub } from "react-router";
import type { GenericSchema } from "valibot";
import { describe, expect, it } from "vitest";
import { DebtorForm } from "~/components/debtors/debtor-form";
import { PaymentForm } from "~/components/debtors/debtor-payments";
import { InvoiceForm } from "~/components/debtors/invoice-forms";
import { OrgForm } from "~/components/settings/org-manager";
import { fromCents } from "~/domain/money";
import { readConfig } from "~/lib/config.server";
import { portalLink } from "~/lib/portal.server";
import { ContactRulesSchema } from "~/schemas/contact-rules";
import { DebtorSchema } from "~/schemas/debtor";
import { InvoiceSchema } from "~/schemas/invoice";
import { OrganizationSchema } from "~/schemas/organization";
import { paymentSchema } from "~/schemas/payment";
import { DefaultCurrencySchema, PaymentLinkSchema } from "~/schemas/profile";
import { ScheduleSchema } from "~/schemas/schedule";
import { formAction, type Json, replyErrors } from "./data-helpers";
import { db, makeDebtor } from "./fixtures";
import { DAY, get, location, markup, postForm, signIn, uniqueEmail } from "./helpers";
import { loaderData } from "./schedule-helpers";

/**
 * No field refuses in the browser what the server then accepts (docs/architecture.md §7, "One valibot schema
 * per form, on both sides"). For every form, the test reads the constraints its inputs carry in the
 * markup (required, min, max, maxlength, pattern, type=email/number/date), makes a value that
 * breaks each one, posts it with the form's intent and expects the server to refuse it: 400 with an
 * error on that field, and, where the browser would run the form's valibot schema, the schema's own
 * message. Forms that only render in a dialog on the client (the debtor, invoice, payment and
 * organization forms) are rendered here from their components, with the page's data.
 */

type Fields = Record<string, string>;

interface Constraint {
  field: string;
  kind: "required" | "min" | "max" | "maxlength" | "pattern" | "type";
  value: string;
  type: string;
}

interface FormCase {
  name: string;
  /** The HTML the form is rendered in (a page, or its component). */
  html: () => Promise<string>;
  /** The hidden `intent` that picks the form out of the page. */
  intent: string;
  /** A submission the server accepts, which each case breaks in one field. */
  valid: () => Fields;
  /** Posts the fields as the form does; the status and each field's errors. */
  post: (fields: Fields) => Promise<{ status: number; errors: Record<string, string[]> }>;
  /** The schema the browser checks the form with (conform's onValidate), when it has one. */
  schema?: GenericSchema;
}

// --- reading the markup ---------------------------------------------------------------------

const attributesOf = (tag: string) => {
  const attrs = new Map<string, string>();
  for (const [, name, value] of tag.matchAll(/\s([a-zA-Z-:]+)(?:="([^"]*)")?/g)) {
    attrs.set(name!.toLowerCase(), (value ?? "").replace(/&amp;/g, "&").replace(/&quot;/g, '"'));
  }
  return attrs;
};

/** The `<form>` of the page whose hidden intent is `intent`. */
function formMarkup(html: string, intent: string) {
  for (const [form] of html.matchAll(/<form\b[\s\S]*?<\/form>/g)) {
    if (form.includes(`name="intent" value="${intent}"`)) return form;
  }
  throw new Error(`no form with the intent ${intent} in the markup`);
}

/** Every constraint the form's named inputs, selects and text areas carry. */
function constraintsOf(form: string): Constraint[] {
  const found: Constraint[] = [];
  for (const [tag, element] of form.matchAll(/<(input|select|textarea)\b[^>]*>/g)) {
    const attrs = attributesOf(tag);
    const field = attrs.get("name");
    const type = element === "input" ? (attrs.get("type") ?? "text") : element!;
    if (!field || type === "hidden" || type === "submit") continue;
    if (attrs.has("required")) found.push({ field, kind: "required", value: "", type });
    for (const kind of ["min", "max", "maxlength", "pattern"] as const) {
      const value = attrs.get(kind);
      if (value !== undefined) found.push({ field, kind, value, type });
    }
    if (type === "email" || type === "number" || type === "date")
      found.push({ field, kind: "type", value: type, type });
  }
  return found;
}

const shiftDate = (iso: string, days: number) =>
  new Date(Date.parse(`${iso}T00:00:00Z`) + days * DAY).toISOString().slice(0, 10);

/** A value the browser would refuse for this constraint. */
function violating(c: Constraint): string {
  switch (c.kind) {
    case "required":
      return "";
    case "min":
      return c.type === "date" ? shiftDate(c.value, -1) : String(Number(c.value) - 1);
    case "max":
      return c.type === "date" ? shiftDate(c.value, 1) : String(Number(c.value) + 1);
    case "maxlength":
      return "x".repeat(Number(c.value) + 1);
    case "pattern": {
      const re = new RegExp(`^(?:${c.value})$`, "v");
      const value = ["x", "0", "!", "x y", "-"].find((candidate) => !re.test(candidate));
      if (value === undefined) throw new Error(`no value breaks the pattern ${c.value}`);
      return value;
    }
    case "type":
      return { email: "not-an-email", number: "twelve", date: "2026-02-30" }[c.value] ?? "";
  }
}

/** The message the form's schema gives the field for these values: what the browser shows. */
function clientMessage(schema: GenericSchema, fields: Fields, field: string) {
  const formData = new FormData();
  for (const [name, value] of Object.entries(fields)) formData.set(name, value);
  const submission = parseWithValibot(formData, { schema });
  return submission.status === "success" ? undefined : submission.error?.[field]?.[0];
}

// --- rendering dialog forms -----------------------------------------------------------------

/** A component's markup inside a router (the forms use fetchers), as the browser first renders it. */
let rendered: ReactElement | null = null;
const RenderedForm = () => rendered;
const Stub = createRoutesStub([{ path: "/", Component: RenderedForm }]);

function render(element: ReactElement) {
  rendered = element;
  return renderToString(createElement(Stub, { initialEntries: ["/"] }));
}

const noop = () => {};

/** A fetcher-style post of the page at `path`: the status and the reply's field errors. */
const viaFetcher = (path: string, cookie: string) => async (fields: Fields) => {
  const { status, data } = await formAction(path, fields, cookie);
  return { status, errors: replyErrors(data) };
};

/** The debtor's page answers with its own shape: `errors` per field (a message or messages). */
const viaPortal = (path: string) => async (fields: Fields) => {
  const { status, data } = await formAction(path, fields);
  const errors: Record<string, string[]> = {};
  for (const [field, value] of Object.entries((data as Json)?.errors ?? {}))
    errors[field] = Array.isArray(value) ? value.map(String) : [String(value)];
  return { status, errors };
};

// --- the forms -----------------------------------------------------------------------------

async function setUp() {
  const user = await signIn(uniqueEmail("parity"));
  const { cookie } = user;
  const add = await formAction(
    "/dashboard",
    {
      intent: "debtor-add",
      kind: "person",
      full_name: "Pat Parity",
      email: "pat@example.com",
      debt: "300",
      active_strategy: "1",
      currency: "USD",
      invoice_number: "PAR-1",
    },
    cookie,
  );
  expect(add.status, JSON.stringify(add.data)).toBe(200);
  const { debtors } = await loaderData("/debtors-list", "routes/debtors-list", cookie);
  const debtor = debtors[0];
  // The debtor's page needs an open invoice for its promise and dispute forms; the debtor has one.
  const portal = new URL(
    await portalLink(db(), readConfig(env), { id: debtor.id, ownerId: user.userId, optOutKey: null }),
  ).pathname;
  // A debtor of another shape, for the schedule form's select.
  await makeDebtor(user.userId, { email: "other@example.com" });
  return { user, cookie, debtor, portal };
}
type SetUp = Awaited<ReturnType<typeof setUp>>;

const page = (path: string, cookie?: string) => async () => markup(await get(path, { cookie }));

function formCases({ cookie, debtor, portal }: SetUp): FormCase[] {
  const debtorFields = {
    kind: "person",
    full_name: "Pat Parity",
    debt: "300",
    active_strategy: "1",
    time_zone: "UTC",
    currency: "USD",
  };
  const today = new Date().toISOString().slice(0, 10);
  return [
    {
      name: "debtor add",
      intent: "debtor-add",
      html: async () => render(createElement(DebtorForm, { onDone: noop, accountCurrency: "USD" })),
      valid: () => ({ intent: "debtor-add", ...debtorFields, email: uniqueEmail("parity-new") }),
      post: viaFetcher("/dashboard", cookie),
      schema: DebtorSchema,
    },
    {
      name: "debtor edit",
      intent: "debtor-edit",
      html: async () =>
        render(
          createElement(DebtorForm, {
            onDone: noop,
            debtor: {
              id: debtor.id,
              kind: debtor.kind,
              full_name: debtor.fullName,
              email: debtor.email,
              debt: fromCents(debtor.debtCents),
              active_strategy: debtor.activeStrategy,
              time_zone: debtor.timeZone,
              invoice_number: debtor.invoiceNumber,
              currency: debtor.currency,
              single_invoice: debtor.singleInvoice,
            },
          }),
        ),
      valid: () => ({ intent: "debtor-edit", id: String(debtor.id), ...debtorFields, email: debtor.email }),
      post: viaFetcher("/dashboard", cookie),
      schema: DebtorSchema,
    },
    {
      name: "invoice add",
      intent: "invoice-add",
      html: async () => render(createElement(InvoiceForm, { debtor, onResult: noop })),
      valid: () => ({ intent: "invoice-add", debtor_id: String(debtor.id), amount: "10", currency: "USD" }),
      post: viaFetcher(`/debtors/${debtor.id}`, cookie),
      schema: InvoiceSchema,
    },
    {
      name: "payment add",
      intent: "payment-add",
      html: async () =>
        render(createElement(PaymentForm, { debtor, maxCents: debtor.debtCents, invoices: [], onResult: noop })),
      valid: () => ({ intent: "payment-add", debtor_id: String(debtor.id), amount: "1", paid_on: today }),
      post: viaFetcher(`/debtors/${debtor.id}`, cookie),
      schema: paymentSchema({ today, maxCents: debtor.debtCents, currency: debtor.currency }),
    },
    {
      name: "organization add",
      intent: "org-add",
      html: async () => render(createElement(OrgForm, { onClose: noop })),
      valid: () => ({ intent: "org-add", name: "Parity Ltd", address: "1 Main St", payment_url: "" }),
      post: viaFetcher("/iam/orgs", cookie),
      schema: OrganizationSchema,
    },
    {
      name: "schedule create",
      intent: "schedule-create",
      html: page("/schedule", cookie),
      valid: () => ({
        intent: "schedule-create",
        kind: "person",
        debtor_id: String(debtor.id),
        preset: "SINGLE_REMINDER",
        frequency: "daily",
        due_date: today,
        time_zone: "UTC",
      }),
      post: viaFetcher("/schedule", cookie),
      schema: ScheduleSchema,
    },
    {
      name: "payment link",
      intent: "payment-link",
      html: page("/iam/info", cookie),
      valid: () => ({ intent: "payment-link", payment_url: "https://pay.example.com/pat" }),
      post: viaFetcher("/iam/info", cookie),
      schema: PaymentLinkSchema,
    },
    {
      name: "default currency",
      intent: "default-currency",
      html: page("/iam/info", cookie),
      valid: () => ({ intent: "default-currency", default_currency: "USD" }),
      post: viaFetcher("/iam/info", cookie),
      schema: DefaultCurrencySchema,
    },
    {
      name: "sending rules",
      intent: "contact-rules",
      html: page("/iam/info", cookie),
      valid: () => ({ intent: "contact-rules", start_hour: "9", end_hour: "18", max_per_week: "3" }),
      post: viaFetcher("/iam/info", cookie),
      schema: ContactRulesSchema,
    },
    {
      name: "the debtor's page: promise",
      intent: "portal-promise",
      html: page(portal),
      valid: () => ({ intent: "portal-promise", promised_on: today }),
      post: viaPortal(portal),
    },
    {
      name: "the debtor's page: dispute",
      intent: "portal-dispute",
      html: page(portal),
      // The invoice reference is read from the page: the only open invoice's.
      valid: () => ({ intent: "portal-dispute", invoice: "", reason: "Not mine" }),
      post: viaPortal(portal),
    },
  ];
}

/** The first option's value of a select in the form (the dispute's invoice reference). */
const firstOption = (form: string, name: string) =>
  new RegExp(`<select[^>]*name="${name}"[\\s\\S]*?<option[^>]*value="([^"]+)"`).exec(form)?.[1] ?? "";

describe("client and server agree on every form's limits", () => {
  it("refuses every value a form's markup forbids, on that field and with the browser's message", async () => {
    const s = await setUp();
    const checked: string[] = [];
    for (const form of formCases(s)) {
      const html = formMarkup(await form.html(), form.intent);
      const valid = form.valid();
      if (form.intent === "portal-dispute") valid.invoice = firstOption(html, "invoice");
      for (const constraint of constraintsOf(html)) {
        const label = `${form.name}: ${constraint.field} ${constraint.kind}=${constraint.value}`;
        const fields = { ...valid, [constraint.field]: violating(constraint) };
        const { status, errors } = await form.post(fields);
        expect(status, label).toBe(400);
        expect(errors[constraint.field], `${label}: ${JSON.stringify(errors)}`).toEqual(expect.any(Array));
        const expected = form.schema && clientMessage(form.schema, fields, constraint.field);
        if (expected) expect(errors[constraint.field]?.[0], label).toBe(expected);
        checked.push(label);
      }
    }
    // Each form was found and read (a form whose markup lost its constraints would pass silently).
    for (const name of ["debtor add", "invoice add", "payment add", "the debtor's page: promise", "payment link"])
      expect(
        checked.some((c) => c.startsWith(`${name}:`)),
        name,
      ).toBe(true);
  });

  it("the schedule form takes a due date in the past and the markup does not forbid it", async () => {
    const s = await setUp();
    const html = formMarkup(await markup(await get("/schedule", { cookie: s.cookie })), "schedule-create");
    expect(constraintsOf(html).filter((c) => c.field === "due_date" && c.kind !== "type")).toEqual([]);
    const lastYear = shiftDate(new Date().toISOString().slice(0, 10), -365);
    const fields = {
      intent: "schedule-create",
      kind: "person",
      debtor_id: String(s.debtor.id),
      preset: "SINGLE_REMINDER",
      due_date: lastYear,
      redirectTo: "/schedules-list",
    };
    // As the page posts it without JavaScript: saved, then off to the list.
    const res = await postForm("/schedule", fields, { cookie: s.cookie });
    expect(res.status).toBe(302);
    expect(location(res)?.pathname).toBe("/schedules-list");
    const { due_date } = (await env.DB.prepare("SELECT due_date FROM schedules WHERE owner_id = ?")
      .bind(s.user.userId)
      .first<{ due_date: string }>())!;
    expect(due_date).toBe(lastYear);
  });
});
