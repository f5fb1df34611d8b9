import { decodeIdToken, Google, generateCodeVerifier, generateState } from "arctic";
import { and, eq, sql } from "drizzle-orm";
import { nameFromEmail } from "~/auth/users.server";
import type { Db } from "~/db/client.server";
import { oauthAccounts, oauthStates, users } from "~/db/schema";
import { TRIAL_MS } from "~/domain/plans";
import { isSecureOrigin } from "~/domain/secure-origin";
import { type AppConfig, appOrigin } from "~/platform/config.server";
import { generateId, hashToken } from "./crypto.server";

export const GOOGLE_STATE_COOKIE = "google_oauth_state";
const STATE_TTL = 10 * 60 * 1000;

/** What Google sign-in needs from the configuration. */
type GoogleConfig = Pick<AppConfig, "APP_ENV" | "APP_ORIGIN" | "GOOGLE_CLIENT_ID" | "GOOGLE_CLIENT_SECRET">;

export function isGoogleConfigured(config: Pick<GoogleConfig, "GOOGLE_CLIENT_ID" | "GOOGLE_CLIENT_SECRET">) {
  return Boolean(config.GOOGLE_CLIENT_ID && config.GOOGLE_CLIENT_SECRET);
}

/** The redirect URI is on APP_ORIGIN (registered with Google), never on the request's Host. */
function googleClient(config: GoogleConfig, url: URL) {
  return new Google(
    config.GOOGLE_CLIENT_ID ?? "",
    config.GOOGLE_CLIENT_SECRET ?? "",
    new URL("/auth/google/callback", appOrigin(config, url)).href,
  );
}

/**
 * Starts a Google sign-in: a state (also in a short-lived cookie, binding the flow to this
 * browser) and a PKCE verifier kept server-side and consumed once by the callback.
 */
export async function startGoogleSignIn(
  db: Db,
  config: GoogleConfig,
  url: URL,
  redirectTo: string | null,
  now = Date.now(),
) {
  const state = generateState();
  const codeVerifier = generateCodeVerifier();
  await db
    .insert(oauthStates)
    .values({ hash: await hashToken(state), codeVerifier, redirectTo, expiresAt: now + STATE_TTL });
  const authorizationUrl = googleClient(config, url).createAuthorizationURL(state, codeVerifier, [
    "openid",
    "profile",
    "email",
  ]);
  const cookie = [
    `${GOOGLE_STATE_COOKIE}=${state}`,
    "Path=/auth/google",
    "HttpOnly",
    "SameSite=Lax",
    `Max-Age=${STATE_TTL / 1000}`,
    ...(isSecureOrigin(url) ? ["Secure"] : []),
  ].join("; ");
  return { authorizationUrl, cookie };
}

export function clearGoogleStateCookie(url: URL) {
  return [
    `${GOOGLE_STATE_COOKIE}=`,
    "Path=/auth/google",
    "HttpOnly",
    "SameSite=Lax",
    "Max-Age=0",
    ...(isSecureOrigin(url) ? ["Secure"] : []),
  ].join("; ");
}

/** Consumes the state row (single use); null when unknown, already used or expired. */
export async function consumeOAuthState(db: Db, state: string, now = Date.now()) {
  const rows = await db.all<{ code_verifier: string; redirect_to: string | null; expires_at: number }>(
    sql`DELETE FROM oauth_states WHERE hash = ${await hashToken(state)} RETURNING code_verifier, redirect_to, expires_at`,
  );
  const row = rows[0];
  if (!row || row.expires_at <= now) return null;
  return { codeVerifier: row.code_verifier, redirectTo: row.redirect_to };
}

export interface GoogleClaims {
  sub: string;
  email?: string;
  email_verified?: boolean;
  name?: string;
}

export class GoogleSignInError extends Error {}

/**
 * The user for a Google identity: the linked account, else the user with the same verified
 * e-mail (linked now), else a new user made from Google's name and e-mail.
 */
export async function userForGoogleIdentity(db: Db, claims: GoogleClaims, now = Date.now()) {
  const linked = await db
    .select({ userId: oauthAccounts.userId })
    .from(oauthAccounts)
    .where(and(eq(oauthAccounts.provider, "google"), eq(oauthAccounts.providerUserId, claims.sub)))
    .get();
  if (linked) return linked.userId;
  if (!claims.email || claims.email_verified !== true) {
    throw new GoogleSignInError("Your Google account has no verified e-mail address.");
  }
  const email = claims.email.toLowerCase();
  const existing = await db.select({ id: users.id }).from(users).where(eq(users.email, email)).get();
  const userId = existing?.id ?? generateId();
  await db.batch([
    db
      .insert(users)
      .values({
        id: userId,
        email,
        fullName: claims.name?.trim() || nameFromEmail(email),
        emailVerifiedAt: now,
        createdAt: now,
        // A new account's 14-day trial of Medium (docs/decisions/019).
        trialEndsAt: now + TRIAL_MS,
      })
      .onConflictDoNothing(),
    db.insert(oauthAccounts).values({ provider: "google", providerUserId: claims.sub, userId }).onConflictDoNothing(),
  ]);
  return userId;
}

/** Exchanges the code (with the PKCE verifier) and reads the ID token's claims. */
export async function exchangeGoogleCode(
  config: GoogleConfig,
  url: URL,
  code: string,
  codeVerifier: string,
): Promise<GoogleClaims> {
  const tokens = await googleClient(config, url).validateAuthorizationCode(code, codeVerifier);
  // The ID token comes straight from Google's token endpoint over TLS, so its claims are trusted as is.
  return decodeIdToken(tokens.idToken()) as GoogleClaims;
}

/** How Google's redirect back ended: the user to sign in and where to go, or the reason it failed. */
export type GoogleCallback =
  | { ok: true; userId: string; redirectTo: string | null }
  | { ok: false; error: "google-unavailable" | "google-failed" | "google-unverified" };

/**
 * Google's redirect back to `url`, from a browser whose state cookie is `cookieState`. No user
 * unless the state matches that cookie, is known server-side and unused (so a replayed callback
 * fails), and the code exchange succeeds with a verified address.
 */
export async function finishGoogleSignIn(
  db: Db,
  config: GoogleConfig,
  url: URL,
  cookieState: string | null,
): Promise<GoogleCallback> {
  if (!isGoogleConfigured(config)) return { ok: false, error: "google-unavailable" };
  const state = url.searchParams.get("state");
  const code = url.searchParams.get("code");
  if (!state || !code || !cookieState || state !== cookieState) return { ok: false, error: "google-failed" };
  const stored = await consumeOAuthState(db, state);
  if (!stored) return { ok: false, error: "google-failed" };
  try {
    const claims = await exchangeGoogleCode(config, url, code, stored.codeVerifier);
    return { ok: true, userId: await userForGoogleIdentity(db, claims), redirectTo: stored.redirectTo };
  } catch (error) {
    if (error instanceof GoogleSignInError) return { ok: false, error: "google-unverified" };
    console.error("[dunly] Google sign-in failed", error);
    return { ok: false, error: "google-failed" };
  }
}
