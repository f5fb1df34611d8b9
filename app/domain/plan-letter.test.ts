import { describe, expect, it } from "vitest";
import { catalogueProblems } from "./i18n";
import { LANGUAGES } from "./languages";
import { PLAN_LETTER_COPY, planLetterSubject, planLetterText } from "./plan-letter";

const message = {
  senderName: "Acme Ltd",
  debtorName: "Ana Ruiz",
  total: "€1,200.00",
  instalments: [
    { date: "1 March 2027", amount: "€600.00" },
    { date: "1 April 2027", amount: "€600.00" },
  ],
  due: { date: "1 April 2027", amount: "€600.00" },
};

describe("the plan e-mails", () => {
  it("every language has English's keys with the same arguments", () => {
    expect(catalogueProblems(PLAN_LETTER_COPY)).toEqual([]);
  });

  it("the confirmation lists every date and amount, in each language", () => {
    for (const language of LANGUAGES) {
      const words = planLetterText({ ...message, kind: "confirmed", language });
      expect(words.lines).toHaveLength(2);
      expect(words.lines[0]).toContain("1 March 2027");
      expect(words.lines[1]).toContain("€600.00");
      expect(words.intro).toContain("€1,200.00");
      expect(planLetterSubject({ ...message, kind: "confirmed", language })).toContain("Acme Ltd");
    }
  });

  it("a reminder names the instalment and lists nothing; a decline carries the user's note", () => {
    const before = planLetterText({ ...message, kind: "before" });
    expect(before.lines).toEqual([]);
    expect(before.intro).toContain("€600.00");
    expect(before.intro).toContain("1 April 2027");
    expect(planLetterText({ ...message, kind: "declined", note: "Call me" }).after).toBe("Their message: Call me");
    expect(planLetterText({ ...message, kind: "declined" }).after).toBeNull();
  });
});
