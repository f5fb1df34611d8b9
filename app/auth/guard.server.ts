import { type RouterContextProvider, redirect } from "react-router";
import { getApp, sessionUser } from "~/auth/context.server";
import type { Bound, Rows } from "~/db/prepared.server";

/** Where a visitor without a session goes: /404, carrying where they were going (docs/product-spec.md §2). */
function signInRedirect(url: URL) {
  // `url` is React Router's normalized URL (no `.data` suffix), not request.url.
  return redirect(`/404?redirectTo=${encodeURIComponent(url.pathname + url.search)}`);
}

/**
 * The signed-in user, or a redirect to /404 carrying where the visitor was going (docs/product-spec.md §2),
 * so signing in there brings them back.
 */
export async function requireUser(context: Readonly<RouterContextProvider>, url: URL) {
  const user = await sessionUser(context);
  if (!user) throw signInRedirect(url);
  return user;
}

/**
 * requireUser and the page's statements in one D1 batch (docs/decisions/025): `queries` are built
 * with SESSION_OWNER as their owner (app/db/prepared.server.ts) and read only what the session's
 * user owns. Without a valid session, the same redirect as requireUser.
 */
export async function requireUserWith<T extends readonly Bound<unknown>[]>(
  context: Readonly<RouterContextProvider>,
  url: URL,
  queries: T,
) {
  const read = await getApp(context).session.batch(queries);
  if (!read.user) throw signInRedirect(url);
  return read as { user: NonNullable<typeof read.user>; rows: Rows<T> };
}

/** Pages only for visitors (the landing page) send a signed-in user on to /welcome. */
export async function redirectSignedIn(context: Readonly<RouterContextProvider>) {
  if (await sessionUser(context)) throw redirect("/welcome");
}
