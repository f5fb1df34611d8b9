import { describe, expect, it } from "vitest";
import { readConfig } from "~/platform/config.server";
import { STANDIN_AUTH_TOKEN, textChannel, textsAvailable } from "./client.server";

const base = { APP_ORIGIN: "https://dunly.app", IMAGE_URL_SECRET: "i", OPT_OUT_SECRET: "o" };
const twilio = {
  TWILIO_ACCOUNT_SID: `AC${"a1".repeat(16)}`,
  TWILIO_AUTH_TOKEN: "f0".repeat(16),
  TWILIO_MESSAGING_SERVICE_SID: `MG${"b2".repeat(16)}`,
};

describe("textChannel", () => {
  it("sends through Twilio with its three settings, in every environment", () => {
    for (const APP_ENV of ["production", "development", "test"]) {
      expect(textChannel(readConfig({ ...base, ...twilio, APP_ENV }))).toEqual({
        mode: "twilio",
        accountSid: twilio.TWILIO_ACCOUNT_SID,
        authToken: twilio.TWILIO_AUTH_TOKEN,
        messagingServiceSid: twilio.TWILIO_MESSAGING_SERVICE_SID,
      });
    }
  });

  it("is the dev outbox in development and test without them", () => {
    for (const APP_ENV of ["development", "test"]) {
      const config = readConfig({ ...base, APP_ENV });
      expect(textChannel(config)).toMatchObject({ mode: "standin", authToken: STANDIN_AUTH_TOKEN });
      expect(textsAvailable(config)).toBe(true);
    }
  });

  it("is off in production without them: the channel hidden, sends refused", () => {
    const config = readConfig({ ...base, APP_ENV: "production" });
    expect(textChannel(config)).toEqual({ mode: "off" });
    expect(textsAvailable(config)).toBe(false);
  });
});
