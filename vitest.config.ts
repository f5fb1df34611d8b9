import { readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { defineConfig, defineProject } from "vitest/config";
import { startFakeResend } from "./tests/support/fake-resend";

const alias = { "~": fileURLToPath(new URL("./app", import.meta.url)) };
const D1_ID = "00000000-0000-4000-8000-00000000d1d1";

/**
 * Two layers (docs/architecture.md §2): pure unit tests next to the code, and integration tests inside
 * workerd against the built app Worker (build/server) and mail Worker (dist/dunly_mail), so they
 * exercise exactly what `wrangler dev` and production run. `npm test` builds first.
 */
export default defineConfig({
  test: {
    projects: [
      defineProject({
        resolve: { alias },
        test: {
          name: "unit",
          include: ["app/**/*.test.ts", "workers/**/*.test.ts", "emails/**/*.test.ts"],
          environment: "node",
        },
      }),
      defineProject({
        resolve: { alias },
        plugins: [
          cloudflareTest(async () => {
            // Every e-mail in the integration tests goes through a fake Resend HTTP server.
            const resend = await startFakeResend();
            return {
              main: "./build/server/index.js",
              wrangler: { configPath: "./build/server/wrangler.json" },
              miniflare: {
                bindings: {
                  APP_ENV: "test",
                  GOOGLE_CLIENT_ID: "test-google-client",
                  GOOGLE_CLIENT_SECRET: "test-google-secret",
                  TEST_MIGRATIONS: await readD1Migrations(fileURLToPath(new URL("./migrations", import.meta.url))),
                  FAKE_RESEND_URL: resend.url,
                },
                workers: [
                  {
                    name: "dunly-mail",
                    // The built bundle and its chunks, listed explicitly (entry first).
                    modulesRoot: "./dist/dunly_mail",
                    modules: [
                      "index.js",
                      ...readdirSync("./dist/dunly_mail/assets")
                        .filter((f) => f.endsWith(".js"))
                        .map((f) => `assets/${f}`),
                    ].map((f) => ({
                      type: "ESModule" as const,
                      path: `./dist/dunly_mail/${f}`,
                    })),
                    compatibilityDate: "2026-10-01",
                    compatibilityFlags: ["nodejs_compat"],
                    d1Databases: { DB: D1_ID },
                    bindings: {
                      APP_ENV: "test",
                      MAIL_FROM_ADDRESS: "reminders@dunly.test",
                      RESEND_BASE_URL: resend.url,
                      RESEND_API_KEY: "re_test_key",
                    },
                  },
                ],
              },
            };
          }),
        ],
        test: {
          name: "integration",
          include: ["tests/integration/**/*.test.ts"],
          setupFiles: ["./tests/integration/setup.ts"],
          // workerd on a 2-core CI machine: a cold first request can take seconds; 5 s was flaky.
          testTimeout: 20_000,
        },
      }),
    ],
  },
});
