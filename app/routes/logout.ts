import { redirect } from "react-router";
import { getApp } from "~/auth/context.server";
import { clearSessionCookie, invalidateSession, readSessionToken } from "~/auth/index.server";
import { getDb } from "~/db/client.server";
import type { Route } from "./+types/logout";

/** Log out: the session row is deleted, the cookie cleared, and the user returns to /. */
export async function action({ request, context }: Route.ActionArgs) {
  const token = readSessionToken(request);
  if (token) await invalidateSession(getDb(getApp(context).env.DB), token);
  return redirect("/", { headers: { "Set-Cookie": clearSessionCookie(new URL(request.url)) } });
}

export async function loader() {
  return redirect("/");
}
