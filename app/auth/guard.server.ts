import { type RouterContextProvider, redirect } from "react-router";
import { getApp } from "~/lib/context.server";

/**
 * The signed-in user, or a redirect to /404 carrying where the visitor was going (docs/product-spec.md §2),
 * so signing in there brings them back.
 */
export function requireUser(context: Readonly<RouterContextProvider>, url: URL) {
  const { user } = getApp(context);
  if (!user) {
    // `url` is React Router's normalized URL (no `.data` suffix), not request.url.
    throw redirect(`/404?redirectTo=${encodeURIComponent(url.pathname + url.search)}`);
  }
  return user;
}

/** Pages only for visitors (the landing page) send a signed-in user on to /welcome. */
export function redirectSignedIn(context: Readonly<RouterContextProvider>) {
  if (getApp(context).user) throw redirect("/welcome");
}
