import { useEffect, useState } from "react";
import { data, Link, Links, Meta, Outlet, Scripts, ScrollRestoration, useRouteLoaderData } from "react-router";
import { signedImageUrl } from "~/account/index.server";
import { getApp, sessionUser } from "~/auth/context.server";
import { RouteError } from "~/components/route-error";
import { type HeaderUser, SiteFooter, SiteHeader } from "~/components/site-header";
import { AppToaster, notify } from "~/components/toast";
import { effectivePlan } from "~/domain/plans";
import { localDateString } from "~/domain/schedule-time";
import { requestNumberLocale } from "~/platform/locale.server";
import { useNonce } from "~/platform/nonce";
import { DEFAULT_THEME, themeBootScript } from "~/platform/theme";
import { requestTheme } from "~/platform/theme.server";
import { requestTimeZone } from "~/platform/time-zone.server";
import { readFlashToast } from "~/platform/toast.server";
import { usePageLanguage } from "~/ui/page-language";
import type { PageFormats } from "~/ui/root-data";
import { useDebtorPage, useShouldHydrate } from "~/ui/should-hydrate";
import { markHydrated } from "~/ui/use-form-result";
import type { Route } from "./+types/root";
import "./app.css";

export async function loader({ context, request }: Route.LoaderArgs) {
  const { config } = getApp(context);
  const user = await sessionUser(context);
  const headerUser: HeaderUser | null = user
    ? {
        fullName: user.fullName,
        email: user.email,
        imageUrl: user.imgKey ? await signedImageUrl(config, user.imgKey) : null,
      }
    : null;
  // A message flashed by the action that redirected here (e.g. 'Email reminder scheduled.').
  const flash = readFlashToast(request);
  // Without a plan (the trial ended, no subscription) reminders hold: every signed-in page says so
  // (docs/decisions/019).
  const noPlan = user !== null && effectivePlan(user, Date.now()) === null;
  // The theme cookie's, so the page is rendered in it (the boot script applies it too, before paint).
  const theme = requestTheme(request);
  // How the forms read amounts: the user's number format, else the browser's languages' (the actions read them alike).
  const numberLocale = requestNumberLocale(request, user);
  // The user's today in their zone (the tz cookie): "Overdue · N days" reads the same on the server and in the browser.
  const formats: PageFormats = { numberLocale, today: localDateString(Date.now(), requestTimeZone(request)) };
  return data({ user: headerUser, toast: flash.toast, noPlan, theme, ...formats }, { headers: flash.headers });
}

export function Layout({ children }: { children: React.ReactNode }) {
  const rootData = useRouteLoaderData<typeof loader>("root");
  // Every inline script carries the nonce this response's Content-Security-Policy names.
  const nonce = useNonce();
  // A page whose route says `handle = { hydrate: false }` is sent without module scripts: its HTML
  // works on its own (docs/decisions/026).
  const hydrate = useShouldHydrate();
  // A debtor's page speaks for the user: no Dunly header, menu or footer (docs/decisions/058).
  const debtorPage = useDebtorPage();
  // A debtor's page is in the debtor's language; every other page in English.
  const language = usePageLanguage();
  return (
    <html lang={language?.lang ?? "en"} data-theme={rootData?.theme ?? DEFAULT_THEME} suppressHydrationWarning>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
        {/* biome-ignore lint/security/noDangerouslySetInnerHtml: a constant of ours (no user data) that must run before paint. */}
        <script nonce={nonce} dangerouslySetInnerHTML={{ __html: themeBootScript }} />
        <Meta />
        <Links nonce={nonce} />
      </head>
      <body className="flex min-h-dvh flex-col font-sans antialiased">
        <a
          href="#main"
          className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:rounded focus:bg-surface focus:p-2"
        >
          {language?.skip ?? "Skip to content"}
        </a>
        {!debtorPage && <SiteHeader user={rootData?.user ?? null} withoutScripts={!hydrate} />}
        <main id="main" className="flex-1">
          {rootData?.noPlan && !debtorPage && (
            <p
              role="status"
              data-testid="no-plan-banner"
              className="border-b border-border bg-surface-2 px-4 py-2 text-center text-sm"
            >
              Your trial has ended, so reminders are on hold. Choose a plan to resume them.{" "}
              <Link to="/pricing" className="font-semibold underline underline-offset-2">
                Choose a plan
              </Link>
            </p>
          )}
          {children}
        </main>
        {!debtorPage && <SiteFooter />}
        {hydrate && (
          <>
            <AppToaster />
            <ScrollRestoration nonce={nonce} />
            <Scripts nonce={nonce} />
          </>
        )}
      </body>
    </html>
  );
}

export default function App({ loaderData }: Route.ComponentProps) {
  const { toast } = loaderData;
  // The server renders a flashed message in the page (seen before hydration, without JavaScript
  // and on a page sent without scripts, where it stays); once hydrated it becomes a toast.
  const [hydrated, setHydrated] = useState(false);
  useEffect(markHydrated, []);
  useEffect(() => {
    setHydrated(true);
    if (toast) notify(toast.kind, toast.message);
  }, [toast]);
  return (
    <>
      {toast && !hydrated && (
        <p
          role="status"
          className={`mx-auto mt-4 w-fit rounded-md border px-4 py-2 text-sm ${toast.kind === "success" ? "border-success text-success" : "border-danger text-danger"}`}
        >
          {toast.message}
        </p>
      )}
      <Outlet />
    </>
  );
}

/**
 * A failure of the root loader (the session, the header's user) or of a page without a boundary of
 * its own: the same boundary every page route renders (app/components/route-error.tsx), here
 * inside the Layout's shell too. Importing it here also puts it in the shell chunk every page loads.
 */
export function ErrorBoundary() {
  return <RouteError message="We couldn't load this page." />;
}

export const meta: Route.MetaFunction = () => [{ title: "Dunly" }];
