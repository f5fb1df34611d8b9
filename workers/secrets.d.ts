// Values that are not in any wrangler.toml, so `wrangler types` cannot see them; the rest of Env
// and MailEnv is generated (worker-configuration.d.ts). Optional in the types: locally they come
// from .dev.vars or not at all, and the config schemas decide what their absence means.

interface Env {
  /** Google sign-in; a secret (`wrangler secret put`). */
  GOOGLE_CLIENT_SECRET?: string;
  /** Signs the expiring image URLs; a secret, required in production (locally a random key in .dev.vars). */
  IMAGE_URL_SECRET?: string;
  /** Signs the opt-out links in reminders; a secret, required in production (locally a random key). */
  OPT_OUT_SECRET?: string;
  /** Resend's webhook signing secret (whsec_…); without it /webhooks/resend answers 404. */
  RESEND_WEBHOOK_SECRET?: string;
  /** Stripe's secret key (sk_live_…); without it production sells and takes nothing online (decisions/017). */
  STRIPE_SECRET_KEY?: string;
  /** The signing secret of /webhooks/stripe/connect (whsec_…); required with STRIPE_SECRET_KEY. */
  STRIPE_CONNECT_WEBHOOK_SECRET?: string;
  /** The signing secret of /webhooks/stripe/billing (whsec_…); required with STRIPE_SECRET_KEY. */
  STRIPE_BILLING_WEBHOOK_SECRET?: string;
  /** Sign-in e-mails per client per hour (default 20); a var set only by the end-to-end test server. */
  SIGNIN_LIMIT_PER_CLIENT?: string;
}

interface MailEnv {
  /** Sends through Resend. A secret; without it production fails every send, development and test use the dev outbox. */
  RESEND_API_KEY?: string;
}
