import { eq, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { loginTokens } from "~/db/schema";
import { takeRateLimit } from "~/platform/rate-limit.server";
import { generateToken, hashToken } from "./crypto.server";

export const MAGIC_LINK_TTL = 15 * 60 * 1000;
/** Per address and client together: a stranger elsewhere cannot use up a user's own allowance. */
const PER_ADDRESS_AND_CLIENT = { limit: 3, windowMs: 15 * 60 * 1000 };
const PER_CLIENT = { limit: 20, windowMs: 60 * 60 * 1000 };

/** Stores a new single-use sign-in token (hashed) and returns the raw token for the link. */
export async function createLoginToken(db: Db, email: string, redirectTo: string | null, now = Date.now()) {
  const token = generateToken();
  await db.insert(loginTokens).values({
    hash: await hashToken(token),
    email: email.toLowerCase(),
    redirectTo,
    expiresAt: now + MAGIC_LINK_TTL,
  });
  return token;
}

/**
 * The address an unused, unexpired sign-in token signs into, without spending it (the verify
 * page shows it before the user presses Continue); null when the token is not usable.
 */
export async function peekLoginToken(db: Db, token: string, now = Date.now()) {
  const row = await db
    .select({ email: loginTokens.email, expiresAt: loginTokens.expiresAt })
    .from(loginTokens)
    .where(eq(loginTokens.hash, await hashToken(token)))
    .get();
  return row && row.expiresAt > now ? row.email : null;
}

/**
 * Consumes a sign-in token atomically: DELETE … RETURNING lets exactly one of two concurrent
 * clicks get the row. Expired tokens are consumed too but yield nothing.
 */
export async function consumeLoginToken(db: Db, token: string, now = Date.now()) {
  const rows = await db.all<{ email: string; redirect_to: string | null; expires_at: number }>(
    sql`DELETE FROM login_tokens WHERE hash = ${await hashToken(token)} RETURNING email, redirect_to, expires_at`,
  );
  const row = rows[0];
  if (!row || row.expires_at <= now) return null;
  return { email: row.email, redirectTo: row.redirect_to };
}

/**
 * Sign-in e-mails: at most 3 per address from one client per 15 minutes, and 20 per client per
 * hour. The address limit is keyed by the client too, so requests from elsewhere never lock the
 * owner of an address out of signing in.
 */
export async function allowSignInEmail(
  db: Db,
  email: string,
  clientKey: string,
  now = Date.now(),
  perClientLimit = PER_CLIENT.limit,
) {
  const clientOk = await takeRateLimit(db, `signin-client:${clientKey}`, perClientLimit, PER_CLIENT.windowMs, now);
  if (!clientOk) return false;
  const key = `signin-email:${clientKey}:${email.toLowerCase()}`;
  return takeRateLimit(db, key, PER_ADDRESS_AND_CLIENT.limit, PER_ADDRESS_AND_CLIENT.windowMs, now);
}

/** The client a request comes from, for rate limits: Cloudflare's connecting IP. */
export function clientKey(request: Request) {
  return request.headers.get("CF-Connecting-IP") ?? "local";
}
