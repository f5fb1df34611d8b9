import { createContext, RouterContextProvider } from "react-router";
import type { SessionUser } from "~/auth/session.server";

export interface AppContext {
  env: Env;
  ctx: ExecutionContext;
  /** The signed-in user from the session cookie, or null for a visitor. */
  user: SessionUser | null;
}

export const appContext = createContext<AppContext>();

export function createAppContext(value: AppContext) {
  const provider = new RouterContextProvider();
  provider.set(appContext, value);
  return provider;
}

/** The one typed place where loaders and actions reach bindings and the session user. */
export function getApp(context: Readonly<RouterContextProvider>) {
  return context.get(appContext);
}
