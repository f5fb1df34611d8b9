import { describe, expect, it } from "vitest";
import { type PreviewChoice, previewChoice } from "../app/actions/test-send-action.server";
import { FREQUENCIES, type FrequencyId } from "../app/domain/frequencies";
import type { TemplateId } from "../app/domain/presets";
import { frequencyRepeats } from "../app/domain/sender";
import { type Statement, statementOf, statementTotals } from "../app/domain/statement";
import { toTone } from "../app/domain/strategies";
import type { Debtor, Sender, SenderOrganization } from "../app/reminders/schedules.server";
import { parseStatement } from "../app/reminders/statement.server";
import { ANNOUNCING_REPEATS, REPEAT } from "../tests/support/email-fixtures";
import { debtorValues, reminderMessage, reminderProps } from "./reminder-message";
import { REMINDER_SAMPLE } from "./reminder-sample";
import { renderReminder } from "./render-reminder";

/**
 * What the engine (app/reminders/engine.server.ts), the in-app preview and the test send
 * (app/routes/test-send-action.server.ts) give the template, rendered (the preview shows
 * what would be sent; a one-time reminder announces no further reminders). All three build the
 * debtor's side with debtorValues from the statement app/reminders/statement.server.ts reads
 *.
 */

const user: Sender = {
  fullName: "Uma User",
  email: "uma@example.com",
  paymentUrl: null,
  locale: null,
  businessName: null,
};
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
  paidClaimedAt: null,
  paidClaimCents: null,
  paidClaimCurrency: null,
  paidClaimOn: null,
  paidClaimReference: null,
  promisedOn: null,
  promiseEndsAt: null,
  promiseBrokenAt: null,
  optOutKey: "k",
  language: null,
  contactName: null,
  contactRole: null,
  sourceProvider: null,
  externalId: null,
  lateCharges: null,
  phone: null,
  textConsentAt: null,
  textConsentBy: null,
  createdAt: 0,
  updatedAt: 0,
} satisfies Debtor;
const links = {
  unsubscribeUrl: "https://dunly.test/u/t",
  paidUrl: "https://dunly.test/p/t",
  portalUrl: "https://dunly.test/d/t",
};

/** When the reminders below are made: 2031-01-20 12:00 UTC. */
const NOW = Date.UTC(2031, 0, 20, 12);

/** The debtor's invoices: two open (€300.00 and €100.00 left), one disputed, one paid. */
const invoices = [
  { number: null, dueOn: "2031-01-15", amountCents: 40_000, paidCents: 10_000, currency: "EUR", status: "open" },
  { number: "D-1", dueOn: "2030-12-01", amountCents: 70_000, paidCents: 0, currency: "EUR", status: "disputed" },
  { number: "P-1", dueOn: "2030-11-01", amountCents: 5_000, paidCents: 5_000, currency: "EUR", status: "paid" },
  { number: "A-2", dueOn: "2031-02-01", amountCents: 10_000, paidCents: 0, currency: "EUR", status: "open" },
];
const lines = statementOf(invoices);
const statement: Statement = { lines, totals: statementTotals(lines) };

function engineMessage(
  frequency: FrequencyId,
  over: {
    template?: string;
    tone?: number;
    user?: Sender;
    org?: SenderOrganization;
    debtor?: Debtor;
    statement?: Statement;
  } = {},
) {
  const d = over.debtor ?? debtor;
  const choice = { template: (over.template ?? "initial") as TemplateId, tone: toTone(over.tone ?? 3), frequency };
  const values = debtorValues(d, over.statement ?? statement, NOW);
  return reminderMessage(reminderProps(choice, over.user ?? user, over.org, values), d.email, links);
}

describe("the engine's reminder", () => {
  it("repeats for a daily, weekly or due-date schedule, not for a one-time one", () => {
    // A due-date schedule's last step is sent as a one-time one (app/reminders/engine.server.ts repeatsAfter).
    expect(FREQUENCIES.map((f) => [f.id, frequencyRepeats(f.id)])).toEqual([
      ["daily", true],
      ["weekly", true],
      ["now", false],
      ["due", true],
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

  it("lists the debtor's open invoices, not the disputed or paid one, and carries no invoice link", async () => {
    const message = engineMessage("weekly");
    expect(Object.keys(message).filter((key) => /link/i.test(key))).toEqual([]);
    expect(message.today).toBe("2031-01-20");
    expect(message.statement).toEqual([
      { number: null, dueOn: "2031-01-15", balanceCents: 30_000, currency: "EUR" },
      { number: "A-2", dueOn: "2031-02-01", balanceCents: 10_000, currency: "EUR" },
    ]);
    const { subject, html, text } = await renderReminder(message);
    expect(subject).toBe("Payment due: 2 invoices, €400.00");
    expect(text).toMatch(/Invoice due Jan 15, 2031 +Jan 15, 2031 +€300\.00 +5 days overdue/);
    expect(text).toMatch(/A-2 +Feb 1, 2031 +€100\.00 +due in 12 days/);
    expect(text).toMatch(/Total due +€400\.00/);
    for (const out of [subject, html, text]) {
      expect(out).not.toContain("View invoice");
      expect(out).not.toContain("D-1");
      expect(out).not.toContain("P-1");
      expect(out).not.toContain("€700.00");
    }
    // One invoice left: its number in the subject; not yet due, so it says when it is due.
    const single = statementOf([invoices[3]!]);
    const numbered = await renderReminder(
      engineMessage("weekly", { statement: { lines: single, totals: statementTotals(single) } }),
    );
    expect(numbered.subject).toBe("Payment due on Feb 1, 2031: invoice A-2, €100.00");
    expect(numbered.text).toContain("due on Feb 1, 2031");
  });

  it("writes to a debtor without a language in the sender's language and format, to one with a language in theirs", async () => {
    const message = engineMessage("weekly", { user: { ...user, locale: "de-DE" } });
    expect(message.language).toBe("de");
    expect(message.locale).toBe("de-DE");
    const german = await renderReminder(message);
    expect(german.subject).toBe("Zahlung fällig: 2 Rechnungen, 400,00 €");
    expect(german.text).toMatch(/Rechnung fällig am 15\.01\.2031 +15\.01\.2031 +300,00\s€ +5 Tage überfällig/);
    // The debtor's own language wins; its dates and amounts are that language's.
    const english = engineMessage("weekly", {
      user: { ...user, locale: "de-DE" },
      debtor: { ...debtor, language: "en" },
    });
    expect([english.language, english.locale]).toEqual(["en", "en-US"]);
    const { subject, text } = await renderReminder(english);
    expect(text).toMatch(/Invoice due Jan 15, 2031 +Jan 15, 2031 +€300\.00 +5 days overdue/);
    const single = statementOf([invoices[3]!]);
    const numbered = await renderReminder(
      engineMessage("weekly", {
        user: { ...user, locale: "en-GB" },
        statement: { lines: single, totals: statementTotals(single) },
      }),
    );
    expect(numbered.subject).toBe("Payment due on 1 Feb 2031: invoice A-2, €100.00");
    expect(subject).toContain("Payment due");
  });

  it("counts days overdue from today in the debtor's own time zone", () => {
    // 2031-01-20 12:00 UTC is already January 21 in Kiritimati (UTC+14).
    const kiritimati = engineMessage("weekly", { debtor: { ...debtor, timeZone: "Pacific/Kiritimati" } });
    expect(kiritimati.today).toBe("2031-01-21");
    const honolulu = engineMessage("weekly", { debtor: { ...debtor, timeZone: "Pacific/Honolulu" } });
    expect(honolulu.today).toBe("2031-01-20");
    expect(engineMessage("weekly", { debtor: { ...debtor, timeZone: "Not/AZone" } }).today).toBe("2031-01-20");
  });

  it("reads the statement as the engine's query returns it (JSON from SQLite)", () => {
    const row = {
      statementLines: JSON.stringify([
        { number: null, dueOn: "2031-01-15", balanceCents: 30_000, currency: "EUR" },
        { number: "A-2", dueOn: "2031-02-01", balanceCents: 10_000, currency: "EUR" },
      ]),
      statementTotals: JSON.stringify([{ currency: "EUR", cents: 40_000, count: 2 }]),
    };
    expect(parseStatement(row)).toEqual(statement);
    expect(parseStatement({ statementLines: "[]", statementTotals: "[]" })).toEqual({ lines: [], totals: [] });
    expect(parseStatement({ statementLines: null, statementTotals: null })).toEqual({ lines: [], totals: [] });
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

  it("the sample (no debtor chosen) is a two-invoice statement, and a one-time one announces no more reminders", async () => {
    const once = await renderReminder(reminderProps(choice("template=initial&tone=3&frequency=now"), user, undefined));
    const weekly = await renderReminder(
      reminderProps(choice("template=initial&tone=3&frequency=weekly"), user, undefined),
    );
    for (const out of [once.subject, weekly.subject]) expect(out).toBe("Payment due: 2 invoices, $1,250.00");
    for (const out of [once.html, once.text, weekly.html, weekly.text]) {
      expect(out).not.toContain("View invoice");
      expect(out).toContain("SAMPLE-1001");
      expect(out).toContain("Invoice due Dec 31, 2026");
    }
    for (const out of [once.html, once.text]) expect(out).not.toMatch(REPEAT);
    for (const out of [weekly.html, weekly.text]) expect(out).toMatch(REPEAT);
    // The sample debtor, from the real sender.
    expect(weekly.text).toContain(REMINDER_SAMPLE.receiverName);
    expect(weekly.text).toContain("Sent by Uma User");
    expect(weekly.text).not.toContain(REMINDER_SAMPLE.senderName);
  });

  it("the same as the engine's for the same debtor, statement, sender, frequency and moment (but the links)", async () => {
    for (const frequency of ["now", "weekly"] as const) {
      const props = reminderProps(
        choice(`template=initial&tone=3&frequency=${frequency}`),
        user,
        org,
        debtorValues(debtor, statement, NOW),
      );
      const { to: _to, unsubscribeUrl: _u, paidUrl: _p, portalUrl: _d, ...engine } = engineMessage(frequency, { org });
      expect(props).toEqual(engine);
      const [a, b] = await Promise.all([
        renderReminder({ ...props, ...links }),
        renderReminder(engineMessage(frequency, { org })),
      ]);
      expect(a).toEqual(b);
    }
  });

  it("shows 'Pay now' only when a real reminder would; a due date in the query changes nothing", async () => {
    const sample = await renderReminder(reminderProps(choice("template=initial&tone=1"), user, undefined));
    expect(sample.html).not.toContain("Pay now");
    const mine = { ...user, paymentUrl: "https://pay.example.com/uma" };
    const paying = await renderReminder(reminderProps(choice("template=initial&tone=1"), mine, undefined));
    expect(paying.text).toContain("Pay now <https://pay.example.com/uma>");
    expect(paying.text).not.toContain(REMINDER_SAMPLE.payUrl);
    // Each invoice has its own due date: the form's due_date is not the reminder's.
    const dated = reminderProps(choice("template=initial&tone=1&due_date=2027-03-05"), mine, undefined);
    expect(dated).toEqual(reminderProps(choice("template=initial&tone=1"), mine, undefined));
    expect((await renderReminder(dated)).text).not.toContain("Mar 5, 2027");
  });
});
