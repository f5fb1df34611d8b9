import { data, redirect } from "react-router";
import {
  accountingSetups,
  disconnectBooks,
  finishXeroConnect,
  startXeroConnect,
  xeroSetup,
} from "~/accounting/index.server";
import { getApp } from "~/auth/context.server";
import { requireUser } from "~/auth/guard.server";
import { getDb } from "~/db/client.server";
import { appOrigin } from "~/platform/config.server";
import { flashToastCookie } from "~/platform/toast.server";
import type { Route } from "./+types/accounting-xero";

/**
 * Settings → Accounting's Xero steps (decisions/060): POST /iam/accounting/xero/connect sends the
 * signed-in user to Xero's consent page (OAuth 2.0 with PKCE; the local stand-in's without
 * XERO_CLIENT_ID), GET /iam/accounting/xero/callback is where Xero sends them back, POST
 * /iam/accounting/xero/disconnect revokes and forgets the tokens. Always the signed-in user's
 * connection: nothing in the request names one. Unavailable (production without the client id or
 * the token key): 404.
 */
const back = (kind: "success" | "error", message: string) =>
  redirect("/iam/accounting", { status: 303, headers: { "Set-Cookie": flashToastCookie({ kind, message }) } });

export async function action({ context, params, request, url }: Route.ActionArgs) {
  const user = await requireUser(context, url);
  const { env, config } = getApp(context);
  const db = getDb(env.DB);
  const origin = appOrigin(config, request.url);
  const setup = xeroSetup(config, env, origin);
  if (params.op === "disconnect") {
    // Whichever tool the account has: revoked there, the row deleted.
    const removed = await disconnectBooks(db, accountingSetups(config, env, origin), user.id);
    return back(
      "success",
      removed ? "Xero is disconnected: its tokens are revoked and deleted." : "Xero was not connected.",
    );
  }
  if (params.op !== "connect") throw data(null, { status: 404 });
  if (!setup) throw data("Xero is not available", { status: 404 });
  return redirect((await startXeroConnect(db, setup, user.id, origin)).href, 303);
}

export async function loader({ context, params, request, url }: Route.LoaderArgs) {
  if (params.op !== "callback") throw data(null, { status: 405 });
  const user = await requireUser(context, url);
  const { env, config } = getApp(context);
  const origin = appOrigin(config, request.url);
  const setup = xeroSetup(config, env, origin);
  if (!setup) throw data("Xero is not available", { status: 404 });
  const outcome = await finishXeroConnect(getDb(env.DB), setup, user.id, origin, {
    state: url.searchParams.get("state"),
    code: url.searchParams.get("code"),
    error: url.searchParams.get("error"),
  });
  if (!outcome.ok) return back("error", outcome.message);
  return back(
    "success",
    `Xero is connected${outcome.tenantName ? ` to ${outcome.tenantName}` : ""}. Check what will come in, then import.`,
  );
}
