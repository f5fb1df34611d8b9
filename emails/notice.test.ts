import { createElement } from "react";
import { describe, expect, it } from "vitest";
import {
  DEBTOR_ACTION_KINDS,
  DELIVERY_PROBLEM_KINDS,
  digestSubject,
  isDebtorAction,
  noticeCopy,
  SCHEDULE_KINDS,
} from "../app/domain/notice";
import DigestEmail from "./digest";
import NoticeEmail from "./notice";
import { renderEmail, toPlainText } from "./render-email";

/** The user's notice: every kind renders its words, detail and link. */
describe("NoticeEmail", () => {
  const kinds = [...DEBTOR_ACTION_KINDS, ...DELIVERY_PROBLEM_KINDS, ...SCHEDULE_KINDS];

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

describe("DigestEmail", () => {
  it("lists each event with its debtor's link, and counts the ones left out", async () => {
    const html = await renderEmail(
      createElement(DigestEmail, {
        day: "2026-11-26",
        items: [
          {
            kind: "promised",
            debtorName: "Ana Ruiz",
            detail: "Promised to pay by Dec 30, 2026",
            debtorUrl: "https://dunly.test/debtors/1",
          },
          { kind: "bounced", debtorName: "Bea Bounce", detail: "", debtorUrl: "https://dunly.test/debtors/2" },
        ],
        total: 14,
        settingsUrl: "https://dunly.test/iam/info",
      }),
    );
    const text = toPlainText(html);
    expect(digestSubject(14)).toBe("Dunly: 14 updates about your debtors today");
    expect(digestSubject(1)).toBe("Dunly: 1 update about your debtors today");
    expect(text).toContain("Ana Ruiz promised to pay");
    expect(text).toContain("Promised to pay by Dec 30, 2026");
    expect(text).toContain("A reminder to Bea Bounce bounced");
    expect(text).toContain("and 12 more");
    expect(html).toContain('href="https://dunly.test/debtors/2"');
  });
});
