// Values that are not in any wrangler.toml, so `wrangler types` cannot see them; the rest of Env
// and MailEnv is generated (worker-configuration.d.ts). All optional: local development and the
// tests run without them, and app/lib/config.server.ts decides what their absence means.

interface Env {
  /** Google sign-in; a secret (`wrangler secret put`). */
  GOOGLE_CLIENT_SECRET?: string;
  /** Signs the expiring image URLs; a secret, required in production only. */
  IMAGE_URL_SECRET?: string;
  /** Sign-in e-mails per client per hour (default 20); a var set only by the end-to-end test server. */
  SIGNIN_LIMIT_PER_CLIENT?: string;
}

interface MailEnv {
  /** Sends through Resend; without it every message goes to the dev outbox. A secret. */
  RESEND_API_KEY?: string;
}
