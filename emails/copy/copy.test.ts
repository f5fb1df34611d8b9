import { describe, expect, it } from "vitest";
import { bankLines } from "../../app/domain/bank-transfer";
import { DEBTOR_MAIL_COPY } from "../../app/domain/debtor-mail-copy";
import { catalogueProblems } from "../../app/domain/i18n";
import { LANGUAGES, type Language } from "../../app/domain/languages";
import { TEMPLATE_IDS } from "../../app/domain/presets";
import { TONES } from "../../app/domain/strategies";
import { ANNOUNCING_REPEATS } from "../../tests/support/email-fixtures";
import { placeholdersOf, REMINDER_COPY_SETS, REMINDER_LABELS, reminderLabels, resolveCopy } from "../reminder-copy";
import { TRANSLATED_BANK_LABELS } from "./bank";
import { LABEL_KEYS, type Line, type ReminderCopySet } from "./types";

const OTHERS = LANGUAGES.filter((l) => l !== "en");
const combos = TEMPLATE_IDS.flatMap((template) => TONES.map((tone) => [template, tone] as const));

/** Every line of a copy set, named by where it is, each with its alternatives. */
function linesOf(set: ReminderCopySet): [string, Line][] {
  const out: [string, Line][] = [["footer", set.footer]];
  for (const tone of TONES) {
    out.push([`frame ${tone} greeting`, set.frame[tone].greeting], [`frame ${tone} signOff`, set.frame[tone].signOff]);
  }
  for (const [kind, copies] of [
    ["overdue", set.overdue],
    ["notYetDue", set.notYetDue],
  ] as const)
    for (const [template, tone] of combos) {
      const copy = copies[template][tone];
      out.push(
        [`${kind} ${template} ${tone} subject`, copy.subject],
        [`${kind} ${template} ${tone} heading`, copy.heading],
      );
      copy.paragraphs.forEach((p, i) => {
        out.push([`${kind} ${template} ${tone} paragraph ${i}`, p]);
      });
    }
  out.push(
    ["optOut question", set.optOut.question],
    ["optOut link", set.optOut.link],
    ["pay button", set.pay.button],
    ["pay paidQuestion", set.pay.paidQuestion],
    ["pay paidQuestionOnce", set.pay.paidQuestionOnce],
    ["pay paidLink", set.pay.paidLink],
  );
  return out;
}

const alternatives = (line: Line): readonly string[] => (typeof line === "string" ? [line] : line);
const sortedPlaceholders = (text: string) => placeholdersOf(text).sort().join(",");

/**
 * Whether a language's text speaks of reminders sent before: what a first reminder must never say.
 * English's words, and each translation's own.
 */
const EARLIER: Record<Language, RegExp> = {
  en: /previous reminders|earlier reminder|several reminders|another reminder|following up|follow-up/i,
  de: /Nachfrage|nachfragen|erneut|weitere Erinnerung(?!en folgen)|früher|vorherig|mehreren Erinnerungen/i,
  fr: /petite relance|^relance|revenons vers vous|précédent|nouveau rappel|plusieurs relances/im,
  es: /seguimiento|de nuevo|reiteramos|recordatorio anterior|recordatorios anteriores|nuevo recordatorio|una vez más|varios recordatorios/i,
  nl: /nog even|komen even terug|vervolgherinnering|nogmaals|eerdere herinnering|opnieuw|meerdere herinneringen/i,
};

describe("every language's reminder copy", () => {
  it("has every fixed label with English's arguments (ICU messages that parse)", () => {
    expect(catalogueProblems(REMINDER_LABELS)).toEqual([]);
    expect(catalogueProblems(DEBTOR_MAIL_COPY)).toEqual([]);
    // English has exactly the keys the labels are looked up by.
    expect(Object.keys(REMINDER_LABELS.en).sort()).toEqual([...LABEL_KEYS].sort());
  });

  it("writes counts without grouping, as English always did", () => {
    expect(reminderLabels("en", "en-US")("daysOverdue", { count: 1557 })).toBe("1557 days overdue");
    expect(reminderLabels("de", "de-DE")("dueIn", { count: 1557 })).toBe("fällig in 1557 Tagen");
    expect(reminderLabels("fr", "fr-FR")("invoices", { count: 1 })).toMatch(/^1 /);
  });

  it("has English's lines, each with as many alternatives using the same placeholders", () => {
    const english = linesOf(REMINDER_COPY_SETS.en);
    for (const language of OTHERS) {
      const theirs = linesOf(REMINDER_COPY_SETS[language]);
      expect(theirs.map(([where]) => where)).toEqual(english.map(([where]) => where));
      theirs.forEach(([where, line], i) => {
        const source = alternatives(english[i]![1]);
        const translated = alternatives(line);
        expect(translated.length, `${language} ${where}`).toBe(source.length);
        translated.forEach((text, j) => {
          expect(sortedPlaceholders(text), `${language} ${where} #${j}: ${text}`).toBe(sortedPlaceholders(source[j]!));
          expect(text.trim(), `${language} ${where} #${j}`).not.toBe("");
          expect(text, `${language} ${where} #${j}`).not.toMatch(/[<>&]/);
        });
      });
    }
  });

  it("drops exactly English's repeat notices from a one-time reminder, and nothing else", () => {
    const values = { amount: "1.234,56 €", dueDate: "5. März 2027", invoiceNumber: "INV-1", daysOverdue: "12" };
    const announcing = new Set(ANNOUNCING_REPEATS.map(([t, tone]) => `${t} ${tone}`));
    for (const language of LANGUAGES) {
      const notice = new RegExp(REMINDER_COPY_SETS[language].repeatNotice.source);
      for (const timing of ["overdue", "not-yet-due"] as const)
        for (const [template, tone] of combos) {
          const once = resolveCopy(template, tone, values, { repeats: false, timing }, language);
          const repeating = resolveCopy(template, tone, values, { repeats: true, timing }, language);
          const where = `${language} ${timing} ${template} ${tone}`;
          expect(once.paragraphs.join(" "), where).not.toMatch(notice);
          // The same steps announce more in every language as in English.
          const english = resolveCopy(template, tone, values, { repeats: true, timing }, "en");
          const englishOnce = resolveCopy(template, tone, values, { repeats: false, timing }, "en");
          const dropsInEnglish = english.paragraphs.join(" ") !== englishOnce.paragraphs.join(" ");
          expect(repeating.paragraphs.join(" ") !== once.paragraphs.join(" "), where).toBe(dropsInEnglish);
          if (timing === "overdue") expect(dropsInEnglish, where).toBe(announcing.has(`${template} ${tone}`));
          // Only the announcing sentences go: the rest reads as in the repeating copy.
          expect(once.paragraphs.length, where).toBeGreaterThanOrEqual(repeating.paragraphs.length - 1);
          expect(once.subject).toBe(repeating.subject);
        }
    }
  });

  it("a first reminder speaks of no earlier one in any language, and changes where English does", () => {
    const values = { amount: "1.200,00 €", dueDate: "8. Nov. 2026", invoiceNumber: "INV-101", daysOverdue: "20" };
    for (const language of LANGUAGES)
      for (const [template, tone] of combos) {
        const usual = resolveCopy(template, tone, values, {}, language);
        const first = resolveCopy(template, tone, values, { firstContact: true }, language);
        const text = [first.subject, first.heading, ...first.paragraphs].join("\n");
        const where = `${language} ${template} ${tone}`;
        expect(text, where).not.toMatch(EARLIER[language]);
        const englishUsual = resolveCopy(template, tone, values, {}, "en");
        const englishFirst = resolveCopy(template, tone, values, { firstContact: true }, "en");
        // Each part is rewritten exactly where English's is.
        expect(first.subject !== usual.subject, `${where} subject`).toBe(englishFirst.subject !== englishUsual.subject);
        expect(first.heading !== usual.heading, `${where} heading`).toBe(englishFirst.heading !== englishUsual.heading);
        first.paragraphs.forEach((p, i) => {
          expect(p !== usual.paragraphs[i], `${where} paragraph ${i}`).toBe(
            englishFirst.paragraphs[i] !== englishUsual.paragraphs[i],
          );
          // Sentences keep a capital letter.
          expect(p.charAt(0), p).toMatch(/[\p{Lu}0-9$€£"]/u);
        });
      }
  });

  it("says nothing late or final before the due date, in any language", () => {
    const LATE: Record<Language, RegExp> = {
      en: /overdue|\blate\b|past due|final|as soon as possible|outstanding|despite|previous|earlier/i,
      de: /überfällig|verspätet|letzte|so bald wie möglich|baldmöglichst|unverzüglich|trotz|vorherig|früher/i,
      fr: /retard|échu|dernier|dernière|dès que possible|impayé|malgré|précédent/i,
      es: /vencid|retraso|atrasad|últim|lo antes posible|impagad|pese a|a pesar|anterior/i,
      nl: /achterstallig|te laat|laatste|zo snel mogelijk|zo spoedig mogelijk|ondanks|eerdere/i,
    };
    for (const language of LANGUAGES)
      for (const [template, tone] of combos) {
        const copy = REMINDER_COPY_SETS[language].notYetDue[template][tone];
        for (const line of [copy.subject, copy.heading, ...copy.paragraphs])
          for (const text of alternatives(line))
            expect(text, `${language} ${template} ${tone}`).not.toMatch(LATE[language]);
      }
  });

  it("names the bank details' every label in each language", () => {
    const labels = bankLines({
      currency: "GBP",
      holder: "H",
      iban: null,
      bic: null,
      accountNumber: "1",
      sortCode: "123456",
      routingNumber: "2",
      reference: "R",
    }).map((l) => l.label);
    expect(TRANSLATED_BANK_LABELS.sort()).toEqual(labels.sort());
  });
});
