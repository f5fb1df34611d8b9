import { redirect } from "react-router";
import { getApp } from "~/auth/context.server";
import { clearGoogleStateCookie, finishGoogleSignIn, GOOGLE_STATE_COOKIE, startSession } from "~/auth/index.server";
import { getDb } from "~/db/client.server";
import { readCookie } from "~/platform/cookies.server";
import { safeRedirect } from "~/platform/redirect";
import type { Route } from "./+types/auth.google.callback";

/** Google's redirect back: a session and the page the user came for, or the sign-in page with why. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { env, config } = getApp(context);
  const url = new URL(request.url);
  const db = getDb(env.DB);
  const headers = new Headers({ "Set-Cookie": clearGoogleStateCookie(url) });
  const signedIn = await finishGoogleSignIn(db, config, url, readCookie(request, GOOGLE_STATE_COOKIE));
  if (!signedIn.ok) return redirect(`/?error=${signedIn.error}`, { headers });
  headers.append("Set-Cookie", await startSession(db, signedIn.userId, request));
  return redirect(safeRedirect(signedIn.redirectTo) ?? "/welcome", { headers });
}
