import { DEFAULT_LANGUAGE, type Language } from "../app/domain/languages";
import type { TemplateId } from "../app/domain/presets";
import type { StepText } from "../app/domain/template-body";
import { resolveCopy } from "./reminder-copy";

/**
 * Dunly's own text of a step as the user's editor starts it (decisions/056): the overdue copy of
 * that template and tone, its values written as placeholders, and every part of the e-mail where
 * Dunly's layout puts it. Dunly's text itself adapts to one invoice or several and to invoices not
 * yet due; a user's text is sent as written, so this is the general wording. In `language`: the
 * text a user edits for their debtors of that language.
 */
export function dunlyStepText(template: TemplateId, tone: number, language: Language = DEFAULT_LANGUAGE): StepText {
  const copy = resolveCopy(
    template,
    tone,
    {
      receiverName: "{contactName}",
      amount: "{total}",
      dueDate: "{oldestDueDate}",
      daysOverdue: "{daysOverdue}",
    },
    {},
    language,
  );
  const [first, ...rest] = copy.paragraphs;
  return {
    subject: copy.subject,
    body: [
      copy.greeting,
      `**${copy.heading}**`,
      first ?? "",
      "{statement}",
      "{payButton}",
      "{bankDetails}",
      "{portalLink}",
      ...rest,
      copy.signOff,
      "{signature}",
    ].join("\n\n"),
  };
}
