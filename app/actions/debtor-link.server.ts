import { data, type RouterContextProvider } from "react-router";
import { type AppContext, getApp } from "~/auth/context.server";
import { type Db, getDb } from "~/db/client.server";
import type { OptOutTarget } from "~/links/index.server";
import type { AppConfig } from "~/platform/config.server";

/** What a signed-link page's loader or action works with once its token is verified. */
export interface DebtorLinkRequest {
  env: Env;
  config: AppConfig;
  ctx: AppContext["ctx"];
  db: Db;
  target: OptOutTarget;
}

/**
 * The start every loader and action of the debtor's signed-link pages (/u/… opt-out, /p/… "I've paid")
 * shares: the token of the URL verified for the page's purpose, then `then` with the debtor it names;
 * a token that is not valid answers 404 with nothing about why (and `invalid`: the page's words for it).
 */
export async function withDebtorLink<T>(
  context: Readonly<RouterContextProvider>,
  token: string | undefined,
  verify: (db: Db, config: AppConfig, token: string | undefined) => Promise<OptOutTarget | null>,
  then: (request: DebtorLinkRequest) => Promise<T>,
  invalid: object = {},
) {
  const { env, config, ctx } = getApp(context);
  const db = getDb(env.DB);
  const target = await verify(db, config, token);
  if (!target) return data({ ...invalid, state: "invalid" as const }, { status: 404 });
  return then({ env, config, ctx, db, target });
}
