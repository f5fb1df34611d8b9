/**
 * Whether a site is served securely: everywhere except plain-http localhost (`npm run dev`), where
 * browsers would drop a Secure cookie and refuse the `__Host-` prefix.
 */
export function isSecureOrigin(url: URL) {
  const local = url.hostname === "localhost" || url.hostname === "127.0.0.1";
  return !(url.protocol === "http:" && local);
}

/** Plain http on localhost, its port, path, query or nothing after the host. */
const PLAIN_LOCAL = /^http:\/\/(?:localhost|127\.0\.0\.1)(?:[:/?#]|$)/;

/**
 * isSecureOrigin from a request's URL as text, without parsing it: every request with a cookie
 * asks (its session cookie's name), and a URL parse was a measurable part of the trivial route's
 * Worker time. A Request's URL is already serialized by the runtime
 * (scheme and host lower case, no user info), which is all this relies on.
 */
export function isSecureHref(href: string) {
  return !PLAIN_LOCAL.test(href);
}
