// Bindings of the app Worker (wrangler.toml). Secrets are optional: local development runs without any.
interface Env {
  DB: D1Database;
  IMAGES: R2Bucket;
  MAILER: Service<import("./mail/index").MailWorker>;
  /** One Durable Object per schedule; its alarm fires the reminder (DESIGN §4). */
  SCHEDULES: DurableObjectNamespace<import("./reminder-schedule").ReminderSchedule>;
  APP_ENV: "development" | "test" | "production";
  CHECKOUT_URL_SOFT: string;
  CHECKOUT_URL_MEDIUM: string;
  CHECKOUT_URL_AGGRESSIVE: string;
  GOOGLE_CLIENT_ID: string;
  GOOGLE_CLIENT_SECRET?: string;
  /** Signs the expiring image URLs; optional outside production. */
  IMAGE_URL_SECRET?: string;
  /** Sign-in e-mails per client per hour (default 20); raised only by the end-to-end test server. */
  SIGNIN_LIMIT_PER_CLIENT?: string;
}

// Bindings of the mail Worker (workers/mail/wrangler.toml).
interface MailEnv {
  DB: D1Database;
  APP_ENV: "development" | "test" | "production";
  MAIL_FROM_ADDRESS: string;
  RESEND_BASE_URL: string;
  RESEND_API_KEY?: string;
}

// `import { env } from "cloudflare:workers"` (tests, Durable Objects) sees the same bindings.
declare namespace Cloudflare {
  interface Env extends globalThis.Env {
    TEST_MIGRATIONS?: import("cloudflare:test").D1Migration[];
    /** The fake Resend HTTP server of the integration tests (tests/support/fake-resend.ts). */
    FAKE_RESEND_URL?: string;
  }
  interface Exports {
    default: Fetcher;
  }
}
