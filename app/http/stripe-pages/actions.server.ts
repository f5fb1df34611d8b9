import type { AppConfig } from "~/platform/config.server";
import type { StripeJson } from "~/stripe/index.server";

/**
 * What a person can do on a page of the local Stripe stand-in (/dev/checkout, decisions/017): pay,
 * fail, leave a bank payment pending, finish onboarding, change or cancel a plan in the "portal".
 * Each action changes the stand-in's objects, delivers the events Stripe would send
 * (deliverStandInEvent) and says where the browser goes next.
 */
export interface StandInAction {
  /** In the form's path: POST /dev/checkout/<page>/<object id>/<id>. */
  id: string;
  label: string;
  /** One sentence under the button: what Stripe would do. */
  description: string;
  /** Which page offers it: a Checkout Session's, a connected account's onboarding, a customer's portal. */
  page: "checkout" | "onboarding" | "portal";
  /** Whether it is offered for this object (a paid session offers no "Pay"). */
  applies(object: StripeJson): boolean;
  /** Does it; returns where the browser goes (a URL, often the object's own page again). */
  run(context: StandInActionContext): Promise<string>;
}

export interface StandInActionContext {
  env: Env;
  config: AppConfig;
  object: StripeJson;
  /** The connected account the object lives on (Connect), or null. */
  account: string | null;
  /** The page's query (the onboarding's and portal's return_url). */
  query: URLSearchParams;
  /** The form's fields (a chosen plan). */
  form: FormData;
  /** This page's own URL, to come back to. */
  pageUrl: string;
}

/** Leaving Checkout without paying: back to the session's cancel_url; Stripe sends nothing then. */
export const LEAVE_CHECKOUT: StandInAction = {
  id: "leave",
  label: "Leave without paying",
  description: "Back to where the payment started; nothing is paid and no event is sent.",
  page: "checkout",
  applies: (s) => s.status === "open",
  run: async ({ object }) => String(object.cancel_url ?? "/"),
};
