import { describe, expect, it } from "vitest";
import { debtorLanguage, debtorLocale, readLanguage, userLanguage } from "./languages";

describe("languages", () => {
  it("reads codes, tags and names, and refuses the rest", () => {
    expect(readLanguage("DE")).toBe("de");
    expect(readLanguage("de-AT")).toBe("de");
    expect(readLanguage(" Français ")).toBe("fr");
    expect(readLanguage("Dutch")).toBe("nl");
    expect(readLanguage("it")).toBeNull();
    expect(readLanguage("")).toBeNull();
  });
  it("defaults a debtor to the user's language, the user to their format's language or English", () => {
    expect(userLanguage("de-CH")).toBe("de");
    expect(userLanguage("it-IT")).toBe("en");
    expect(userLanguage(null)).toBe("en");
    expect(debtorLanguage(null, "fr-FR")).toBe("fr");
    expect(debtorLanguage("nl", "fr-FR")).toBe("nl");
    expect(debtorLanguage("xx", "es-ES")).toBe("es");
  });
  it("writes dates and amounts in the user's format of the same language, else the language's own", () => {
    expect(debtorLocale("en", "en-GB")).toBe("en-GB");
    expect(debtorLocale("de", "de-CH")).toBe("de-CH");
    expect(debtorLocale("de", "en-GB")).toBe("de-DE");
    expect(debtorLocale("en", "de-DE")).toBe("en-US");
  });
});
