import { env, exports } from "cloudflare:workers";
import type { sessions, users } from "~/db/schema";
import type { RawRow } from "../support/db-rows";
import type { MailboxMessage } from "../support/email-fixtures";

/** The origin most tests talk to: plain-http localhost, as in `wrangler dev`. */
export const ORIGIN = "http://localhost";
/** The session cookie's name on plain-http localhost and 127.0.0.1. */
export const SESSION_COOKIE = "dunly_session";
/** Its name wherever the connection is secure (https, or any other host). */
export const SECURE_SESSION_COOKIE = "__Host-dunly_session";
export const DAY = 24 * 60 * 60 * 1000;

export const SIGN_IN_SENT = "Please Check your email for the sign in link";
export const SIGN_IN_LIMITED = "Too many sign-in e-mails were requested. Please wait a few minutes and try again.";
export const LINK_INVALID = "This sign-in link is invalid, was already used, or has expired. Please request a new one.";
export const NOT_FOUND_TEXT = "Sorry, We Can't Find That Page";
export const PASSWORD_CHANGED_SUBJECT = "Your Dunly password was changed";

/** The session cookie name the app uses on `origin`: `__Host-` prefixed unless plain-http localhost. */
export function sessionCookieName(origin = ORIGIN) {
  const url = new URL(origin);
  const local = url.hostname === "localhost" || url.hostname === "127.0.0.1";
  return url.protocol === "http:" && local ? SESSION_COOKIE : SECURE_SESSION_COOKIE;
}

let counter = 0;

/** A fresh address per call, so tests never share rate-limit buckets or users. */
export function uniqueEmail(prefix = "user") {
  counter += 1;
  return `${prefix}-${Date.now().toString(36)}-${counter}-${Math.random().toString(36).slice(2, 8)}@example.com`;
}

/** A fresh client address (CF-Connecting-IP) per call, so per-client limits never interfere. */
export function uniqueIp() {
  const b = () => Math.floor(Math.random() * 254) + 1;
  return `10.${b()}.${b()}.${b()}`;
}

/** Requests the built app Worker; redirects are never followed. */
export function request(path: string, init: RequestInit & { origin?: string } = {}) {
  const { origin = ORIGIN, ...rest } = init;
  return exports.default.fetch(new URL(path, origin).href, { redirect: "manual", ...rest });
}

export interface FormOptions {
  /** The site the request is made to (default http://localhost). */
  origin?: string;
  /** The Origin header; defaults to the request's own origin, `null` leaves it out. */
  originHeader?: string | null;
  cookie?: string;
  ip?: string;
}

/** A form POST like a browser without JavaScript makes it (document request, not `.data`). */
export function postForm(
  path: string,
  fields: Record<string, string> | readonly (readonly [string, string])[],
  options: FormOptions = {},
) {
  const origin = options.origin ?? ORIGIN;
  const headers = new Headers({ "Content-Type": "application/x-www-form-urlencoded" });
  const originHeader = options.originHeader === undefined ? origin : options.originHeader;
  if (originHeader !== null) headers.set("Origin", originHeader);
  if (options.cookie) headers.set("Cookie", options.cookie);
  headers.set("CF-Connecting-IP", options.ip ?? uniqueIp());
  const body = new URLSearchParams(fields as Record<string, string> | [string, string][]).toString();
  return request(path, { origin, method: "POST", headers, body });
}

/** GET with an optional cookie. */
export function get(
  path: string,
  options: { cookie?: string; origin?: string; headers?: Record<string, string> } = {},
) {
  const headers = new Headers(options.headers);
  if (options.cookie) headers.set("Cookie", options.cookie);
  return request(path, { origin: options.origin, headers });
}

/** Asks for a magic link through the landing page form. */
export function requestLink(email: string, options: FormOptions & { redirectTo?: string } = {}) {
  const fields: Record<string, string> = { email };
  if (options.redirectTo !== undefined) fields.redirectTo = options.redirectTo;
  return postForm("/?index", fields, options);
}

export interface OutboxRow extends MailboxMessage {
  idempotencyKey: string | null;
}

/** What the fake Resend server (tests/support/fake-resend.ts) delivered to `email`, oldest first. */
export async function outboxFor(email: string): Promise<OutboxRow[]> {
  const res = await fetch(`${env.FAKE_RESEND_URL}/__delivered?to=${encodeURIComponent(email.toLowerCase())}`);
  const rows = (await res.json()) as { idempotencyKey: string | null; body: Record<string, unknown> }[];
  return rows.map(({ idempotencyKey, body }) => ({
    to: String((body.to as string[])[0]),
    from: String(body.from),
    replyTo: (body.reply_to as string | undefined) ?? null,
    subject: String(body.subject),
    html: String(body.html),
    text: String(body.text ?? ""),
    idempotencyKey,
  }));
}

/** The raw token of the newest sign-in e-mail to `email`, read from the link in the delivered e-mail. */
export async function latestLinkToken(email: string) {
  const rows = await outboxFor(email);
  const last = rows.at(-1);
  if (!last) throw new Error(`no e-mail to ${email} delivered`);
  const fromText = /\/auth\/verify\?token=([A-Za-z0-9_-]+)/.exec(last.text)?.[1];
  const fromHtml = /\/auth\/verify\?token=([A-Za-z0-9_-]+)/.exec(last.html)?.[1];
  const token = fromText ?? fromHtml;
  if (!token) throw new Error(`no sign-in link in the e-mail to ${email}`);
  return token;
}

/** The full verify URL from the newest e-mail's text (to check which origin the link points at). */
export async function latestLinkUrl(email: string) {
  const last = (await outboxFor(email)).at(-1);
  const url = last && /(https?:\/\/[^\s"<>]+\/auth\/verify\?token=[A-Za-z0-9_-]+)/.exec(last.text)?.[1];
  if (!url) throw new Error(`no sign-in link in the e-mail to ${email}`);
  return new URL(url);
}

/** Presses "Continue" on the verify page: POST /auth/verify with the token. */
export function verify(token: string, options: FormOptions = {}) {
  return postForm("/auth/verify", { token }, options);
}

/** All Set-Cookie headers of a response. */
export function setCookies(res: Response) {
  return res.headers.getSetCookie();
}

/** The Set-Cookie header for `name`, or undefined. */
export function setCookieFor(res: Response, name: string) {
  return setCookies(res).find((c) => c.startsWith(`${name}=`));
}

/**
 * The session token a response made on `origin` sets (empty string when it clears the cookie), or
 * undefined; the cookie name is the one the app uses on that origin.
 */
export function sessionTokenFrom(res: Response, origin = ORIGIN) {
  const name = sessionCookieName(origin);
  const header = setCookieFor(res, name);
  if (header === undefined) return undefined;
  return header.slice(name.length + 1).split(";")[0];
}

/** The cookie attributes, lower-cased names, e.g. { httponly: "", samesite: "Lax" }. */
export function cookieAttributes(header: string) {
  const attrs: Record<string, string> = {};
  for (const part of header.split(";").slice(1)) {
    const [name, ...value] = part.trim().split("=");
    attrs[name!.toLowerCase()] = value.join("=");
  }
  return attrs;
}

export async function sha256Hex(value: string) {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(value));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

export async function userByEmail(email: string) {
  return env.DB.prepare("SELECT * FROM users WHERE email = ?").bind(email).first<RawRow<typeof users>>();
}

export async function countSessionsOf(userId: string) {
  return (await env.DB.prepare("SELECT count(*) AS n FROM sessions WHERE user_id = ?")
    .bind(userId)
    .first<{ n: number }>())!.n;
}

export async function countAllSessions() {
  return (await env.DB.prepare("SELECT count(*) AS n FROM sessions").first<{ n: number }>())!.n;
}

export async function sessionRow(token: string) {
  return env.DB.prepare("SELECT * FROM sessions WHERE id = ?")
    .bind(await sha256Hex(token))
    .first<RawRow<typeof sessions>>();
}

export interface SignedIn {
  email: string;
  token: string;
  /** The Cookie request header value. */
  cookie: string;
  userId: string;
  response: Response;
}

/** Signs in through the real magic-link flow: request a link, read it from the outbox, verify it. */
export async function signIn(
  email = uniqueEmail(),
  options: { origin?: string; redirectTo?: string } = {},
): Promise<SignedIn> {
  const requested = await requestLink(email, { origin: options.origin, redirectTo: options.redirectTo });
  if (requested.status !== 200) throw new Error(`requesting a link for ${email} answered ${requested.status}`);
  const response = await verify(await latestLinkToken(email), { origin: options.origin });
  const token = sessionTokenFrom(response, options.origin);
  if (!token) throw new Error(`verifying the link for ${email} set no session cookie (status ${response.status})`);
  const user = await userByEmail(email.toLowerCase());
  if (!user) throw new Error(`no user for ${email} after sign-in`);
  const cookie = `${sessionCookieName(options.origin)}=${token}`;
  return { email: email.toLowerCase(), token, cookie, userId: user.id, response };
}

/** POST /sign-in/password as the form does; `fields` adds e.g. redirectTo. */
export function passwordSignIn(
  email: string,
  password: string,
  options: FormOptions & { fields?: Record<string, string> } = {},
) {
  const { fields, ...form } = options;
  return postForm("/sign-in/password", { email, password, ...fields }, form);
}

/** The Settings password form as its fetcher submits it (single fetch: /iam/info.data). */
export function savePassword(
  cookie: string,
  fields: { newPassword: string; confirmPassword?: string; currentPassword?: string },
  options: FormOptions = {},
) {
  const body: Record<string, string> = {
    intent: "set-password",
    newPassword: fields.newPassword,
    confirmPassword: fields.confirmPassword ?? fields.newPassword,
  };
  if (fields.currentPassword !== undefined) body.currentPassword = fields.currentPassword;
  return postForm("/iam/info.data", body, { ...options, cookie });
}

/** A response's HTML with the entities React escapes decoded, to search for visible text. */
export async function pageText(res: Response) {
  return (await res.text())
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");
}

/** The redirect target of a response, relative to the origin it was made on. */
/** The page's text as a reader sees it: scripts, tags and React's text separators removed, entities decoded. */
export async function visibleText(res: Response) {
  return (await pageText(res))
    .replace(/<script[\s\S]*?<\/script>/g, "")
    .replace(/<!--[\s\S]*?-->/g, "")
    .replace(/<[^>]+>/g, "");
}

export function location(res: Response, origin = ORIGIN) {
  const value = res.headers.get("Location");
  return value === null ? null : new URL(value, origin);
}

/** The HTML a user sees without scripts: hydration data and scripts removed. */
export async function markup(res: Response) {
  return (await res.text()).replace(/<script[\s\S]*?<\/script>/g, "").replace(/&#x27;|&#39;/g, "'");
}

/**
 * The debtor's "I've paid" form as the page offers it (/p/… or the portal /d/…): every open invoice
 * ticked and the page's today as the day, unless `fields` says otherwise. The refs are read from the
 * page itself, as a browser would post them.
 */
export async function sayPaid(
  path: string,
  fields: readonly (readonly [string, string])[] = [],
  options: { intent?: string; tick?: "all" | "none" } = {},
) {
  const html = await (await get(path)).text();
  const refs = [...html.matchAll(/name="invoices" value="([^"]+)"/g)].map((m) => m[1] as string);
  const today = /name="paid_on"[^>]*max="(\d{4}-\d{2}-\d{2})"|max="(\d{4}-\d{2}-\d{2})"[^>]*name="paid_on"/.exec(html);
  const named = new Set(fields.map(([name]) => name));
  const form: [string, string][] = [];
  if (options.intent) form.push(["intent", options.intent]);
  if ((options.tick ?? "all") === "all" && !named.has("invoices")) for (const ref of refs) form.push(["invoices", ref]);
  if (!named.has("paid_on")) form.push(["paid_on", today?.[1] ?? today?.[2] ?? new Date().toISOString().slice(0, 10)]);
  for (const [name, value] of fields) form.push([name, value]);
  return postForm(path, form);
}
