import type { ReactNode } from "react";
import { Link } from "react-router";
import { Pager } from "~/components/ui/pager";

/** A public list page as a visitor sees it: the heading, the empty message and a sign-in link back to `path`. */
export function SignedOutList({
  heading,
  empty,
  path,
  what,
}: {
  heading: string;
  empty: string;
  path: string;
  /** What signing in shows, e.g. 'your debtors'. */
  what: string;
}) {
  return (
    <section className="mx-auto max-w-3xl px-4 py-16 text-center">
      <h1 className="text-3xl font-bold">{heading}</h1>
      <p className="mt-4 text-muted">{empty}</p>
      <p className="mt-2">
        <Link to={`/?redirectTo=${encodeURIComponent(path)}#sign-in`} className="text-primary underline">
          Sign in
        </Link>
        {` to see and manage ${what}.`}
      </p>
    </section>
  );
}

/**
 * A signed-in list page: a link back to the dashboard and the number of entries, the search and
 * order form (`search`), the list (`children`), the pager.
 */
export function ListPage({
  backLabel,
  total,
  singular,
  plural,
  countTestId,
  page,
  pages,
  search,
  children,
}: {
  backLabel: string;
  total: number;
  singular: string;
  plural: string;
  countTestId: string;
  page: number;
  pages: number;
  search?: ReactNode;
  children: ReactNode;
}) {
  return (
    <div className="mx-auto flex max-w-6xl flex-col gap-4 px-4 py-8">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <Link to="/dashboard" className="text-sm text-primary underline-offset-4 hover:underline">
          {backLabel}
        </Link>
        <p className="text-muted" data-testid={countTestId}>
          {total} {total === 1 ? singular : plural}
        </p>
      </div>
      {search}
      {children}
      <Pager page={page} pages={pages} />
    </div>
  );
}
