import { describe, expect, it } from "vitest";
import {
  formatPhone,
  isTextCountry,
  mobileCountry,
  mobileShape,
  nextTextMonthStart,
  PHONE_INPUT_MAX,
  PHONE_MESSAGES,
  parseMobile,
  REGISTERED_SENDER_COUNTRIES,
  TEXT_COUNTRY_CODES,
  textAllowedTo,
  textMonth,
} from "./phone";

describe("parseMobile", () => {
  it.each([
    ["+44 7400 123456", "+447400123456", "GB"],
    ["0044 7400-123456", "+447400123456", "GB"],
    ["+49 151 23456789", "+4915123456789", "DE"],
    ["+33 6 12 34 56 78", "+33612345678", "FR"],
    ["+353 85 123 4567", "+353851234567", "IE"],
    ["+61 412 345 678", "+61412345678", "AU"],
    ["+1 (201) 555-0123", "+12015550123", "US"],
    ["+1 416 555 0123", "+14165550123", "CA"],
    ["+34 612 34 56 78", "+34612345678", "ES"],
    ["+31 6 12345678", "+31612345678", "NL"],
  ])("reads %s as the mobile %s of %s", (typed, e164, country) => {
    expect(parseMobile(typed)).toEqual({ ok: true, e164, country });
  });

  it.each([
    ["a London landline", "+44 20 7946 0018"],
    ["a Berlin landline", "+49 30 1234567"],
    ["a Paris landline", "+33 1 23 45 67 89"],
    ["a Sydney landline", "+61 2 9876 5432"],
    ["a UK number one digit short", "+44 7400 12345"],
    ["a German mobile too long", "+49 151 234567890123"],
    ["an unknown country code", "+999 123456789"],
    ["letters", "+44 call me"],
  ])("refuses %s as not a mobile", (_, typed) => {
    expect(parseMobile(typed)).toEqual({ ok: false, message: PHONE_MESSAGES.invalid });
  });

  it("asks for the country code when there is none, or reads the number in the country given", () => {
    expect(parseMobile("07400 123456")).toEqual({ ok: false, message: PHONE_MESSAGES.international });
    expect(parseMobile("07400 123456", "GB")).toEqual({ ok: true, e164: "+447400123456", country: "GB" });
    expect(parseMobile("020 7946 0018", "GB")).toEqual({ ok: false, message: PHONE_MESSAGES.invalid });
  });

  it("refuses an input longer than the field takes", () => {
    expect(parseMobile(`+44 ${"1".repeat(PHONE_INPUT_MAX)}`)).toEqual({ ok: false, message: PHONE_MESSAGES.tooLong });
  });
});

describe("stored numbers", () => {
  it("formats and places a stored number", () => {
    expect(formatPhone("+447400123456")).toBe("+44 7400 123456");
    expect(mobileCountry("+4915123456789")).toBe("DE");
    expect(mobileCountry("+442079460018")).toBeNull();
  });

  it("allows a text only with the channel on and the number's country enabled", () => {
    expect(textAllowedTo("+447400123456", { enabled: true, countries: ["GB"] })).toBe(true);
    expect(textAllowedTo("+447400123456", { enabled: false, countries: ["GB"] })).toBe(false);
    expect(textAllowedTo("+447400123456", { enabled: true, countries: ["IE", "US"] })).toBe(false);
    expect(textAllowedTo("+14165550123", { enabled: true, countries: ["US"] })).toBe(false);
    expect(textAllowedTo("+14165550123", { enabled: true, countries: ["US", "CA"] })).toBe(true);
  });

  it("knows its countries; the US and Canada need a registered sender", () => {
    expect(isTextCountry("GB")).toBe(true);
    expect(isTextCountry("XX")).toBe(false);
    expect(REGISTERED_SENDER_COUNTRIES.every((c) => TEXT_COUNTRY_CODES.includes(c))).toBe(true);
  });
});

describe("the text month", () => {
  it("is the calendar month in UTC and renews at its end", () => {
    const lastSecond = Date.UTC(2026, 10, 30, 23, 59, 59);
    expect(textMonth(lastSecond)).toBe("2026-11");
    expect(nextTextMonthStart(lastSecond)).toBe(Date.UTC(2026, 11, 1));
    expect(textMonth(Date.UTC(2026, 11, 31, 12))).toBe("2026-12");
    expect(nextTextMonthStart(Date.UTC(2026, 11, 31, 12))).toBe(Date.UTC(2027, 0, 1));
  });
});

describe("mobileShape", () => {
  it("makes a typed number compact, or says why it cannot be one (the library judges the rest)", () => {
    expect(mobileShape(" +44 (0) 7400-123.456 ")).toEqual({ ok: true, compact: "+4407400123456" });
    expect(mobileShape("0049 151 23456789")).toEqual({ ok: true, compact: "+4915123456789" });
    expect(mobileShape("07400 123456")).toEqual({ ok: false, message: PHONE_MESSAGES.international });
    expect(mobileShape("+44 call me")).toEqual({ ok: false, message: PHONE_MESSAGES.invalid });
    expect(mobileShape("+1")).toEqual({ ok: false, message: PHONE_MESSAGES.invalid });
  });
});
