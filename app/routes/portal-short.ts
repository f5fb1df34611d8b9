import { data, redirect } from "react-router";
import { getApp } from "~/auth/context.server";
import { getDb } from "~/db/client.server";
import { portalLink, verifyShortPortalToken } from "~/links/index.server";
import type { Route } from "./+types/portal-short";

/**
 * /t/:token: the short link a text message carries (decisions/070), leading to the debtor's page
 * (/d/<token>). Anything but a valid token answers 404, as an unknown debtor's page does; the
 * answer belongs to one debtor, so nothing keeps it.
 */
export async function loader({ params, context }: Route.LoaderArgs) {
  const { env, config } = getApp(context);
  const db = getDb(env.DB);
  const debtor = await verifyShortPortalToken(db, config, params.token);
  if (!debtor) throw data("This link is not valid.", { status: 404, headers: { "Cache-Control": "no-store" } });
  return redirect(await portalLink(db, config, debtor), {
    headers: { "Cache-Control": "private, no-store", "Referrer-Policy": "no-referrer" },
  });
}
