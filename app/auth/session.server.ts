import { and, eq, isNull, ne } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { bindParam, preparedQuery, runBound } from "~/db/prepared.server";
import { sessions, users } from "~/db/schema";
import { isSecureHref, isSecureOrigin } from "~/domain/secure-origin";
import { readCookie } from "~/platform/cookies.server";
import { generateToken, hashToken } from "./crypto.server";

/** The session cookie's name on plain-http localhost (`npm run dev`), where `__Host-` cannot be used. */
export const SESSION_COOKIE = "dunly_session";
/**
 * Its name wherever the connection is secure: the `__Host-` prefix makes the browser refuse the
 * cookie unless it is Secure, Path=/ and has no Domain, so a sibling subdomain cannot plant or
 * overwrite it (session fixation).
 */
export const SECURE_SESSION_COOKIE = `__Host-${SESSION_COOKIE}`;
const DAY = 24 * 60 * 60 * 1000;
const SESSION_TTL = 30 * DAY;
/** Sliding expiry: a session used in its last 15 days is extended to 30 again. */
const RENEW_BEFORE = 15 * DAY;

export interface SessionUser {
  id: string;
  email: string;
  fullName: string;
  imgKey: string | null;
  /** The subscription's plan, or the trial's (docs/decisions/019); effectivePlan() says what applies now. */
  plan: string;
  subscriptionStatus: string | null;
  trialEndsAt: number | null;
  createdAt: number;
  /** When the user last proved control of the address (every sign-in method does); null if never. */
  emailVerifiedAt: number | null;
  /** The account's currency (Settings → Info): new debtors' and imported rows' unless given. */
  defaultCurrency: string;
  /** The number format chosen in Settings (a locale); null: the browser's languages. */
  locale: string | null;
  /** The business the user sends as (Settings, the welcome page); null: their own name. */
  businessName: string | null;
}

export interface ValidatedSession {
  user: SessionUser;
  expiresAt: number;
  /** True when the expiry moved and the cookie must be sent again. */
  renewed: boolean;
}

/** Creates a session and returns the token for the cookie; only its hash is stored. */
export async function createSession(db: Db, userId: string, now = Date.now()) {
  const token = generateToken();
  const expiresAt = now + SESSION_TTL;
  await db.insert(sessions).values({ id: await hashToken(token), userId, expiresAt, createdAt: now });
  return { token, expiresAt };
}

/**
 * The session's row and its user, by the token's hash: every request that carries a cookie runs it
 * (the trivial route included), so it is built once per isolate.
 */
export const sessionById = preparedQuery((db) =>
  db
    .select({
      expiresAt: sessions.expiresAt,
      id: users.id,
      email: users.email,
      fullName: users.fullName,
      imgKey: users.imgKey,
      plan: users.plan,
      subscriptionStatus: users.subscriptionStatus,
      trialEndsAt: users.trialEndsAt,
      createdAt: users.createdAt,
      emailVerifiedAt: users.emailVerifiedAt,
      defaultCurrency: users.defaultCurrency,
      locale: users.locale,
      businessName: users.businessName,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    // An account being deleted has no valid session (its sessions were ended when it began).
    .where(and(eq(sessions.id, bindParam("id")), isNull(users.deletingAt))),
);

type SessionRow = ReturnType<ReturnType<typeof sessionById>["map"]>[number];

/**
 * The statement that reads a session's user inside another query (docs/decisions/025): the user of
 * the session whose id is bound first, if it has not expired at the instant bound second.
 */
export const SESSION_USER_SQL = '(SELECT "user_id" FROM "sessions" WHERE "id" = ? AND "expires_at" > ?)';

export async function validateSessionToken(db: Db, token: string, now = Date.now()): Promise<ValidatedSession | null> {
  const id = await hashToken(token);
  const [row] = await runBound(sessionById(db, { id }));
  return settleSession(db, id, row, now);
}

/** The session `row` read by `sessionById` (none: no such session), with its expiry enforced and slid. */
export async function settleSession(
  db: Db,
  id: string,
  row: SessionRow | undefined,
  now: number,
): Promise<ValidatedSession | null> {
  if (!row) return null;
  if (row.expiresAt <= now) {
    await db.delete(sessions).where(eq(sessions.id, id));
    return null;
  }
  const { expiresAt, ...user } = row;
  if (expiresAt - now < RENEW_BEFORE) {
    const renewedAt = now + SESSION_TTL;
    await db.update(sessions).set({ expiresAt: renewedAt }).where(eq(sessions.id, id));
    return { user, expiresAt: renewedAt, renewed: true };
  }
  return { user, expiresAt, renewed: false };
}

export async function invalidateSession(db: Db, token: string) {
  await db.delete(sessions).where(eq(sessions.id, await hashToken(token)));
}

/** Ends every session of the user except the one `keepToken` belongs to; returns how many ended. */
export async function invalidateOtherSessions(db: Db, userId: string, keepToken: string | null) {
  const others = keepToken
    ? and(eq(sessions.userId, userId), ne(sessions.id, await hashToken(keepToken)))
    : eq(sessions.userId, userId);
  const ended = await db.delete(sessions).where(others).returning({ id: sessions.id });
  return ended.length;
}

/**
 * Signs `userId` in on this browser: the session the request's cookie carried (whoever's it was)
 * ends, so a sign-in never leaves an old session alive behind the new cookie. Returns the
 * Set-Cookie header of the new session.
 */
export async function startSession(db: Db, userId: string, request: Request, now = Date.now()) {
  const url = new URL(request.url);
  const previous = readSessionToken(request);
  if (previous) await invalidateSession(db, previous);
  const session = await createSession(db, userId, now);
  return sessionCookie(session.token, session.expiresAt, url);
}

/** The session cookie's name for a site: `__Host-` prefixed where the connection is secure. */
export function sessionCookieName(url: URL) {
  return isSecureOrigin(url) ? SECURE_SESSION_COOKIE : SESSION_COOKIE;
}

/** The session token the request's cookie carries, under this site's cookie name; null if none. */
export function readSessionToken(request: Request) {
  return readCookie(request, isSecureHref(request.url) ? SECURE_SESSION_COOKIE : SESSION_COOKIE);
}

export function sessionCookie(token: string, expiresAt: number, url: URL) {
  const parts = [
    `${sessionCookieName(url)}=${token}`,
    "Path=/",
    "HttpOnly",
    "SameSite=Lax",
    `Expires=${new Date(expiresAt).toUTCString()}`,
  ];
  if (isSecureOrigin(url)) parts.push("Secure");
  return parts.join("; ");
}

export function clearSessionCookie(url: URL) {
  const parts = [`${sessionCookieName(url)}=`, "Path=/", "HttpOnly", "SameSite=Lax", "Max-Age=0"];
  if (isSecureOrigin(url)) parts.push("Secure");
  return parts.join("; ");
}
