import { describe, expect, it } from "vitest";
import type { AppConfig } from "~/platform/config.server";
import { stripeAvailable, stripeSetup } from "./client.server";

describe("stripeAvailable", () => {
  const configs = [
    { APP_ENV: "production", APP_ORIGIN: "https://dunly.app" },
    { APP_ENV: "production", APP_ORIGIN: "https://dunly.app", STRIPE_SECRET_KEY: "sk_live_x" },
    { APP_ENV: "development", APP_ORIGIN: "" },
    { APP_ENV: "test", APP_ORIGIN: "" },
    { APP_ENV: "test", APP_ORIGIN: "", STRIPE_SECRET_KEY: "sk_test_x" },
  ] as unknown as AppConfig[];
  it("says whether stripeSetup gives a setup, without building a client", () => {
    for (const config of configs) {
      expect(stripeAvailable(config), JSON.stringify(config)).toBe(stripeSetup(config, {} as Env) !== null);
    }
    expect(configs.map(stripeAvailable)).toEqual([false, true, true, true, true]);
  });
});
