import { redirect } from "react-router";
import { getApp } from "~/auth/context.server";
import { DEBTOR_LINK_HEADERS } from "~/components/debtor-link-page";
import { getDb } from "~/db/client.server";
import { payOnline } from "~/ledger/index.server";
import { verifyPortalToken } from "~/links/index.server";
import type { Route } from "./+types/portal-pay";

/**
 * A reminder's "Pay now" while the sender takes payments online (decisions/018): /d/<portal token>/pay starts a Checkout Session for
 * everything open in the oldest open invoice's currency, the amount read from the ledger, and
 * sends the debtor there. Without a connected account (or nothing open) it goes to the sender's
 * payment page, else to the debtor's page. Any token that is not valid: the page's own 404.
 */
export function headers() {
  return DEBTOR_LINK_HEADERS;
}

export async function loader({ params, context }: Route.LoaderArgs) {
  const { env, config } = getApp(context);
  const db = getDb(env.DB);
  const target = await verifyPortalToken(db, config, params.token);
  // The debtor's page answers an invalid token with its 404.
  if (!target) return redirect(`/d/${encodeURIComponent(params.token)}`, 303);
  const started = await payOnline(env, config, db, target, params.token, { currency: null }, Date.now());
  if (started && !("error" in started)) return redirect(started.url, 303);
  if (started === null && target.payUrl) return redirect(target.payUrl, 303);
  return redirect(`/d/${params.token}`, 303);
}
