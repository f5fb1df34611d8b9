import { data, redirect } from "react-router";
import {
  accountingSetups,
  BOOKS_LABEL,
  type BooksProvider,
  connectFlow,
  disconnectBooks,
} from "~/accounting/index.server";
import { getApp } from "~/auth/context.server";
import { requireUser } from "~/auth/guard.server";
import { getDb } from "~/db/client.server";
import { appOrigin } from "~/platform/config.server";
import { flashToastCookie } from "~/platform/toast.server";
import type { Route } from "./+types/accounting-connect";

/**
 * Settings → Accounting's steps with a tool (decisions/060, 061): POST
 * /iam/accounting/:provider/connect sends the signed-in user to Xero's or Intuit's consent page
 * (OAuth 2.0; the local stand-in's without the tool's client id), GET …/callback is where the tool
 * sends them back (QuickBooks with the company's realmId), POST …/disconnect revokes and forgets
 * the tokens of whichever tool the account has. Always the signed-in user's connection: nothing in
 * the request names one. A tool not available here (production without its client id, or without
 * the token key): 404.
 */
const back = (kind: "success" | "error", message: string) =>
  redirect("/iam/accounting", { status: 303, headers: { "Set-Cookie": flashToastCookie({ kind, message }) } });

function labelOf(provider: string) {
  const label = BOOKS_LABEL[provider as BooksProvider];
  if (!label) throw data(null, { status: 404 });
  return label;
}

export async function action({ context, params, request, url }: Route.ActionArgs) {
  const label = labelOf(params.provider);
  const user = await requireUser(context, url);
  const { env, config } = getApp(context);
  const db = getDb(env.DB);
  const origin = appOrigin(config, request.url);
  const setups = accountingSetups(config, env, origin);
  if (params.op === "disconnect") {
    const removed = await disconnectBooks(db, setups, user.id);
    return back(
      "success",
      removed ? `${label} is disconnected: its tokens are revoked and deleted.` : `${label} was not connected.`,
    );
  }
  if (params.op !== "connect") throw data(null, { status: 404 });
  const flow = connectFlow(params.provider, setups, origin);
  if (!flow) throw data(`${label} is not available`, { status: 404 });
  return redirect((await flow.start(db, user.id)).href, 303);
}

export async function loader({ context, params, request, url }: Route.LoaderArgs) {
  const label = labelOf(params.provider);
  if (params.op !== "callback") throw data(null, { status: 405 });
  const user = await requireUser(context, url);
  const { env, config } = getApp(context);
  const origin = appOrigin(config, request.url);
  const flow = connectFlow(params.provider, accountingSetups(config, env, origin), origin);
  if (!flow) throw data(`${label} is not available`, { status: 404 });
  const outcome = await flow.finish(getDb(env.DB), user.id, {
    state: url.searchParams.get("state"),
    code: url.searchParams.get("code"),
    realmId: url.searchParams.get("realmId"),
    error: url.searchParams.get("error"),
  });
  if (!outcome.ok) return back("error", outcome.message);
  return back(
    "success",
    `${label} is connected${outcome.tenantName ? ` to ${outcome.tenantName}` : ""}. Check what will come in, then import.`,
  );
}
