import Stripe from "stripe";
import { type AppConfig, linkOrigin } from "~/platform/config.server";
import { stripeStandInApi } from "~/stripe/standin/api.server";
import { STANDIN_KEY, STANDIN_ORIGIN_HEADER, STANDIN_PRICES, STANDIN_WEBHOOK_SECRET } from "~/stripe/standin/config";

/**
 * Stripe (decisions/017): Dunly's platform account takes its own plans' subscriptions (Billing)
 * and creates Checkout Sessions on its users' connected accounts (Connect), whose payments land in
 * the user's account. One client per isolate and key, with the fetch HTTP client (Workers have no
 * Node http) and Web Crypto for the webhooks' signatures.
 *
 * Without STRIPE_SECRET_KEY: in production nothing is sold or paid online (null; Pay uses the
 * user's payment link, Subscribe says plans cannot be bought yet); in development and test the same
 * SDK talks to the local stand-in (app/http/stripe-pages/), served inside this Worker, whose
 * checkout page a person clicks through and whose events are signed with STANDIN_WEBHOOK_SECRET and
 * handed to the same webhook code as Stripe's.
 */
export interface StripeSetup {
  client: Stripe;
  /** The signing secret of /webhooks/stripe/connect (the connected accounts' events). */
  connectSecret: string;
  /** The signing secret of /webhooks/stripe/billing (Dunly's own subscriptions). */
  billingSecret: string;
  /** The price of each plan. */
  prices: { soft: string; medium: string; aggressive: string };
  /** True when the local stand-in answers (development and test without a key). */
  standIn: boolean;
  /** Whether events must be live-mode ones (a live key); test-mode events are ignored then. */
  livemode: boolean;
}

const clients = new Map<string, Stripe>();

function client(key: string, fetchFn?: typeof fetch): Stripe {
  // The stand-in's fetch closes over this isolate's env: made anew, never cached under the key.
  if (fetchFn) return makeClient(key, fetchFn);
  let found = clients.get(key);
  if (!found) {
    found = makeClient(key);
    clients.set(key, found);
  }
  return found;
}

function makeClient(key: string, fetchFn?: typeof fetch): Stripe {
  return new Stripe(key, {
    httpClient: Stripe.createFetchHttpClient(fetchFn),
    maxNetworkRetries: 2,
    timeout: 20_000,
    telemetry: false,
  });
}

/**
 * Whether Stripe answered that the object asked for does not exist (`resource_missing`, a 404):
 * a definite answer, unlike a network failure or a 5xx, so the caller can stop asking.
 */
export function isMissingAtStripe(error: unknown): boolean {
  return error instanceof Stripe.errors.StripeError && (error.code === "resource_missing" || error.statusCode === 404);
}

/**
 * Whether this deployment has Stripe (stripeSetup is not null), without building its client: the
 * stand-in's client is made per request (its fetch closes over env), and constructing the SDK was
 * a twelfth of Settings' Worker time for a page that only says whether it is there.
 */
export function stripeAvailable(config: AppConfig): boolean {
  return Boolean(config.STRIPE_SECRET_KEY) || config.APP_ENV !== "production";
}

/** Stripe for this deployment, or null when it has none (production without a key). */
export function stripeSetup(config: AppConfig, env: Env): StripeSetup | null {
  const key = config.STRIPE_SECRET_KEY;
  if (key) {
    // The config schema requires the secrets and prices with a key.
    return {
      client: client(key),
      connectSecret: config.STRIPE_CONNECT_WEBHOOK_SECRET ?? "",
      billingSecret: config.STRIPE_BILLING_WEBHOOK_SECRET ?? "",
      prices: {
        soft: config.STRIPE_PRICE_SOFT ?? "",
        medium: config.STRIPE_PRICE_MEDIUM ?? "",
        aggressive: config.STRIPE_PRICE_AGGRESSIVE ?? "",
      },
      standIn: false,
      livemode: key.includes("_live_"),
    };
  }
  if (!stripeAvailable(config)) return null;
  // The SDK's requests go to the stand-in's API inside this Worker: no network, the same SDK code.
  const origin = linkOrigin(config);
  const fetchFn = ((input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init);
    request.headers.set(STANDIN_ORIGIN_HEADER, origin);
    return stripeStandInApi.fetch(request, env);
  }) as typeof fetch;
  return {
    client: client(STANDIN_KEY, fetchFn),
    connectSecret: STANDIN_WEBHOOK_SECRET,
    billingSecret: STANDIN_WEBHOOK_SECRET,
    prices: { ...STANDIN_PRICES },
    standIn: true,
    livemode: false,
  };
}
