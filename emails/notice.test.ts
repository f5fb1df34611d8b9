import { createElement } from "react";
import { describe, expect, it } from "vitest";
import { DEBTOR_ACTION_KINDS, DELIVERY_PROBLEM_KINDS, isDebtorAction, noticeCopy } from "../app/domain/notice";
import NoticeEmail from "./notice";
import { renderEmail, toPlainText } from "./render-email";

/** The user's notice (docs/architecture.md §5, "The user is told"): every kind renders its words, detail and link. */
describe("NoticeEmail", () => {
  const kinds = [...DEBTOR_ACTION_KINDS, ...DELIVERY_PROBLEM_KINDS];

  it.each(kinds)("%s: the subject as heading, the detail, escaped, and the debtor's page", async (kind) => {
    const html = await renderEmail(
      createElement(NoticeEmail, {
        kind,
        debtorName: "Ana <Ruiz>",
        detail: "INV-7: <b>wrong</b>",
        debtorUrl: "https://dunly.test/debtors/7",
        settingsUrl: "https://dunly.test/iam/info",
      }),
    );
    const { subject, headline } = noticeCopy(kind, "Ana <Ruiz>");
    const text = toPlainText(html);
    expect(text.toLowerCase()).toContain(subject.toLowerCase());
    expect(text).toContain(headline);
    expect(text).toContain("INV-7: <b>wrong</b>");
    expect(html).not.toContain("<b>wrong</b>");
    expect(html).toContain('href="https://dunly.test/debtors/7"');
  });

  it("debtor actions and delivery problems are told apart (Reply-To the debtor only for the first)", () => {
    expect(DEBTOR_ACTION_KINDS.every(isDebtorAction)).toBe(true);
    expect(DELIVERY_PROBLEM_KINDS.some(isDebtorAction)).toBe(false);
  });
});
