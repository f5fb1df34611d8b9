// Bindings only the integration tests have (vitest.config.ts), seen through `cloudflare:workers`.
declare namespace Cloudflare {
  interface Env {
    TEST_MIGRATIONS?: import("cloudflare:test").D1Migration[];
    /** The fake Resend HTTP server of the integration tests (tests/support/fake-resend.ts). */
    FAKE_RESEND_URL?: string;
  }
}
