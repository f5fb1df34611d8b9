/**
 * The local Stripe stand-in's fixed values (decisions/017): development and test only. Its signing
 * secret is known to everyone, so it is only ever accepted where the stand-in answers (no key,
 * APP_ENV development or test: app/stripe/client.server.ts).
 */
export const STANDIN_WEBHOOK_SECRET = "whsec_dunlylocalstandin";
export const STANDIN_KEY = "sk_test_dunlylocalstandin";
export const STANDIN_PRICES = {
  soft: "price_standin_soft",
  medium: "price_standin_medium",
  aggressive: "price_standin_aggressive",
} as const;
/** The header the SDK's stand-in fetch adds: the app's origin, for the stand-in's page URLs. */
export const STANDIN_ORIGIN_HEADER = "X-Dunly-Origin";
