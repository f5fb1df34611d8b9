import { encodeBase64 } from "@oslojs/encoding";

/** A fresh script nonce for one response: 16 random bytes, base64. */
export function newNonce(): string {
  return encodeBase64(crypto.getRandomValues(new Uint8Array(16)));
}

/**
 * The page policy. Scripts: our own files and inline scripts carrying this
 * response's nonce, never 'unsafe-inline'. Styles: React, radix, react-aria and the chart's tooltip set inline styles.
 * Google sign-in is a form that redirects to Google, which form-action must allow.
 */
function contentSecurityPolicy(nonce: string): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}'`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    "frame-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self' https://accounts.google.com",
    "frame-ancestors 'none'",
  ].join("; ");
}

/** HSTS on every https response: two years, subdomains included. */
export const STRICT_TRANSPORT_SECURITY = "max-age=63072000; includeSubDomains";

/** What a response that belongs to a session may be cached as: by the browser's own memory at most. */
export const SESSION_CACHE_CONTROL = "private, no-store";

export interface ResponseFacts {
  /** The request came over https: the response carries HSTS. */
  https?: boolean;
  /** The request carried a valid session: the response belongs to that user. */
  session?: boolean;
}

/**
 * Adds the security headers to a response: the policy and a Referrer-Policy on HTML (a page or
 * response that sets its own keeps it), nosniff on everything, HSTS over https. A response that
 * belongs to a session (a signed-in request, or one setting a cookie: a sign-in's redirect) is
 * `private, no-store` unless it chose a private caching of its own (a photo's signed URL), so no
 * shared cache, and no back/forward or disk cache after sign-out, keeps one user's data; public
 * pages keep theirs.
 */
export function withSecurityHeaders(
  response: Response,
  nonce: string | (() => string),
  facts: ResponseFacts = {},
): Response {
  // A WebSocket upgrade cannot be copied (and is no page).
  if (response.webSocket) return response;
  const html = (response.headers.get("Content-Type") ?? "").startsWith("text/html");
  const missing = (name: string) => !response.headers.has(name);
  const add: [string, string][] = [];
  if (missing("X-Content-Type-Options")) add.push(["X-Content-Type-Options", "nosniff"]);
  if (html && missing("Content-Security-Policy"))
    add.push(["Content-Security-Policy", contentSecurityPolicy(typeof nonce === "string" ? nonce : nonce())]);
  if (html && missing("Referrer-Policy")) add.push(["Referrer-Policy", "strict-origin-when-cross-origin"]);
  if (facts.https && missing("Strict-Transport-Security")) {
    add.push(["Strict-Transport-Security", STRICT_TRANSPORT_SECURITY]);
  }
  const personal = facts.session || response.headers.has("Set-Cookie");
  if (personal && !/\bprivate\b/.test(response.headers.get("Cache-Control") ?? "")) {
    add.push(["Cache-Control", SESSION_CACHE_CONTROL]);
  }
  if (add.length === 0) return response;
  // Our own responses take the headers as they are: a copy of every response was a measurable
  // part of the trivial route's Worker time. Responses from fetch or
  // the cache (and redirects) have immutable headers, whose first set throws: those are copied.
  try {
    for (const [name, value] of add) response.headers.set(name, value);
    return response;
  } catch {
    const out = new Response(response.body, response);
    for (const [name, value] of add) out.headers.set(name, value);
    return out;
  }
}
