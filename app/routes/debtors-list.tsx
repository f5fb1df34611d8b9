import { Link } from "react-router";
import { DebtorsTable } from "~/components/debtors/debtors-table";
import { Pager } from "~/components/ui/pager";
import { getDb } from "~/db/client.server";
import { pageCount, pageOffset, parsePage } from "~/domain/list-params";
import { getApp } from "~/lib/context.server";
import { countDebtors, DEBTOR_PAGE_SIZE, listDebtors } from "~/models/debtor.server";
import type { Route } from "./+types/debtors-list";
import { debtorAction } from "./debtor-action.server";

// A public route: data is only fetched when a user is signed in (docs/product-spec.md §2 route table).
export async function loader({ context, request }: Route.LoaderArgs) {
  const { user, env } = getApp(context);
  if (!user)
    return {
      signedIn: false as const,
      debtors: [],
      total: 0,
      page: 1,
      pages: 1,
    };
  const db = getDb(env.DB);
  const requested = parsePage(new URL(request.url).searchParams.get("page"));
  const pageOf = (n: number) =>
    listDebtors(db, user.id, { limit: DEBTOR_PAGE_SIZE, offset: pageOffset(n, DEBTOR_PAGE_SIZE) });
  const [requestedRows, total] = await Promise.all([pageOf(requested), countDebtors(db, user.id)]);
  const pages = pageCount(total, DEBTOR_PAGE_SIZE);
  // A page past the end shows the last one (only a hand-edited or stale URL asks for it).
  const page = Math.min(requested, pages);
  const debtors = page === requested ? requestedRows : await pageOf(page);
  return {
    signedIn: true as const,
    debtors,
    total,
    page,
    pages,
  };
}

export async function action(args: Route.ActionArgs) {
  return debtorAction(args);
}

export default function DebtorsList({ loaderData }: Route.ComponentProps) {
  if (!loaderData.signedIn) {
    return (
      <section className="mx-auto max-w-3xl px-4 py-16 text-center">
        <h1 className="text-3xl font-bold">Debtors</h1>
        <p className="mt-4 text-muted">No debtors found</p>
        <p className="mt-2">
          <Link to="/?redirectTo=%2Fdebtors-list#sign-in" className="text-primary underline">
            Sign in
          </Link>{" "}
          to see and manage your debtors.
        </p>
      </section>
    );
  }
  const { debtors, total, page, pages } = loaderData;
  return (
    <div className="mx-auto flex max-w-6xl flex-col gap-4 px-4 py-8">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <Link to="/dashboard" className="text-sm text-primary underline-offset-4 hover:underline">
          Back to dashboard
        </Link>
        <p className="text-muted" data-testid="debtor-count">
          {total} {total === 1 ? "debtor" : "debtors"}
        </p>
      </div>
      <DebtorsTable debtors={debtors} area="page" headingLevel={1} />
      <Pager page={page} pages={pages} />
    </div>
  );
}

export const meta: Route.MetaFunction = () => [{ title: "Debtors · Dunly" }];
