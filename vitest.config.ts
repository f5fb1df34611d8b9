import { existsSync, readdirSync, readFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { defineConfig, defineProject } from "vitest/config";
import { startFakeResend } from "./tests/support/fake-resend";

const alias = { "~": fileURLToPath(new URL("./app", import.meta.url)) };
/**
 * What a test file that imports app code directly runs in workerd: intl-messageformat's own
 * one-file ESM build, since its package entry imports files without extensions, which workerd's
 * module loader does not resolve.
 */
const workerdAlias = [
  {
    find: /^intl-messageformat$/,
    replacement: fileURLToPath(new URL("./node_modules/intl-messageformat/intl-messageformat.esm.js", import.meta.url)),
  },
  { find: "~", replacement: alias["~"] },
];

/** A built Worker's configuration: what `react-router build` made of its wrangler.toml. */
interface BuiltConfig {
  compatibility_date: string;
  compatibility_flags: string[];
  vars: Record<string, string>;
  d1_databases: { database_id: string }[];
}
const builtConfig = (path: string): BuiltConfig => JSON.parse(readFileSync(path, "utf8"));
const APP_CONFIG = "./build/server/wrangler.json";
const MAIL_DIR = "./dist/dunly_mail";

/** The built mail Worker (its bundle and chunks, entry first) on the app's D1, with these values. */
function mailWorker(bindings: Record<string, string>) {
  const mail = builtConfig(`${MAIL_DIR}/wrangler.json`);
  return {
    name: "dunly-mail",
    modulesRoot: MAIL_DIR,
    modules: [
      "index.js",
      // Its chunks, when the build split it into any.
      ...(existsSync(`${MAIL_DIR}/assets`) ? readdirSync(`${MAIL_DIR}/assets`) : []).flatMap((f) =>
        f.endsWith(".js") ? [`assets/${f}`] : [],
      ),
    ].map((f) => ({ type: "ESModule" as const, path: `${MAIL_DIR}/${f}` })),
    compatibilityDate: mail.compatibility_date,
    compatibilityFlags: mail.compatibility_flags,
    // The same database as the app Worker, as in both wrangler.toml files.
    d1Databases: { DB: builtConfig(APP_CONFIG).d1_databases[0].database_id },
    bindings,
  };
}

const migrations = () => readD1Migrations(fileURLToPath(new URL("./migrations", import.meta.url)));

/** The integration tests' Workers: the built app and mail Workers with the test values, a fake Resend. */
const integrationWorkers = () =>
  cloudflareTest(async () => {
    // Every e-mail in the integration tests goes through a fake Resend HTTP server.
    const resend = await startFakeResend();
    return {
      main: "./build/server/index.js",
      wrangler: { configPath: APP_CONFIG },
      miniflare: {
        bindings: {
          APP_ENV: "test",
          // Not set: absolute URLs use the request's origin, as on `npm run dev`.
          APP_ORIGIN: "",
          IMAGE_URL_SECRET: "test-image-url-secret",
          OPT_OUT_SECRET: "test-opt-out-secret",
          // Encrypts the accounting tools' tokens (docs/decisions/060); Xero is the local stand-in.
          ACCOUNTING_TOKEN_KEY: "dGVzdC1hY2NvdW50aW5nLXRva2VuLWtleS0zMi1ieXQ=",
          // The size of tests/integration/accounting-import.test.ts's organisation ("customers:invoices"):
          // BOOKS_IMPORT_SIZE=2000:6000 measures the import the decision states the time of.
          BOOKS_IMPORT_SIZE: process.env.BOOKS_IMPORT_SIZE ?? "300:1000",
          // Reply addresses in reminders; tests/integration/replies.test.ts feeds /dev/inbound.
          INBOUND_DOMAIN: "inbound.localhost",
          RESEND_WEBHOOK_SECRET: "whsec_dGVzdC13ZWJob29rLXNlY3JldC1mb3ItZHVubHk=",
          GOOGLE_CLIENT_ID: "test-google-client",
          GOOGLE_CLIENT_SECRET: "test-google-secret",
          TEST_MIGRATIONS: await migrations(),
          FAKE_RESEND_URL: resend.url,
          // Faster than the limit tests/integration/mail-queue.test.ts gives the fake provider.
          MAIL_SENDS_PER_SECOND: "50",
          // The default per-client sign-in limit (tests/integration/rate-limit.test.ts), also
          // after an end-to-end run left its .dev.vars (1000) beside the build's wrangler.json.
          SIGNIN_LIMIT_PER_CLIENT: "",
        },
        // The mail queue hands each test's few messages over at once, not after the
        // production second of gathering (wrangler.toml max_batch_timeout).
        queueConsumers: { "dunly-mail": { maxBatchSize: 100, maxBatchTimeout: 0, maxRetries: 10 } },
        // The app's database, and an empty one the migration test brings up to each migration itself.
        d1Databases: {
          DB: builtConfig(APP_CONFIG).d1_databases[0].database_id,
          MIGRATION_DB: "migration-test-database",
        },
        workers: [
          mailWorker({
            APP_ENV: "test",
            MAIL_FROM_ADDRESS: "reminders@dunly.test",
            RESEND_BASE_URL: resend.url,
            RESEND_API_KEY: "re_test_key",
            // A provider that hangs is given up on quickly (tests/integration/mail-faults.test.ts).
            RESEND_TIMEOUT_SECONDS: "3",
          }),
        ],
      },
    };
  });

/**
 * The integration files that need a workerd and a database of their own: they read rows across
 * every account (housekeeping's purge, the CSV digests, a migration's rewrite, the watchdog's sweep
 * of every overdue schedule and its re-check of the oldest sending domains), time the sending
 * itself (the queue, the rate limits, the provider's faults) or take a table away for a moment
 * (the error pages), so rows or alarms another file left
 * would change what they see, or meet what they broke. Every other integration
 * file names its own users and reads only what it made, so the files one Vitest worker runs share a
 * workerd and its storage, one after another (`isolate: false`): starting a workerd with both
 * Workers for each of about 90 files was half of this step's time on the 2-core CI machine (ADR 044).
 */
const OWN_DATABASE = [
  "tests/integration/billing.test.ts",
  "tests/integration/csv-stream.test.ts",
  "tests/integration/engine.test.ts",
  "tests/integration/housekeeping.test.ts",
  "tests/integration/lifecycle.test.ts",
  "tests/integration/mail-faults.test.ts",
  "tests/integration/mail-queue.test.ts",
  "tests/integration/migration-invoices.test.ts",
  "tests/integration/portal.test.ts",
  "tests/integration/route-errors.test.ts",
  "tests/integration/sending-domain.test.ts",
  "tests/integration/sending-limits.test.ts",
];

/**
 * Three layers: pure unit tests next to the code; integration tests inside
 * workerd against the built app Worker (build/server) and mail Worker (dist/dunly_mail), so they
 * exercise exactly what `wrangler dev` and production run, with APP_ENV=test; and the production
 * project, the same build with the committed (production) configuration and only the secrets a
 * deployment sets. `npm test` builds first.
 */
export default defineConfig({
  test: {
    // Vitest's default leaves a core free: one file at a time on the 2-core CI machine. The
    // integration files mostly wait on workerd (alarms, the queue, the fake provider's rate limits
    // and timeouts), so four run side by side even on 2 cores (docs/decisions/013 has the times).
    maxWorkers: Math.max(4, availableParallelism()),
    projects: [
      defineProject({
        resolve: { alias },
        test: {
          name: "unit",
          include: [
            "app/**/*.test.ts",
            "workers/**/*.test.ts",
            "emails/**/*.test.ts",
            "tests/support/**/*.test.ts",
            "scripts/**/*.test.ts",
          ],
          environment: "node",
          // Pure modules and no global mocks: the files one worker runs share it, one after another.
          isolate: false,
        },
      }),
      defineProject({
        resolve: { alias: workerdAlias },
        plugins: [integrationWorkers()],
        test: {
          name: "integration",
          include: ["tests/integration/**/*.test.ts"],
          exclude: OWN_DATABASE,
          isolate: false,
          setupFiles: ["./tests/integration/setup.ts"],
          // workerd on a 2-core CI machine: a cold first request can take seconds; 5 s was flaky.
          testTimeout: 20_000,
        },
      }),
      defineProject({
        resolve: { alias: workerdAlias },
        plugins: [integrationWorkers()],
        test: {
          name: "integration-own-db",
          include: OWN_DATABASE,
          setupFiles: ["./tests/integration/setup.ts"],
          testTimeout: 20_000,
        },
      }),
      defineProject({
        resolve: { alias: workerdAlias },
        plugins: [
          cloudflareTest(async () => {
            const app = builtConfig(APP_CONFIG);
            const mail = builtConfig(`${MAIL_DIR}/wrangler.json`);
            return {
              main: "./build/server/index.js",
              wrangler: { configPath: APP_CONFIG },
              miniflare: {
                bindings: {
                  // The committed vars again, over any local .dev.vars the build copied beside them.
                  ...app.vars,
                  // Only what a deployment adds with `wrangler secret put`; Google with its client id.
                  IMAGE_URL_SECRET: "production-test-image-url-secret",
                  OPT_OUT_SECRET: "production-test-opt-out-secret",
                  GOOGLE_CLIENT_ID: "production-google-client",
                  GOOGLE_CLIENT_SECRET: "production-google-secret",
                  SIGNIN_LIMIT_PER_CLIENT: "",
                  TEST_MIGRATIONS: await migrations(),
                },
                // The committed vars and no RESEND_API_KEY: the secret a deployment may have forgotten.
                workers: [mailWorker({ ...mail.vars, RESEND_API_KEY: "" })],
              },
            };
          }),
        ],
        test: {
          name: "production",
          include: ["tests/production/**/*.test.ts"],
          setupFiles: ["./tests/integration/setup.ts"],
          testTimeout: 20_000,
        },
      }),
    ],
  },
});
