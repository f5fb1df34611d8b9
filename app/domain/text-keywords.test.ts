import { describe, expect, it } from "vitest";
import { textKeyword } from "./text-keywords";

describe("textKeyword", () => {
  it("reads the standard opt-out words in any case, trimmed", () => {
    for (const word of [
      "STOP",
      "stop",
      " Stop ",
      "STOPALL",
      "unsubscribe",
      "Cancel",
      "END",
      "quit",
      "REVOKE",
      "optout",
      "Stop!",
    ]) {
      expect(textKeyword(word), word).toBe("stop");
    }
  });
  it("reads START and HELP", () => {
    expect(textKeyword("start")).toBe("start");
    expect(textKeyword("UNSTOP")).toBe("start");
    expect(textKeyword("help")).toBe("help");
    expect(textKeyword("INFO")).toBe("help");
  });
  it("takes any other text as a reply", () => {
    expect(textKeyword("Please stop texting me at night")).toBeNull();
    expect(textKeyword("I will pay on Friday")).toBeNull();
    expect(textKeyword("")).toBeNull();
    expect(textKeyword("constructor")).toBeNull();
  });
  it("follows Twilio's own OptOutType over the words", () => {
    expect(textKeyword("arrêt", "STOP")).toBe("stop");
    expect(textKeyword("whatever", "start")).toBe("start");
    expect(textKeyword("hmm", "HELP")).toBe("help");
  });
});
