import { createContext, RouterContextProvider } from "react-router";
import type { SessionUser } from "~/auth/session.server";
import type { SessionGate } from "~/auth/session-gate.server";
import type { AppConfig } from "~/platform/config.server";

export interface AppContext {
  /** Bindings to resources (DB, IMAGES, MAILER, SCHEDULES); configuration values are in `config`. */
  env: Env;
  /** The configuration, validated once per request (app/platform/config.server.ts). */
  config: AppConfig;
  ctx: ExecutionContext;
  /**
   * The session cookie's session, read when first asked (docs/decisions/025): `sessionUser(context)`,
   * or a page's one batch with it (`requireUserWith`, app/auth/guard.server.ts).
   */
  session: SessionGate;
  /** This response's script nonce, named by its Content-Security-Policy (app/platform/security-headers.server.ts). */
  nonce: string;
}

const appContext = createContext<AppContext>();

export function createAppContext(value: AppContext) {
  const provider = new RouterContextProvider();
  provider.set(appContext, value);
  return provider;
}

/** The one typed place where loaders and actions reach bindings, configuration and the session user. */
export function getApp(context: Readonly<RouterContextProvider>) {
  return context.get(appContext);
}

/** The signed-in user from the session cookie, or null for a visitor. */
export function sessionUser(context: Readonly<RouterContextProvider>): Promise<SessionUser | null> {
  return getApp(context).session.user();
}
