import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { portalLink } from "~/links/debtor-pages.server";
import { readConfig } from "~/platform/config.server";
import { ContactRulesSchema } from "~/schemas/contact-rules";
import { DefaultCurrencySchema, DeleteAccountSchema, PaymentLinkSchema } from "~/schemas/profile";
import { ScheduleSchema } from "~/schemas/schedule";
import {
  clientMessage,
  constraintsOf,
  type Fields,
  type FormCase,
  formMarkup,
  shiftDate,
  violating,
} from "../support/form-limits";
import { formAction, type Json, replyErrors } from "./data-helpers";
import { db, makeDebtor } from "./fixtures";
import { get, location, markup, postForm, signIn, uniqueEmail } from "./helpers";
import { loaderData } from "./schedule-helpers";

/**
 * No field refuses in the browser what the server then accepts. For every form, the test reads the constraints its inputs carry in the
 * markup (required, min, max, maxlength, pattern, type=email/number/date), makes a value that
 * breaks each one, posts it with the form's intent and expects the server to refuse it: 400 with an
 * error on that field, and, where the browser would run the form's valibot schema, the schema's own
 * message. The forms that only render in a dialog on the client (debtor, invoice, payment,
 * organization) are read from their components by tests/support/dialog-form-limits.test.ts, which
 * checks each limit against the form's schema: the schema the form action and the JSON API use
 * (the features' *-entity.server.ts, tests/integration/parity.test.ts).
 */

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

function formCases({ cookie, debtor, portal, user }: SetUp): FormCase[] {
  const today = new Date().toISOString().slice(0, 10);
  return [
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
      // Only violating values are posted: the valid one (the account's own address) would delete it.
      name: "delete account",
      intent: "account-delete",
      html: page("/iam/info", cookie),
      valid: () => ({ intent: "account-delete", confirm_email: user.email }),
      post: viaFetcher("/iam/info", cookie),
      schema: DeleteAccountSchema,
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
    for (const name of ["schedule create", "the debtor's page: promise", "payment link", "delete account"])
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
