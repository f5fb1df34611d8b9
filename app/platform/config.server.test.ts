import { describe, expect, it } from "vitest";
import { appOrigin, mailSendsPerSecond, readConfig } from "./config.server";

/** What wrangler.toml ships, plus the secrets a production deployment adds. */
const good = {
  APP_ENV: "production",
  APP_ORIGIN: "https://dunly.app",
  GOOGLE_CLIENT_ID: "client-id",
  GOOGLE_CLIENT_SECRET: "client-secret",
  IMAGE_URL_SECRET: "image-secret",
  OPT_OUT_SECRET: "opt-out-secret",
  RESEND_WEBHOOK_SECRET: "whsec_c2VjcmV0",
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

  it("validates an env object once and keeps the result; a bad one fails every time", () => {
    const env = { ...good };
    expect(readConfig(env)).toBe(readConfig(env));
    expect(readConfig({ ...good })).not.toBe(readConfig(env));
    const bad = { ...good, APP_ORIGIN: "nope" };
    expect(configError(bad)).toContain("APP_ORIGIN");
    expect(configError(bad)).toContain("APP_ORIGIN");
  });

  it("INBOUND_DOMAIN (decisions/020): empty is not configured; a domain is kept lowercased; anything else is refused", () => {
    expect(readConfig({ ...good, INBOUND_DOMAIN: "" }).INBOUND_DOMAIN).toBeUndefined();
    expect(readConfig({ ...good, INBOUND_DOMAIN: "Reply.Dunly.App" }).INBOUND_DOMAIN).toBe("reply.dunly.app");
    expect(readConfig({ ...good, INBOUND_DOMAIN: "inbound.localhost" }).INBOUND_DOMAIN).toBe("inbound.localhost");
    for (const bad of ["not a domain", "@dunly.app", "dunly", "https://reply.dunly.app"]) {
      expect(configError({ ...good, INBOUND_DOMAIN: bad })).toContain("INBOUND_DOMAIN must be a domain");
    }
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
      GOOGLE_CLIENT_ID: undefined,
      GOOGLE_CLIENT_SECRET: undefined,
      IMAGE_URL_SECRET: undefined,
      OPT_OUT_SECRET: undefined,
      RESEND_WEBHOOK_SECRET: undefined,
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
    ["GOOGLE_CLIENT_ID", 42, "GOOGLE_CLIENT_ID must be a string (got 42)"],
    ["APP_ORIGIN", 42, "APP_ORIGIN must be a string (got 42)"],
    ...[
      "dunly.app",
      "https://dunly.app/app",
      "https://dunly.app/?next=/",
      "https://dunly.app/#top",
      "https://admin:pw@dunly.app",
      "ftp://dunly.app",
      "not a url",
    ].map((value): [string, string, string] => [
      "APP_ORIGIN",
      value,
      `APP_ORIGIN must be an origin such as https://dunly.app (no path, query or credentials) (got ${JSON.stringify(value)})`,
    ]),
    ["SIGNIN_LIMIT_PER_CLIENT", "0", 'SIGNIN_LIMIT_PER_CLIENT must be a positive whole number (got "0")'],
    ["SIGNIN_LIMIT_PER_CLIENT", "-5", 'SIGNIN_LIMIT_PER_CLIENT must be a positive whole number (got "-5")'],
    ["SIGNIN_LIMIT_PER_CLIENT", "1.5", 'SIGNIN_LIMIT_PER_CLIENT must be a positive whole number (got "1.5")'],
    ["SIGNIN_LIMIT_PER_CLIENT", "many", 'SIGNIN_LIMIT_PER_CLIENT must be a positive whole number (got "many")'],
  ])("names a bad %s (%j)", (name, value, message) => {
    expect(configError({ ...good, [name]: value })).toBe(`Configuration error: ${message}`);
  });

  it("reads APP_ORIGIN as an origin, without a trailing slash", () => {
    expect(readConfig({ ...good, APP_ORIGIN: "https://dunly.app/" }).APP_ORIGIN).toBe("https://dunly.app");
    expect(readConfig({ ...good, APP_ORIGIN: "http://localhost:5173" }).APP_ORIGIN).toBe("http://localhost:5173");
  });

  describe("production fails closed", () => {
    it.each(["APP_ORIGIN", "IMAGE_URL_SECRET", "OPT_OUT_SECRET"])("names %s missing or empty in production", (name) => {
      const message = `Configuration error: ${name} is missing (required when APP_ENV is production)`;
      expect(configError({ ...good, [name]: undefined })).toBe(message);
      expect(configError({ ...good, [name]: "" })).toBe(message);
    });

    it("names both at once, with the other problems, and echoes no value", () => {
      const message = configError({
        APP_ENV: "production",
        GOOGLE_CLIENT_SECRET: "google-secret-value",
      });
      expect(message).toBe(
        "Configuration error: APP_ORIGIN is missing (required when APP_ENV is production); " +
          "IMAGE_URL_SECRET is missing (required when APP_ENV is production); " +
          "OPT_OUT_SECRET is missing (required when APP_ENV is production)",
      );
      expect(message).not.toContain("google-secret-value");
    });

    it("names a bad APP_ORIGIN once, not also as missing", () => {
      expect(configError({ ...good, APP_ORIGIN: "dunly.app" })).toBe(
        'Configuration error: APP_ORIGIN must be an origin such as https://dunly.app (no path, query or credentials) (got "dunly.app")',
      );
    });

    it.each(["development", "test"])("needs neither in %s", (appEnv) => {
      expect(readConfig({ APP_ENV: appEnv })).toEqual({ APP_ENV: appEnv });
    });
  });

  it("names a bad secret without putting its value in the message", () => {
    for (const name of ["GOOGLE_CLIENT_SECRET", "IMAGE_URL_SECRET", "OPT_OUT_SECRET", "RESEND_WEBHOOK_SECRET"]) {
      const message = configError({ ...good, [name]: 123456789 });
      expect(message).toBe(`Configuration error: ${name} must be a string`);
    }
  });

  it("takes only Resend's signing secret format for RESEND_WEBHOOK_SECRET, and never echoes it", () => {
    const message = configError({ ...good, RESEND_WEBHOOK_SECRET: "plain-secret-value" });
    expect(message).toBe("Configuration error: RESEND_WEBHOOK_SECRET must be Resend's signing secret (whsec_…)");
    expect(message).not.toContain("plain-secret-value");
  });

  it("reads MAIL_SENDS_PER_SECOND as the mail queue's pace (2 when absent) and refuses one that is not a positive whole number", () => {
    expect(mailSendsPerSecond(readConfig(good))).toBe(2);
    expect(mailSendsPerSecond(readConfig({ ...good, MAIL_SENDS_PER_SECOND: "10" }))).toBe(10);
    for (const bad of ["0", "-1", "1.5", "fast"]) {
      expect(configError({ ...good, MAIL_SENDS_PER_SECOND: bad })).toContain("MAIL_SENDS_PER_SECOND");
    }
  });

  it("Twilio (decisions/068): the three settings together, each in Twilio's format, the token never echoed", () => {
    const twilio = {
      TWILIO_ACCOUNT_SID: `AC${"a1".repeat(16)}`,
      TWILIO_AUTH_TOKEN: "f0".repeat(16),
      TWILIO_MESSAGING_SERVICE_SID: `MG${"b2".repeat(16)}`,
    };
    expect(readConfig({ ...good, ...twilio })).toMatchObject(twilio);
    expect(readConfig({ ...good, TWILIO_ACCOUNT_SID: "", TWILIO_AUTH_TOKEN: "" }).TWILIO_ACCOUNT_SID).toBeUndefined();
    expect(configError({ ...good, ...twilio, TWILIO_AUTH_TOKEN: undefined })).toBe(
      "Configuration error: TWILIO_AUTH_TOKEN is missing (required when TWILIO_ACCOUNT_SID is set)",
    );
    expect(configError({ ...good, ...twilio, TWILIO_MESSAGING_SERVICE_SID: "" })).toBe(
      "Configuration error: TWILIO_MESSAGING_SERVICE_SID is missing (required when TWILIO_ACCOUNT_SID is set)",
    );
    expect(configError({ ...good, TWILIO_AUTH_TOKEN: twilio.TWILIO_AUTH_TOKEN })).toBe(
      "Configuration error: TWILIO_ACCOUNT_SID is missing (required with TWILIO_AUTH_TOKEN or TWILIO_MESSAGING_SERVICE_SID)",
    );
    const bad = configError({ ...good, ...twilio, TWILIO_AUTH_TOKEN: "not-a-token-value" });
    expect(bad).toBe("Configuration error: TWILIO_AUTH_TOKEN must be a Twilio auth token (32 hex digits)");
    expect(configError({ ...good, ...twilio, TWILIO_ACCOUNT_SID: "AC123" })).toContain("TWILIO_ACCOUNT_SID must be");
  });

  it("names every problem at once", () => {
    const message = configError({
      ...good,
      APP_ENV: undefined,
      SIGNIN_LIMIT_PER_CLIENT: "x",
    });
    expect(message).toBe(
      "Configuration error: APP_ENV is missing; " + 'SIGNIN_LIMIT_PER_CLIENT must be a positive whole number (got "x")',
    );
  });
});

describe("appOrigin", () => {
  const request = "http://attacker.example:8080/auth/google?x=1";

  it("is APP_ORIGIN in every environment, whatever host the request names", () => {
    for (const appEnv of ["development", "test", "production"] as const) {
      expect(appOrigin({ APP_ENV: appEnv, APP_ORIGIN: "https://dunly.app" }, request)).toBe("https://dunly.app");
    }
  });

  it.each(["development", "test"] as const)("falls back to the request's origin in %s only", (appEnv) => {
    expect(appOrigin({ APP_ENV: appEnv }, request)).toBe("http://attacker.example:8080");
    expect(appOrigin({ APP_ENV: appEnv }, new URL("http://localhost:5173/"))).toBe("http://localhost:5173");
  });

  it("refuses to fall back in production", () => {
    expect(() => appOrigin({ APP_ENV: "production" }, request)).toThrow(
      "Configuration error: APP_ORIGIN is missing (required when APP_ENV is production)",
    );
  });
});
