import { Loader2 } from "lucide-react";
import { Form, redirect, useNavigation } from "react-router";
import { consumeLoginToken } from "~/auth/magic-link.server";
import { createSession, sessionCookie } from "~/auth/session.server";
import { Button } from "~/components/ui/button";
import { getDb } from "~/db/client.server";
import { readForm, reply } from "~/lib/action-result.server";
import { getApp } from "~/lib/context.server";
import { safeRedirect } from "~/lib/redirect";
import { upsertVerifiedUser } from "~/models/user.server";
import type { Route } from "./+types/auth.verify";

// The token is in this page's URL: never leak it to another site through Referer.
export function headers() {
  return { "Referrer-Policy": "no-referrer", "Cache-Control": "no-store" };
}

/**
 * GET only shows a button: link scanners in mail clients fetch links, and must not spend the
 * single-use token. The POST consumes it.
 */
export async function loader({ request }: Route.LoaderArgs) {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  return { token };
}

export async function action({ request, context }: Route.ActionArgs) {
  const { env } = getApp(context);
  const form = await readForm(request);
  if ("refused" in form) return form.refused;
  const token = String(form.formData.get("token") ?? "");
  const db = getDb(env.DB);
  const login = token ? await consumeLoginToken(db, token) : null;
  if (!login)
    return reply("verify", {
      ok: false,
      message: "This sign-in link is invalid, was already used, or has expired. Please request a new one.",
    });
  const userId = await upsertVerifiedUser(db, { email: login.email });
  const session = await createSession(db, userId);
  return redirect(safeRedirect(login.redirectTo) ?? "/welcome", {
    headers: { "Set-Cookie": sessionCookie(session.token, session.expiresAt, new URL(request.url)) },
  });
}

export default function Verify({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle";
  return (
    <section className="mx-auto flex max-w-md flex-col items-center gap-6 px-4 py-20 text-center">
      <h1 className="text-3xl font-bold">Sign in to Dunly</h1>
      {actionData && !actionData.ok ? (
        <>
          <p role="alert" className="rounded-md border border-danger px-4 py-3 text-danger">
            {actionData.message}
          </p>
          <a href="/" className="text-primary underline">
            Request a new link
          </a>
        </>
      ) : loaderData.token ? (
        <Form method="post" className="flex flex-col items-center gap-4">
          <input type="hidden" name="token" value={loaderData.token} />
          <p className="text-muted">Press the button to finish signing in on this device.</p>
          <Button type="submit" size="lg" disabled={busy}>
            {busy && <Loader2 className="h-4 w-4 animate-spin" aria-hidden />}
            Continue to Dunly
          </Button>
        </Form>
      ) : (
        <p role="alert" className="text-danger">
          This sign-in link is incomplete. Please open the link from your e-mail again.
        </p>
      )}
    </section>
  );
}

export const meta: Route.MetaFunction = () => [
  { title: "Sign in · Dunly" },
  { name: "referrer", content: "no-referrer" },
];
