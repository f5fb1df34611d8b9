import { describe, expect, it } from "vitest";
import { readMailConfig } from "./config";

const good = {
  APP_ENV: "production",
  MAIL_FROM_ADDRESS: "reminders@dunly.app",
  RESEND_BASE_URL: "https://api.resend.com",
  RESEND_API_KEY: "re_live_key",
};

function configError(env: object) {
  try {
    readMailConfig(env);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error("readMailConfig accepted a bad configuration");
}

describe("readMailConfig", () => {
  it("reads a complete configuration and ignores the DB binding", () => {
    expect(readMailConfig({ ...good, DB: {} })).toEqual(good);
  });

  it("treats an absent or empty RESEND_API_KEY as not configured (deliver then fails in production)", () => {
    const { RESEND_API_KEY: _, ...withoutKey } = good;
    expect(readMailConfig(withoutKey).RESEND_API_KEY).toBeUndefined();
    expect(readMailConfig({ ...good, RESEND_API_KEY: "" }).RESEND_API_KEY).toBeUndefined();
  });

  it.each(["APP_ENV", "MAIL_FROM_ADDRESS", "RESEND_BASE_URL"])("names a missing %s", (name) => {
    expect(configError({ ...good, [name]: undefined })).toBe(`Configuration error: ${name} is missing`);
  });

  it.each([
    ["APP_ENV", "staging", 'APP_ENV must be one of development, test, production (got "staging")'],
    [
      "MAIL_FROM_ADDRESS",
      "Dunly <reminders@dunly.app>",
      'MAIL_FROM_ADDRESS must be an e-mail address (got "Dunly <reminders@dunly.app>")',
    ],
    [
      "MAIL_FROM_ADDRESS",
      "reminders@dunly.app\r\nBcc: x@y.z",
      'MAIL_FROM_ADDRESS must be an e-mail address (got "reminders@dunly.app\\r\\nBcc: x@y.z")',
    ],
    ["RESEND_BASE_URL", "api.resend.com", 'RESEND_BASE_URL must be a URL (got "api.resend.com")'],
  ])("names a bad %s (%j)", (name, value, message) => {
    expect(configError({ ...good, [name]: value })).toBe(`Configuration error: ${message}`);
  });

  it("names a bad RESEND_API_KEY without putting its value in the message", () => {
    expect(configError({ ...good, RESEND_API_KEY: 123456789 })).toBe(
      "Configuration error: RESEND_API_KEY must be a string",
    );
  });
});
