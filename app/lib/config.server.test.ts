import { describe, expect, it } from "vitest";
import { readConfig } from "./config.server";

/** What wrangler.toml ships, plus the secrets a production deployment adds. */
const good = {
  APP_ENV: "production",
  CHECKOUT_URL_SOFT: "https://buy.stripe.com/test_dunly_soft",
  CHECKOUT_URL_MEDIUM: "https://buy.stripe.com/test_dunly_medium",
  CHECKOUT_URL_AGGRESSIVE: "https://buy.stripe.com/test_dunly_aggressive",
  GOOGLE_CLIENT_ID: "client-id",
  GOOGLE_CLIENT_SECRET: "client-secret",
  IMAGE_URL_SECRET: "image-secret",
  SIGNIN_LIMIT_PER_CLIENT: "1000",
};

function configError(env: object) {
  try {
    readConfig(env);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error("readConfig accepted a bad configuration");
}

describe("readConfig", () => {
  it("reads a complete configuration, the limit as a number", () => {
    expect(readConfig(good)).toEqual({ ...good, SIGNIN_LIMIT_PER_CLIENT: 1000 });
  });

  it("ignores resource bindings, which stay on env", () => {
    const config = readConfig({ ...good, DB: {}, IMAGES: {}, MAILER: {}, SCHEDULES: {} });
    expect(Object.keys(config)).not.toContain("DB");
  });

  it("treats optional values that are absent or empty as not configured", () => {
    expect(readConfig({ APP_ENV: "development" })).toEqual({ APP_ENV: "development" });
    const empty = Object.fromEntries(Object.keys(good).map((key) => [key, ""]));
    expect(readConfig({ ...empty, APP_ENV: "test" })).toEqual({
      APP_ENV: "test",
      CHECKOUT_URL_SOFT: undefined,
      CHECKOUT_URL_MEDIUM: undefined,
      CHECKOUT_URL_AGGRESSIVE: undefined,
      GOOGLE_CLIENT_ID: undefined,
      GOOGLE_CLIENT_SECRET: undefined,
      IMAGE_URL_SECRET: undefined,
      SIGNIN_LIMIT_PER_CLIENT: undefined,
    });
  });

  it("names a missing APP_ENV", () => {
    const { APP_ENV: _, ...withoutAppEnv } = good;
    expect(configError(withoutAppEnv)).toBe("Configuration error: APP_ENV is missing");
  });

  it.each([
    ["APP_ENV", "prod", 'APP_ENV must be one of development, test, production (got "prod")'],
    ["APP_ENV", "", 'APP_ENV must be one of development, test, production (got "")'],
    ["CHECKOUT_URL_SOFT", "buy.stripe.com/soft", 'CHECKOUT_URL_SOFT must be a URL (got "buy.stripe.com/soft")'],
    ["CHECKOUT_URL_MEDIUM", "not a url", 'CHECKOUT_URL_MEDIUM must be a URL (got "not a url")'],
    ["CHECKOUT_URL_AGGRESSIVE", "https://", 'CHECKOUT_URL_AGGRESSIVE must be a URL (got "https://")'],
    ["GOOGLE_CLIENT_ID", 42, "GOOGLE_CLIENT_ID must be a string (got 42)"],
    ["SIGNIN_LIMIT_PER_CLIENT", "0", 'SIGNIN_LIMIT_PER_CLIENT must be a positive whole number (got "0")'],
    ["SIGNIN_LIMIT_PER_CLIENT", "-5", 'SIGNIN_LIMIT_PER_CLIENT must be a positive whole number (got "-5")'],
    ["SIGNIN_LIMIT_PER_CLIENT", "1.5", 'SIGNIN_LIMIT_PER_CLIENT must be a positive whole number (got "1.5")'],
    ["SIGNIN_LIMIT_PER_CLIENT", "many", 'SIGNIN_LIMIT_PER_CLIENT must be a positive whole number (got "many")'],
  ])("names a bad %s (%j)", (name, value, message) => {
    expect(configError({ ...good, [name]: value })).toBe(`Configuration error: ${message}`);
  });

  it("names a bad secret without putting its value in the message", () => {
    for (const name of ["GOOGLE_CLIENT_SECRET", "IMAGE_URL_SECRET"]) {
      const message = configError({ ...good, [name]: 123456789 });
      expect(message).toBe(`Configuration error: ${name} must be a string`);
    }
  });

  it("names every problem at once", () => {
    const message = configError({
      ...good,
      APP_ENV: undefined,
      CHECKOUT_URL_SOFT: "nope",
      SIGNIN_LIMIT_PER_CLIENT: "x",
    });
    expect(message).toBe(
      "Configuration error: APP_ENV is missing; " +
        'CHECKOUT_URL_SOFT must be a URL (got "nope"); ' +
        'SIGNIN_LIMIT_PER_CLIENT must be a positive whole number (got "x")',
    );
  });
});
