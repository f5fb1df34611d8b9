/**
 * Each request's cookies by name (the first of a repeated name), raw: parsed once per Request, as
 * a page asks for several (the session's, the time zone's, the theme's, a flashed toast's) and
 * walking the header each time was a measurable part of a page's Worker time. An incoming request's headers cannot change.
 */
const requestCookies = new WeakMap<Request, Map<string, string>>();

function cookiesOf(request: Request): Map<string, string> {
  let cookies = requestCookies.get(request);
  if (cookies) return cookies;
  cookies = new Map();
  const header = request.headers.get("Cookie") ?? "";
  for (const part of header.split(";")) {
    const eqAt = part.indexOf("=");
    if (eqAt === -1) continue;
    const name = part.slice(0, eqAt).trim();
    if (!cookies.has(name)) cookies.set(name, part.slice(eqAt + 1).trim());
  }
  requestCookies.set(request, cookies);
  return cookies;
}

/** A request's cookie, percent-decoded; null when absent or malformed. */
export function readCookie(request: Request, name: string): string | null {
  const value = cookiesOf(request).get(name);
  if (value === undefined) return null;
  if (!value.includes("%")) return value;
  try {
    return decodeURIComponent(value);
  } catch {
    // A malformed percent-escape is not our cookie: treat it as absent rather than failing.
    return null;
  }
}
