import type Stripe from "stripe";
import type { Db } from "~/db/client.server";
import type { AppConfig } from "~/platform/config.server";
import type { StripeSetup } from "./client.server";

/** Stripe's two webhook endpoints (app/http/stripe-webhooks.server.ts, decisions/017). */
export type StripeEndpoint = "connect" | "billing";

/** What a handler did with an event: acted on it, or ignored it (and why, for the log and the tests). */
export type HandledEvent = { handled: true } | { handled: false; reason: string };

/** What an event handler gets besides the event. */
export interface StripeEventContext {
  env: Env;
  config: AppConfig;
  db: Db;
  stripe: StripeSetup;
  now: number;
}

/** A handler of one endpoint's verified, first-time events. */
export type StripeEventHandler = (event: Stripe.Event, context: StripeEventContext) => Promise<HandledEvent>;
