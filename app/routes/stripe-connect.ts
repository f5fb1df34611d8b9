import { data, redirect } from "react-router";
import { getApp } from "~/auth/context.server";
import { requireUser } from "~/auth/guard.server";
import { getDb } from "~/db/client.server";
import { disconnectAccount, startOnboarding } from "~/ledger/index.server";
import { linkOrigin } from "~/platform/config.server";
import { stripeSetup } from "~/stripe/index.server";
import type { Route } from "./+types/stripe-connect";

/**
 * Settings → Info, "Get paid online" (decisions/018): POST /iam/stripe/connect makes the signed-in
 * user's connected account when they have none and sends them to Stripe's hosted onboarding (an
 * Account Link back to Settings); POST /iam/stripe/disconnect stops Pay from using it. The account
 * is always the signed-in user's: nothing in the request names one.
 */
export async function action({ context, params, url }: Route.ActionArgs) {
  const user = await requireUser(context, url);
  const { env, config } = getApp(context);
  const db = getDb(env.DB);
  const now = Date.now();
  if (params.op === "disconnect") {
    await disconnectAccount(db, user.id, now);
    return redirect("/iam/info", 303);
  }
  if (params.op !== "connect") throw data(null, { status: 404 });
  const stripe = stripeSetup(config, env);
  if (!stripe) throw data("Paying online is not available", { status: 404 });
  const to = await startOnboarding(db, stripe, user, `${linkOrigin(config)}/iam/info`, now);
  return redirect(to, 303);
}

export function loader() {
  throw data(null, { status: 405 });
}
