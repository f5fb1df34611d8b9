import { describe, expect, it } from "vitest";
import { FREQUENCIES, type FrequencyId } from "../app/domain/frequencies";
import type { TemplateId } from "../app/domain/presets";
import { frequencyRepeats } from "../app/domain/sender";
import { toTone } from "../app/domain/strategies";
import type { Debtor, Sender, SenderOrganization } from "../app/models/schedule.server";
import { type PreviewChoice, previewChoice } from "../app/routes/test-send-action.server";
import { ANNOUNCING_REPEATS, REPEAT } from "../tests/support/email-fixtures";
import { reminderMessage, reminderProps } from "./reminder-message";
import { REMINDER_SAMPLE } from "./reminder-sample";
import { renderReminder } from "./render-reminder";

/**
 * What the engine (app/reminders/engine.server.ts), the in-app preview and the test send
 * (app/routes/test-send-action.server.ts) give the template, rendered (docs/architecture.md §13: the preview shows
 * what would be sent; a one-time reminder announces no further reminders).
 */

const user: Sender = { fullName: "Uma User", email: "uma@example.com", paymentUrl: null };
const org: SenderOrganization = { id: 1, name: "Uma Org", address: "1 Main St", paymentUrl: null };
const debtor = {
  id: 7,
  ownerId: "u1",
  kind: "person",
  fullName: "Dora Debtor",
  email: "dora@example.com",
  debtCents: 50_000,
  paidCents: 10_000,
  currency: "EUR",
  activeStrategy: 3,
  status: "active",
  timeZone: "UTC",
  invoiceNumber: null,
  paidClaimedAt: null,
  optOutKey: "k",
  createdAt: 0,
  updatedAt: 0,
} satisfies Debtor;
const links = {
  unsubscribeUrl: "https://dunly.test/u/t",
  paidUrl: "https://dunly.test/p/t",
  portalUrl: "https://dunly.test/d/t",
};

function engineMessage(
  frequency: FrequencyId,
  over: { template?: string; tone?: number; user?: Sender; org?: SenderOrganization; debtor?: Debtor } = {},
) {
  const d = over.debtor ?? debtor;
  const choice = {
    template: (over.template ?? "initial") as TemplateId,
    tone: toTone(over.tone ?? 3),
    dueDate: "2031-01-15",
    frequency,
  };
  return reminderMessage(reminderProps(choice, over.user ?? user, over.org, d), d.email, links);
}

describe("the engine's reminder", () => {
  it("repeats only for a daily or weekly schedule", () => {
    expect(FREQUENCIES.map((f) => [f.id, frequencyRepeats(f.id)])).toEqual([
      ["daily", true],
      ["weekly", true],
      ["now", false],
    ]);
    // The preview and the test send: a missing or unknown frequency is the form's default (daily).
    const get = (query: string) => (name: string) => new URLSearchParams(query).get(name) ?? undefined;
    expect(frequencyRepeats(previewChoice(get("template=single&tone=1"))?.frequency ?? "")).toBe(true);
    expect(frequencyRepeats(previewChoice(get("template=single&tone=1&frequency=bogus"))?.frequency ?? "")).toBe(true);
    expect(frequencyRepeats(previewChoice(get("template=single&tone=1&frequency=now"))?.frequency ?? "")).toBe(false);
  });

  it.each(ANNOUNCING_REPEATS)(
    "%s (tone %i): a 'now' schedule's announces no more reminders; a weekly or daily one's does",
    async (template, tone) => {
      const once = await renderReminder(engineMessage("now", { template, tone }));
      for (const out of [once.subject, once.html, once.text]) {
        expect(out).not.toMatch(REPEAT);
        expect(out).not.toContain("reminders pause");
      }
      expect(once.text).toContain(`I've paid <${links.paidUrl}>`);
      expect(once.text).toContain(`View your statement / respond <${links.portalUrl}>`);
      for (const frequency of ["weekly", "daily"] as const) {
        const repeating = await renderReminder(engineMessage(frequency, { template, tone }));
        expect(repeating.html).toMatch(REPEAT);
        expect(repeating.text).toMatch(REPEAT);
      }
    },
  );

  it("carries no invoice link; the invoice number only when the debtor has one", async () => {
    const message = engineMessage("weekly");
    expect(Object.keys(message).filter((key) => /link/i.test(key))).toEqual([]);
    const plain = await renderReminder(message);
    for (const out of [plain.subject, plain.html, plain.text]) {
      expect(out).not.toContain("View invoice");
      expect(out).not.toMatch(/invoice/i);
    }
    const numbered = await renderReminder(engineMessage("weekly", { debtor: { ...debtor, invoiceNumber: " A-12 " } }));
    expect(numbered.subject).toContain("invoice A-12");
    expect(numbered.text).toContain("Invoice: A-12");
    expect(numbered.text).not.toContain("View invoice");
  });

  it("shows 'Pay now' only with a payment page: the organization's when it has one, else the user's", async () => {
    const none = await renderReminder(engineMessage("weekly"));
    expect(none.html).not.toContain("Pay now");
    const mine = { ...user, paymentUrl: "https://pay.example.com/uma" };
    expect(engineMessage("weekly", { user: mine }).payUrl).toBe("https://pay.example.com/uma");
    expect(engineMessage("weekly", { user: mine, org }).payUrl).toBe("https://pay.example.com/uma");
    const orgs = { ...org, paymentUrl: "https://pay.example.com/org" };
    expect(engineMessage("weekly", { user: mine, org: orgs }).payUrl).toBe("https://pay.example.com/org");
    const paid = await renderReminder(engineMessage("weekly", { user: mine }));
    expect(paid.text).toContain("Pay now <https://pay.example.com/uma>");
  });
});

describe("the preview's and the test send's reminder", () => {
  const choice = (query: string): PreviewChoice => {
    const params = new URLSearchParams(query);
    const parsed = previewChoice((name) => params.get(name) ?? undefined);
    if (!parsed) throw new Error(`no choice for ${query}`);
    return parsed;
  };

  it("repeats as the chosen frequency does; no frequency is the form's default, daily", () => {
    expect(frequencyRepeats(choice("template=initial&tone=3&frequency=now").frequency)).toBe(false);
    expect(frequencyRepeats(choice("template=initial&tone=3&frequency=weekly").frequency)).toBe(true);
    expect(frequencyRepeats(choice("template=initial&tone=3&frequency=daily").frequency)).toBe(true);
    expect(frequencyRepeats(choice("template=initial&tone=3").frequency)).toBe(true);
    expect(frequencyRepeats(choice("template=initial&tone=3&frequency=bogus").frequency)).toBe(true);
  });

  it("the sample (no debtor chosen) has no invoice, and a one-time one announces no more reminders", async () => {
    const once = await renderReminder(reminderProps(choice("template=initial&tone=3&frequency=now"), user, undefined));
    const weekly = await renderReminder(
      reminderProps(choice("template=initial&tone=3&frequency=weekly"), user, undefined),
    );
    for (const out of [once.subject, once.html, once.text, weekly.subject, weekly.html, weekly.text]) {
      expect(out).not.toContain("View invoice");
      expect(out).not.toContain("INV-");
      expect(out).not.toMatch(/invoice/i);
    }
    for (const out of [once.html, once.text]) expect(out).not.toMatch(REPEAT);
    for (const out of [weekly.html, weekly.text]) expect(out).toMatch(REPEAT);
    // The sample debtor, from the real sender.
    expect(weekly.text).toContain(REMINDER_SAMPLE.receiverName);
    expect(weekly.text).toContain("on behalf of Uma User");
    expect(weekly.text).not.toContain(REMINDER_SAMPLE.senderName);
  });

  it("the same as the engine's for the same debtor, sender and frequency (but the links)", () => {
    for (const frequency of ["now", "weekly"] as const) {
      const props = reminderProps(
        choice(`template=initial&tone=3&frequency=${frequency}&due_date=2031-01-15`),
        user,
        org,
        debtor,
      );
      const { to: _to, unsubscribeUrl: _u, paidUrl: _p, portalUrl: _d, ...engine } = engineMessage(frequency, { org });
      expect(props).toEqual(engine);
    }
  });

  it("shows 'Pay now' only when a real reminder would, and the chosen due date or none", async () => {
    const sample = await renderReminder(reminderProps(choice("template=initial&tone=1"), user, undefined));
    expect(sample.html).not.toContain("Pay now");
    expect(sample.text).not.toContain("Due date:");
    expect(sample.text).not.toContain("December 31, 2026");
    const mine = { ...user, paymentUrl: "https://pay.example.com/uma" };
    const dated = await renderReminder(
      reminderProps(choice("template=initial&tone=1&due_date=2027-03-05"), mine, undefined),
    );
    expect(dated.text).toContain("Pay now <https://pay.example.com/uma>");
    expect(dated.text).toContain("Due date: March 5, 2027");
    expect(dated.text).not.toContain(REMINDER_SAMPLE.payUrl);
  });
});
