import { createElement } from "react";
import { describe, expect, it } from "vitest";
import { claimAnswerSubject } from "../app/domain/claim-answer";
import { formatDate } from "../app/domain/dates";
import { debtorLocale, LANGUAGES, type Language } from "../app/domain/languages";
import { formatMoney } from "../app/domain/money";
import { TEMPLATE_IDS } from "../app/domain/presets";
import { receiptSubject } from "../app/domain/receipt";
import type { StatementLine } from "../app/domain/statement";
import { TONES } from "../app/domain/strategies";
import ClaimAnswerEmail from "./claim-answer";
import ReceiptEmail from "./receipt";
import type { ReminderEmailProps } from "./reminder";
import { reminderProps } from "./reminder-message";
import { REMINDER_SAMPLE } from "./reminder-sample";
import { renderEmail } from "./render-email";
import { renderReminder } from "./render-reminder";

/**
 * The reminder in each of the five languages (decisions/055): every template and tone, one invoice
 * or several, overdue or not yet due, repeating or one-time, renders in that language with its dates
 * and amounts in that language's locale, no English words, and the opt-out link.
 */

const TODAY = "2027-03-17";
const OPT_OUT = "https://example.com/u/opt-out-token";
/** One invoice of €1,234.56 due March 5, 2027: 12 days overdue on TODAY. */
const overdueOne: StatementLine[] = [{ number: "R-1", dueOn: "2027-03-05", balanceCents: 123_456, currency: "EUR" }];
const overdueSeveral: StatementLine[] = [
  ...overdueOne,
  { number: null, dueOn: "2027-03-20", balanceCents: 10_000, currency: "EUR" },
];
const notDueOne: StatementLine[] = [{ number: "R-2", dueOn: "2027-03-25", balanceCents: 123_456, currency: "EUR" }];
const notDueSeveral: StatementLine[] = [
  ...notDueOne,
  { number: "R-3", dueOn: "2027-04-01", balanceCents: 10_000, currency: "EUR" },
];

/** Words of English's subjects and fixed texts: none may show in another language's e-mail. */
const ENGLISH =
  /\b(reminder|payment|invoices?|overdue|outstanding|notice|follow|upcoming|required|Total due|Already paid|View your statement|Pay now|Pay by bank|Don't want|This reminder was sent)\b/i;

const props = (language: Language, statement: StatementLine[], repeats: boolean): ReminderEmailProps => ({
  ...REMINDER_SAMPLE,
  template: "initial",
  tone: 1,
  statement,
  today: TODAY,
  repeats,
  language,
  locale: debtorLocale(language, "en-US"),
  unsubscribeUrl: OPT_OUT,
});

const nbsp = (text: string) => text.replace(/[\u00a0\u202f]/g, " ");

describe("the reminder in every language", () => {
  // 5 languages × 4 statements × 2 × 15 steps: 600 renders.
  it("renders every template and tone, one invoice or several, overdue or not, repeating or once", {
    timeout: 120_000,
  }, async () => {
    for (const language of LANGUAGES) {
      const locale = debtorLocale(language, "en-US");
      const amount = nbsp(formatMoney(123_456, "EUR", language === "en" ? "en-US" : locale));
      for (const [name, statement] of [
        ["overdue one", overdueOne],
        ["overdue several", overdueSeveral],
        ["not yet due one", notDueOne],
        ["not yet due several", notDueSeveral],
      ] as const)
        for (const repeats of [true, false])
          for (const template of TEMPLATE_IDS)
            for (const tone of TONES) {
              const where = `${language} ${name} ${template} ${tone} ${repeats ? "repeats" : "once"}`;
              const { subject, html, text } = await renderReminder({
                ...props(language, statement, repeats),
                template,
                tone,
              });
              expect(html, where).toContain(`lang="${language}"`);
              if (language !== "en") {
                expect(subject, where).not.toMatch(ENGLISH);
                expect(text, where).not.toMatch(ENGLISH);
              }
              // The first invoice's balance and due date, in the language's format.
              expect(nbsp(text), where).toContain(amount);
              expect(text, where).toContain(formatDate(statement[0]!.dueOn, locale));
              // The opt-out link, in the HTML and the plain text.
              expect(html, where).toContain(`href="${OPT_OUT}"`);
              expect(text, where).toContain(OPT_OUT);
            }
    }
  });

  it("writes German amounts and dates as Germans do", async () => {
    const { subject, text } = await renderReminder({ ...props("de", overdueOne, true), template: "initial", tone: 2 });
    expect(nbsp(subject)).toBe("Zahlungserinnerung: Rechnung R-1 über 1.234,56 €");
    expect(nbsp(text)).toContain("fällig am 05.03.2027, 12 Tage überfällig");
    expect(nbsp(text)).toMatch(/R-1 +05\.03\.2027 +1\.234,56 € +12 Tage überfällig/);
  });

  it("English stays as it was: Dunly's one amount format and English words", async () => {
    const { subject, text } = await renderReminder({ ...props("en", overdueOne, true), template: "initial", tone: 2 });
    expect(subject).toBe("Payment reminder: invoice R-1 for €1,234.56");
    expect(text).toMatch(/R-1 +Mar 5, 2027 +€1,234\.56 +12 days overdue/);
  });

  it("a debtor without a language is written to in the user's: a French number format writes French", async () => {
    const values = reminderProps(
      { template: "initial", tone: 1, frequency: "weekly" },
      { fullName: "Uma User", email: "uma@example.com", paymentUrl: null, locale: "fr-FR" },
      undefined,
      { fullName: "Dora", statement: { lines: overdueOne, totals: [] }, today: TODAY, language: null },
    );
    expect([values.language, values.locale]).toEqual(["fr", "fr-FR"]);
    const { subject } = await renderReminder({ ...values, unsubscribeUrl: OPT_OUT });
    expect(nbsp(subject)).toContain("1 234,56 €");
    expect(subject).not.toMatch(ENGLISH);
    // Their own language wins over the user's.
    const own = reminderProps(
      { template: "initial", tone: 1, frequency: "weekly" },
      { fullName: "Uma User", email: "uma@example.com", paymentUrl: null, locale: "fr-FR" },
      undefined,
      { fullName: "Dora", statement: { lines: overdueOne, totals: [] }, today: TODAY, language: "es" },
    );
    expect([own.language, own.locale]).toEqual(["es", "es-ES"]);
  });
});

describe("the receipt and the claim answer in the debtor's language", () => {
  it("are written in it, and in English without a language (a message recorded before)", async () => {
    const receipt = { ...ReceiptEmail.PreviewProps, amount: "42,00 €", paidOn: "26.11.2026" };
    const german = await renderEmail(createElement(ReceiptEmail, { ...receipt, language: "de" }));
    expect(german).toContain('lang="de"');
    expect(german).toContain("Zahlung erhalten");
    expect(german).toContain("Sie erhalten diese E-Mail, weil Sie online bezahlt haben.");
    expect(receiptSubject({ ...receipt, language: "de" })).toBe("Quittung: 42,00 € an Acme Ltd bezahlt");
    const english = await renderEmail(createElement(ReceiptEmail, ReceiptEmail.PreviewProps));
    expect(english).toContain("Payment received");
    expect(receiptSubject(ReceiptEmail.PreviewProps)).toBe("Receipt: €42.00 paid to Acme Ltd");

    const claim = { ...ClaimAnswerEmail.PreviewProps, language: "fr" as const };
    const french = await renderEmail(createElement(ClaimAnswerEmail, claim));
    expect(french).toContain('lang="fr"');
    expect(french).toContain("Paiement pas encore trouvé");
    expect(french).not.toMatch(/Payment not found|View your statement/);
    expect(claimAnswerSubject(claim)).toBe("À propos de votre paiement à Acme Ltd");
  });
});
