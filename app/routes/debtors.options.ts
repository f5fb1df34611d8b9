import { getApp, sessionUser } from "~/auth/context.server";
import { getDb } from "~/db/client.server";
import { DEBTOR_OPTIONS_LIMIT, searchDebtorOptions } from "~/debtors/index.server";
import { parseQuery } from "~/domain/list-params";
import type { Route } from "./+types/debtors.options";

/**
 * The dashboard's debtor typeahead: GET /debtors/options?q= answers at most
 * DEBTOR_OPTIONS_LIMIT of the signed-in user's debtors whose name or e-mail contains `q`, by name,
 * as JSON `{ options: [{ id, fullName, email, activeStrategy, openInvoices }] }` (the e-mail and
 * the open invoices tell debtors of one name apart). Another user's debtors never answer; a visitor
 * gets 401.
 */
export async function loader({ context, url }: Route.LoaderArgs) {
  const { env } = getApp(context);
  const user = await sessionUser(context);
  const headers = { "Cache-Control": "private, no-store" };
  if (!user) return Response.json({ options: [] }, { status: 401, headers });
  const q = parseQuery(url.searchParams.get("q"));
  const options = await searchDebtorOptions(getDb(env.DB), user.id, q, DEBTOR_OPTIONS_LIMIT);
  return Response.json({ options }, { headers });
}
