import { Loader2 } from "lucide-react";
import { Form, redirect, useNavigation } from "react-router";
import { getApp, sessionUser } from "~/auth/context.server";
import { consumeLoginToken, peekLoginToken, startSession, upsertVerifiedUser } from "~/auth/index.server";
import { RouteError } from "~/components/route-error";
import { Button } from "~/components/ui/button";
import { getDb } from "~/db/client.server";
import { maskEmail } from "~/domain/mask-email";
import { readForm, reply } from "~/platform/action-result.server";
import { safeRedirect } from "~/platform/redirect";
import { pageMeta } from "~/ui/site";
import type { Route } from "./+types/auth.verify";

// The token is in this page's URL: Referer carries the origin only, never the token. Not
// no-referrer: under it the browser sends `Origin: null` with the form's own POST (before the page
// hydrates, or without JavaScript), which the CSRF check must refuse.
export function headers() {
  return { "Referrer-Policy": "strict-origin", "Cache-Control": "no-store" };
}

const LINK_UNUSABLE = "This sign-in link is invalid, was already used, or has expired. Please request a new one.";

/**
 * GET only shows a button: link scanners in mail clients fetch links, and must not spend the
 * single-use token. The page says which account the link signs into (masked), and warns when
 * another account is signed in on this browser: a link someone else sent cannot quietly swap the
 * user into the sender's account. The POST consumes the token.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { env } = getApp(context);
  const user = await sessionUser(context);
  const token = new URL(request.url).searchParams.get("token") ?? "";
  const email = token ? await peekLoginToken(getDb(env.DB), token) : null;
  return {
    token,
    usable: email !== null,
    account: email ? maskEmail(email) : null,
    signedInAs: user && email && user.email !== email ? maskEmail(user.email) : null,
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const { env } = getApp(context);
  const form = await readForm(request);
  if ("refused" in form) return form.refused;
  const token = String(form.formData.get("token") ?? "");
  const db = getDb(env.DB);
  const login = token ? await consumeLoginToken(db, token) : null;
  if (!login) return reply("verify", { ok: false, message: LINK_UNUSABLE });
  const userId = await upsertVerifiedUser(db, { email: login.email });
  // Whatever session this browser had (another account's too) ends here.
  return redirect(safeRedirect(login.redirectTo) ?? "/welcome", {
    headers: { "Set-Cookie": await startSession(db, userId, request) },
  });
}

export default function Verify({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle";
  return (
    <section className="mx-auto flex max-w-md flex-col items-center gap-6 px-4 py-20 text-center">
      <h1 className="text-3xl font-bold">Sign in to Dunly</h1>
      {actionData && !actionData.ok ? (
        <LinkUnusable message={actionData.message ?? LINK_UNUSABLE} />
      ) : !loaderData.token ? (
        <p role="alert" className="text-danger">
          This sign-in link is incomplete. Please open the link from your e-mail again.
        </p>
      ) : !loaderData.usable ? (
        <LinkUnusable message={LINK_UNUSABLE} />
      ) : (
        <Form method="post" className="flex flex-col items-center gap-4">
          <input type="hidden" name="token" value={loaderData.token} />
          <p>
            This link signs you in as <strong className="break-all">{loaderData.account}</strong>.
          </p>
          {loaderData.signedInAs && (
            <p role="alert" className="rounded-md border border-warning bg-warning/10 px-4 py-3 text-left text-sm">
              You are signed in as <strong className="break-all">{loaderData.signedInAs}</strong> on this browser.
              Continuing signs you out of that account first. If you did not ask for this link, close this page.
            </p>
          )}
          <p className="text-muted">Press the button to finish signing in on this device.</p>
          <Button type="submit" size="lg" disabled={busy}>
            {busy && <Loader2 className="h-4 w-4 animate-spin" aria-hidden />}
            Continue to Dunly
          </Button>
        </Form>
      )}
    </section>
  );
}

function LinkUnusable({ message }: { message: string }) {
  return (
    <>
      <p role="alert" className="rounded-md border border-danger px-4 py-3 text-danger">
        {message}
      </p>
      <a href="/" className="text-primary underline">
        Request a new link
      </a>
    </>
  );
}

export function ErrorBoundary() {
  return <RouteError message="We couldn't check your sign-in link." />;
}

export const meta: Route.MetaFunction = () => [...pageMeta("Sign in"), { name: "referrer", content: "strict-origin" }];
