import { describe, expect, it } from "vitest";
import { noTextReason, stepSend, type TextReachFacts } from "./text-reach";

const reachable: TextReachFacts = {
  configured: true,
  enabled: true,
  phone: "+447700900123",
  consentAt: 1_700_000_000_000,
  optedOut: false,
  countryEnabled: true,
};
const room = { monthlyTexts: 100, used: 99 };
const full = { monthlyTexts: 100, used: 100 };

describe("who may be texted", () => {
  it("needs the channel configured and on, a number, consent, no STOP and an enabled country", () => {
    expect(noTextReason(reachable)).toBeNull();
    expect(noTextReason({ ...reachable, configured: false })).toBe("off");
    expect(noTextReason({ ...reachable, enabled: false })).toBe("off");
    expect(noTextReason({ ...reachable, phone: null })).toBe("no-number");
    expect(noTextReason({ ...reachable, consentAt: null })).toBe("no-consent");
    expect(noTextReason({ ...reachable, countryEnabled: false })).toBe("country");
  });

  it("lets STOP win over consent, whichever came later", () => {
    expect(noTextReason({ ...reachable, optedOut: true })).toBe("opted-out");
    expect(noTextReason({ ...reachable, optedOut: true, consentAt: Date.now() + 1000 })).toBe("opted-out");
  });
});

describe("what a step sends", () => {
  it("an e-mail step sends the e-mail whatever the text facts", () => {
    expect(stepSend("email", reachable, full)).toEqual({ email: true, text: "none", note: null });
  });

  it("a text step texts a reachable debtor, and a 'both' step sends both", () => {
    expect(stepSend("text", reachable, room)).toEqual({ email: false, text: "send", note: null });
    expect(stepSend("both", reachable, room)).toEqual({ email: true, text: "send", note: null });
  });

  it("falls back to the e-mail, saying why, when the debtor cannot be texted (never dropped)", () => {
    const stopped = stepSend("text", { ...reachable, optedOut: true }, room);
    expect(stopped).toEqual({
      email: true,
      text: "none",
      note: "Sent by e-mail only: The debtor's number replied STOP.",
    });
    expect(stepSend("both", { ...reachable, consentAt: null }, room).text).toBe("none");
    expect(stepSend("text", { ...reachable, configured: false }, room).email).toBe(true);
  });

  it("past the allowance holds a text-only step and skips the text of a 'both' step, the e-mail going", () => {
    expect(stepSend("text", reachable, full)).toEqual({
      email: false,
      text: "held",
      note: "The text waits: this month's text messages are used up.",
    });
    expect(stepSend("both", reachable, full)).toEqual({
      email: true,
      text: "skipped",
      note: "Sent by e-mail only: this month's text messages are used up.",
    });
    // A plan with no texts is always past its allowance.
    expect(stepSend("text", reachable, { monthlyTexts: 0, used: 0 }).text).toBe("held");
  });
});
