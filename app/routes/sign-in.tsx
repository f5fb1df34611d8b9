import { data, redirect } from "react-router";
import { getApp, sessionUser } from "~/auth/context.server";
import { isGoogleConfigured } from "~/auth/index.server";
import { requestMagicLink } from "~/auth/sign-in-action.server";
import { NotFoundMessage } from "~/components/not-found";
import { RouteError } from "~/components/route-error";
import { SignInForm } from "~/components/sign-in-form";
import { safeRedirect } from "~/platform/redirect";
import { authErrorMessage } from "~/ui/auth-errors";
import { pageMeta } from "~/ui/site";
import type { Route } from "./+types/sign-in";

/**
 * /404: where a visitor lands from a guarded route. With somewhere to go back to, it is the
 * sign-in page (200) that brings them there; without, the spec's "page not found" (404) with
 * sign-in under it.
 */
export async function loader({ context, request }: Route.LoaderArgs) {
  const { config } = getApp(context);
  const user = await sessionUser(context);
  const url = new URL(request.url);
  const redirectTo = safeRedirect(url.searchParams.get("redirectTo"));
  // Signed in meanwhile (another tab, a magic link): go where they were going.
  if (user && redirectTo) throw redirect(redirectTo);
  return data(
    // Besides signedIn, named as SignInForm's props: the page spreads them into it.
    {
      signedIn: Boolean(user),
      redirectTo,
      googleEnabled: isGoogleConfigured(config),
      initialError: authErrorMessage(url.searchParams.get("error")),
    },
    { status: redirectTo && !user ? 200 : 404 },
  );
}

export async function action({ request, context }: Route.ActionArgs) {
  return requestMagicLink(request, context);
}

export default function GuardNotFound({ loaderData }: Route.ComponentProps) {
  const { signedIn, ...signIn } = loaderData;
  if (!signedIn && signIn.redirectTo) {
    return (
      <section className="mx-auto flex max-w-md flex-col items-center gap-4 px-4 py-16 text-center">
        <h1 className="text-3xl font-black">Sign in to Dunly</h1>
        <p className="text-muted">
          {signIn.redirectTo === "/welcome"
            ? "Enter your e-mail address: a new one starts your free trial."
            : "Sign in to open this page. You come back to it afterwards."}
        </p>
        <SignInForm {...signIn} />
      </section>
    );
  }
  return (
    <NotFoundMessage>
      {!signedIn && (
        <div className="mt-6 flex w-full flex-col items-center gap-4">
          <p className="text-muted">{signIn.redirectTo ? "Sign in to open this page." : "Sign in to continue."}</p>
          <SignInForm {...signIn} />
        </div>
      )}
    </NotFoundMessage>
  );
}

export function ErrorBoundary() {
  return <RouteError message="We couldn't load the sign-in page." />;
}

export const meta: Route.MetaFunction = ({ loaderData }) =>
  pageMeta(loaderData && !loaderData.signedIn && loaderData.redirectTo ? "Sign in" : "Page not found");
