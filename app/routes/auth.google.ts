import { redirect } from "react-router";
import { getApp } from "~/auth/context.server";
import { isGoogleConfigured, startGoogleSignIn } from "~/auth/index.server";
import { getDb } from "~/db/client.server";
import { safeRedirect } from "~/platform/redirect";
import type { Route } from "./+types/auth.google";

/** Starts Google sign-in; without a configured client it returns with a clear message instead. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { env, config } = getApp(context);
  const url = new URL(request.url);
  const redirectTo = safeRedirect(url.searchParams.get("redirectTo"));
  if (!isGoogleConfigured(config)) return redirect("/?error=google-unavailable");
  const { authorizationUrl, cookie } = await startGoogleSignIn(getDb(env.DB), config, url, redirectTo);
  return redirect(authorizationUrl.toString(), { headers: { "Set-Cookie": cookie, "Cache-Control": "no-store" } });
}
