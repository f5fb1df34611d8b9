import { createElement, type ReactElement } from "react";
import { renderToString } from "react-dom/server";
import { createRoutesStub } from "react-router";
import type { GenericSchema } from "valibot";
import { describe, expect, it } from "vitest";
import { ContactForm } from "~/components/debtors/contact-form";
import { DebtorForm } from "~/components/debtors/debtor-form";
import { InvoiceForm } from "~/components/debtors/invoice-forms";
import { PaymentForm } from "~/components/debtors/payment-form";
import { OrgForm } from "~/components/settings/org-manager";
import type { DebtorRow } from "~/debtors/debtors.server";
import { ContactFormSchema } from "~/schemas/contact";
import { debtorSchema } from "~/schemas/debtor";
import { invoiceSchema } from "~/schemas/invoice";
import { OrganizationSchema } from "~/schemas/organization";
import { paymentSchema } from "~/schemas/payment";
import { clientMessage, constraintsOf, type Fields, formMarkup, violating } from "./form-limits";

/**
 * The forms that only render in a dialog (debtor, invoice, payment, organization): every limit
 * their markup carries is one their valibot schema keeps too, on the same field. The form action
 * and the JSON API parse with that schema (the features' *-entity.server.ts; tests/integration/parity.test.ts), so a
 * value the browser refuses is one the server refuses. The pages' own
 * forms are checked against the server itself in tests/integration/client-server-parity.test.ts.
 */

let rendered: ReactElement | null = null;
const Stub = createRoutesStub([{ path: "/", Component: () => rendered }]);

/** The component's markup inside a router (the forms use fetchers), as the browser first renders it. */
function render(element: ReactElement) {
  rendered = element;
  return renderToString(createElement(Stub, { initialEntries: ["/"] }));
}

const noop = () => {};
const today = new Date().toISOString().slice(0, 10);
const debtor = {
  id: 7,
  kind: "person",
  fullName: "Pat Parity",
  email: "pat@example.com",
  debtCents: 30_000,
  paidCents: 0,
  currency: "USD",
  activeStrategy: 1,
  status: "active",
  timeZone: "UTC",
  language: null,
  contactName: null,
  contactRole: null,
  lateCharges: null,
  phone: null,
  textConsentAt: null,
  textConsentBy: null,
  invoiceNumber: "PAR-1",
  openInvoices: 1,
  oldestDueOn: null,
  singleInvoice: true,
  emailsSent: 0,
  resumable: 0,
} satisfies DebtorRow;

interface DialogForm {
  name: string;
  intent: string;
  html: () => string;
  valid: Fields;
  schema: GenericSchema;
}

const FORMS: DialogForm[] = [
  {
    name: "debtor add",
    intent: "debtor-add",
    html: () => render(createElement(DebtorForm, { onDone: noop, accountCurrency: "USD" })),
    valid: { kind: "person", full_name: "Pat", email: "pat@example.com", debt: "300", active_strategy: "1" },
    schema: debtorSchema("en-US"),
  },
  {
    name: "contact add",
    intent: "contact-add",
    html: () => render(createElement(ContactForm, { debtorId: 7, onResult: noop })),
    valid: { name: "Jane", email: "jane@example.com", cc: "on" },
    schema: ContactFormSchema,
  },
  {
    name: "invoice add",
    intent: "invoice-add",
    html: () => render(createElement(InvoiceForm, { debtor, onResult: noop })),
    valid: { amount: "10", currency: "USD" },
    schema: invoiceSchema("en-US"),
  },
  {
    name: "payment add",
    intent: "payment-add",
    html: () => render(createElement(PaymentForm, { debtor, maxCents: 30_000, invoices: [], onResult: noop })),
    valid: { amount: "1", paid_on: today },
    schema: paymentSchema({ today, maxCents: 30_000, currency: "USD" }),
  },
  {
    name: "organization add",
    intent: "org-add",
    html: () => render(createElement(OrgForm, { onClose: noop })),
    valid: { name: "Parity Ltd", address: "1 Main St" },
    schema: OrganizationSchema,
  },
];

describe("the dialogs' forms: every limit in the markup is the schema's", () => {
  for (const form of FORMS) {
    it(form.name, () => {
      const html = formMarkup(form.html(), form.intent);
      expect(clientMessage(form.schema, form.valid, "amount"), "the valid values pass").toBeUndefined();
      for (const constraint of constraintsOf(html)) {
        const label = `${form.name}: ${constraint.field} ${constraint.kind}=${constraint.value}`;
        const fields = { ...form.valid, [constraint.field]: violating(constraint) };
        expect(clientMessage(form.schema, fields, constraint.field), label).toEqual(expect.any(String));
      }
    });
  }

  it("reads limits from the markup at all (a form that lost them would pass silently)", () => {
    const limits = constraintsOf(formMarkup(FORMS[0]!.html(), "debtor-add"));
    expect(limits.map((c) => `${c.field}:${c.kind}`)).toEqual(expect.arrayContaining(["email:type"]));
  });
});
