// Bindings only the integration tests have (vitest.config.ts), seen through `cloudflare:workers`.
declare namespace Cloudflare {
  interface Env {
    TEST_MIGRATIONS?: import("cloudflare:test").D1Migration[];
    /** An empty database tests/integration/migration-invoices.test.ts migrates step by step. */
    MIGRATION_DB?: D1Database;
    /** The fake Resend HTTP server of the integration tests (tests/support/fake-resend.ts). */
    FAKE_RESEND_URL?: string;
  }
}
