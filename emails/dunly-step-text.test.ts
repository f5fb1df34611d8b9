import { describe, expect, it } from "vitest";
import { LANGUAGES } from "../app/domain/languages";
import { TEMPLATE_IDS } from "../app/domain/presets";
import { parseStepText } from "../app/domain/template-body";
import { dunlyStepText } from "./dunly-step-text";

describe("Dunly's text in the editor", () => {
  it("is a valid user text for every step, tone and language, with every part placed", () => {
    for (const language of LANGUAGES)
      for (const template of TEMPLATE_IDS)
        for (const tone of [1, 2, 3]) {
          const text = dunlyStepText(template, tone, language);
          expect(parseStepText(text).ok, `${language} ${template} ${tone}`).toBe(true);
          for (const part of ["{statement}", "{payButton}", "{bankDetails}", "{portalLink}", "{signature}"])
            expect(text.body).toContain(part);
          expect(text.subject).toContain("{total}");
        }
  });
  it("reads as Dunly's copy with placeholders", () => {
    const text = dunlyStepText("initial", 1);
    expect(text.subject).toBe("Friendly reminder: payment of {total}");
    expect(text.body.split("\n\n").slice(0, 3)).toEqual([
      "Hi {contactName},",
      "**A friendly reminder**",
      "This is a friendly reminder about the payment of {total}, due on {oldestDueDate}, which is now {daysOverdue} overdue.",
    ]);
  });
});
