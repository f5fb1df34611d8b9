import { describe, expect, it } from "vitest";
import {
  addDays,
  cadenceSummary,
  DEFAULT_CADENCE,
  parseSteps,
  pointChannel,
  STEP_CHANNEL_LABELS,
  STEP_CHANNELS,
  sendsEmail,
  sendsText,
  serializeVoices,
  stageAt,
  stepChannelSuffix,
  storedVoices,
} from "./cadence";

describe("parseSteps", () => {
  it("reads offsets in any order, with spaces, semicolons and a typographic minus", () => {
    expect(parseSteps("-3, 0, 3, 7, 14")).toEqual([-3, 0, 3, 7, 14]);
    expect(parseSteps("14 7;3,0 \u22123")).toEqual([-3, 0, 3, 7, 14]);
    expect(parseSteps("7, 7, -0")).toEqual([0, 7]);
  });
  it("refuses what is not a list of whole days in range", () => {
    for (const bad of ["", " , ", "1.5", "abc", "3 days", "-61", "366", "1,2,3,4,5,6,7,8,9,10,11", "1e2"]) {
      expect(parseSteps(bad), bad).toBeNull();
    }
  });
});

describe("addDays and stageAt", () => {
  it("counts on the calendar", () => {
    expect(addDays("2026-02-27", 2)).toBe("2026-03-01");
    expect(addDays("2028-02-27", 2)).toBe("2028-02-29");
    expect(addDays("2026-13-01", 1)).toBeNull();
  });
  it("escalates along the steps after the due date, to the final notice at the last one", () => {
    expect([-3, 0, 3, 7, 14].map((d) => stageAt(DEFAULT_CADENCE, d))).toEqual([0, 0, 1, 2, 3]);
    expect(stageAt({ steps: [5], repeatDays: null, hour: 10 }, 30)).toBe(1);
    expect(stageAt({ steps: [5, 10], repeatDays: null, hour: 10 }, 10)).toBe(3);
  });
});

describe("cadenceSummary", () => {
  it("says the steps in words", () => {
    expect(cadenceSummary(DEFAULT_CADENCE)).toBe(
      "Follows the due date: 3 days before, on the due date, 3, 7 and 14 days after, at 10:00 in the debtor's time zone; the final notice goes once, then Dunly stops and tells you",
    );
    expect(cadenceSummary({ steps: [1], repeatDays: 7, hour: 9 })).toBe(
      "Follows the due date: 1 day after, at 09:00 in the debtor's time zone; the last step goes once, then a reminder every 7 days until paid",
    );
  });
});

describe("the steps' voices as stored", () => {
  it("round-trips the chosen templates and tones and drops what is left to the defaults", () => {
    const c = {
      steps: [-3, 0, 45],
      voices: {
        [-3]: { template: null, tone: null },
        0: { template: "follow-up", tone: null },
        45: { template: null, tone: 3 },
      },
    } as const;
    const stored = serializeVoices(c);
    expect(stored).toBe("0:follow-up:,45::3");
    expect(storedVoices(stored)).toEqual({ 0: { template: "follow-up", tone: null }, 45: { template: null, tone: 3 } });
    expect(serializeVoices({ steps: [0], voices: { 7: { template: "final-notice", tone: 3 } } })).toBeNull();
    expect(storedVoices(null)).toBeUndefined();
    // Damaged parts read as the defaults, never as another template or tone.
    expect(storedVoices("7:nonsense:9,x:final-notice:1")).toEqual({ 7: { template: null, tone: null } });
  });

  it("keeps each step's channel, and reads a value stored before texts as e-mail only", () => {
    const c = {
      steps: [0, 7, 14, 30],
      voices: {
        0: { template: null, tone: null, channel: "email" },
        7: { template: null, tone: null, channel: "text" },
        14: { template: "follow-up", tone: 2, channel: "both" },
      },
    } as const;
    const stored = serializeVoices(c);
    expect(stored).toBe("7:::text,14:follow-up:2:both");
    expect(storedVoices(stored)).toEqual({
      7: { template: null, tone: null, channel: "text" },
      14: { template: "follow-up", tone: 2, channel: "both" },
    });
    // The old three-field form and a damaged channel are the e-mail alone.
    expect(storedVoices("7:follow-up:2")).toEqual({ 7: { template: "follow-up", tone: 2 } });
    expect(storedVoices("7:::sms")).toEqual({ 7: { template: null, tone: null } });
  });

  it("says which channel a step goes by, and falls back to the e-mail when the debtor cannot be texted", () => {
    const c = {
      steps: [0, 7, 14],
      repeatDays: 7,
      hour: 10,
      voices: storedVoices("7:::text,14:::both"),
    };
    expect(pointChannel(c, 0, "step")).toBe("email");
    expect(pointChannel(c, 7, "step")).toBe("text");
    expect(pointChannel(c, 14, "step")).toBe("both");
    // A repeat goes as the last step did.
    expect(pointChannel(c, 21, "repeat")).toBe("both");
    // Never silently nowhere: no consent, opted out or channel off → the e-mail.
    expect(pointChannel(c, 7, "step", { text: false })).toBe("email");
    expect(pointChannel(c, 14, "step", { text: false })).toBe("email");
    expect(sendsEmail("both") && sendsText("both")).toBe(true);
    expect(sendsEmail("text")).toBe(false);
    expect(sendsText("email")).toBe(false);
  });
});

describe("a step's channel in words", () => {
  it("offers the three channels and adds nothing to the summary for the e-mail", () => {
    expect(STEP_CHANNELS.map((c) => STEP_CHANNEL_LABELS[c])).toEqual([
      "E-mail",
      "Text message",
      "E-mail and text message",
    ]);
    expect(stepChannelSuffix(undefined)).toBe("");
    expect(stepChannelSuffix("email")).toBe("");
    expect(stepChannelSuffix("text")).toBe(" · Text");
    expect(stepChannelSuffix("both")).toBe(" · E-mail and text");
  });
});
