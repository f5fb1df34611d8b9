import { redirect } from "react-router";
import { getApp } from "~/auth/context.server";
import {
  clearGoogleStateCookie,
  consumeOAuthState,
  exchangeGoogleCode,
  GOOGLE_STATE_COOKIE,
  GoogleSignInError,
  isGoogleConfigured,
  startSession,
  userForGoogleIdentity,
} from "~/auth/index.server";
import { getDb } from "~/db/client.server";
import { readCookie } from "~/platform/cookies.server";
import { safeRedirect } from "~/platform/redirect";
import type { Route } from "./+types/auth.google.callback";

/**
 * Google's redirect back. No session unless: the state matches this browser's cookie, the state
 * is known server-side and unused (so a replayed callback fails), and the code exchange succeeds.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { env, config } = getApp(context);
  const url = new URL(request.url);
  const clear = { "Set-Cookie": clearGoogleStateCookie(url) };
  const fail = (code: string) => redirect(`/?error=${code}`, { headers: clear });
  if (!isGoogleConfigured(config)) return fail("google-unavailable");

  const state = url.searchParams.get("state");
  const code = url.searchParams.get("code");
  const cookieState = readCookie(request, GOOGLE_STATE_COOKIE);
  if (!state || !code || !cookieState || state !== cookieState) return fail("google-failed");

  const db = getDb(env.DB);
  const stored = await consumeOAuthState(db, state);
  if (!stored) return fail("google-failed");

  let userId: string;
  try {
    const claims = await exchangeGoogleCode(config, url, code, stored.codeVerifier);
    userId = await userForGoogleIdentity(db, claims);
  } catch (error) {
    if (error instanceof GoogleSignInError) return fail("google-unverified");
    console.error("[dunly] Google sign-in failed", error);
    return fail("google-failed");
  }
  const headers = new Headers();
  headers.append("Set-Cookie", clear["Set-Cookie"]);
  headers.append("Set-Cookie", await startSession(db, userId, request));
  return redirect(safeRedirect(stored.redirectTo) ?? "/welcome", { headers });
}
