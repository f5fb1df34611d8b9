import { isRouteErrorResponse, Link, useLocation, useRouteError } from "react-router";
import { NOT_FOUND_HEADING } from "~/components/not-found";
import { buttonVariants } from "~/components/ui/variants";

/** What a page shows for one status: its heading, a line on what to do, and its way out. */
export interface StatusView {
  heading: string;
  hint: string;
  /** The button: where it leads and what it says. */
  action: { to: string; label: string; reloadDocument?: boolean };
}

type StatusHandler = (info: { status: number; retry: string }) => StatusView;

/** The words for each status a loader or action throws; anything else (and an exception) is a 500. */
const STATUS_VIEWS: Record<number, StatusHandler> = {
  404: () => ({
    heading: NOT_FOUND_HEADING,
    hint: "It may have been deleted, or the link may be wrong.",
    action: { to: "/dashboard", label: "Go Back" },
  }),
  403: () => ({
    heading: "This isn't open to your account",
    hint: "If you think it should be, check that you're signed in to the right account.",
    action: { to: "/dashboard", label: "Go to your dashboard" },
  }),
};

const SOMETHING_WENT_WRONG: StatusHandler = ({ retry }) => ({
  heading: "Something went wrong",
  hint: "This is on our side, not yours. Please try again in a moment.",
  // A fresh document load: the page and its data start over, with or without JavaScript.
  action: { to: retry, label: "Try again", reloadDocument: true },
});

/**
 * Every page route's error boundary (epic-stack's GeneralErrorBoundary, with Dunly's words): it
 * renders in the route's place, so the root Layout's header, navigation and footer stay, and says
 * what failed (`message`, the page's own sentence: "We couldn't load your dashboard."), the status
 * (404 in the not-found page's words, 403, anything else "Something went wrong" with a link that
 * retries the same address) and, in development only, the exception and its stack (as the root's
 * boundary does: `import.meta.env.DEV` is false in every build). Plain HTML: its links work
 * without JavaScript. A page may word a status its own way with `statusHandlers`.
 */
export function RouteError({
  message,
  statusHandlers,
}: {
  message: string;
  statusHandlers?: Record<number, StatusHandler>;
}) {
  const error = useRouteError();
  const location = useLocation();
  const retry = `${location.pathname}${location.search}`;
  const status = isRouteErrorResponse(error) ? error.status : 500;
  const handler = statusHandlers?.[status] ?? STATUS_VIEWS[status] ?? SOMETHING_WENT_WRONG;
  const view = handler({ status, retry });
  const stack = import.meta.env.DEV && error instanceof Error ? (error.stack ?? error.message) : null;
  return (
    <section
      data-testid="route-error"
      className="mx-auto flex max-w-xl flex-col items-center gap-6 px-4 py-12 text-center sm:py-16"
    >
      {/* Announced when it replaces a page on a client navigation; the heading names it for everyone. */}
      <div role="alert" className="flex flex-col items-center gap-3">
        <p className="text-6xl font-black text-primary sm:text-7xl">
          <span className="sr-only">Error </span>
          {status}
        </p>
        <h1 className="text-balance text-2xl font-bold sm:text-3xl">{view.heading}</h1>
        <p data-testid="route-error-message" className="text-balance text-lg font-medium">
          {message}
        </p>
        <p className="text-balance text-muted">{view.hint}</p>
      </div>
      <Link to={view.action.to} reloadDocument={view.action.reloadDocument} className={buttonVariants({ size: "lg" })}>
        {view.action.label}
      </Link>
      {stack && (
        <pre className="max-w-full overflow-x-auto rounded-md border border-border bg-surface p-4 text-left text-xs">
          <code>{stack}</code>
        </pre>
      )}
    </section>
  );
}
