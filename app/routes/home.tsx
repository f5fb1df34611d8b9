import { getApp } from "~/auth/context.server";
import { redirectSignedIn } from "~/auth/guard.server";
import { isGoogleConfigured } from "~/auth/index.server";
import { requestMagicLink } from "~/auth/sign-in-action.server";
import { Faq } from "~/components/faq";
import { RouteError } from "~/components/route-error";
import { SignInForm } from "~/components/sign-in-form";
import { safeRedirect } from "~/platform/redirect";
import { authErrorMessage } from "~/ui/auth-errors";
import { landingFaq } from "~/ui/faq";
import { loadAsDocument, type PageHandle } from "~/ui/should-hydrate";
import { SITE_DESCRIPTION } from "~/ui/site";
import type { Route } from "./+types/home";

/**
 * The landing page is HTML without module scripts (docs/decisions/026): the framework chunk alone is
 * over the page's JavaScript budget. Its forms post as documents, the FAQ
 * and the header's menu are native disclosures, the hero's animation is CSS.
 */
export const handle = { hydrate: false } satisfies PageHandle;
export const clientLoader = loadAsDocument;

export async function loader({ context, request }: Route.LoaderArgs) {
  await redirectSignedIn(context);
  const url = new URL(request.url);
  // Named as SignInForm's props: the page spreads them into it.
  return {
    googleEnabled: isGoogleConfigured(getApp(context).config),
    initialError: authErrorMessage(url.searchParams.get("error")),
    redirectTo: safeRedirect(url.searchParams.get("redirectTo")),
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  return requestMagicLink(request, context);
}

export default function Home({ loaderData }: Route.ComponentProps) {
  return (
    <>
      <section className="hero-animated relative flex min-h-[calc(100dvh-4rem)] items-center">
        <div className="absolute inset-0 bg-black/35" aria-hidden />
        <div className="relative mx-auto grid w-full max-w-6xl items-center gap-10 px-4 py-16 md:grid-cols-2">
          <div className="text-white">
            <h1 className="hero-rise text-4xl font-black leading-tight sm:text-5xl lg:text-6xl">
              Ready to annoy people who owe you money?
            </h1>
            <p className="hero-rise-delay mt-6 text-lg sm:text-xl">Schedule email reminders for your debtors.</p>
          </div>
          <div className="flex justify-center md:justify-end">
            <SignInForm {...loaderData} />
          </div>
        </div>
      </section>
      <Faq id="faq" title="Frequently asked questions" items={landingFaq} />
    </>
  );
}

export function ErrorBoundary() {
  return <RouteError message="We couldn't load the home page." />;
}

export const meta: Route.MetaFunction = () => [
  { title: "Dunly · Get paid without the awkward e-mails" },
  { name: "description", content: SITE_DESCRIPTION },
];
