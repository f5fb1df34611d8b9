import { Link } from "react-router";
import { debtorAction } from "~/actions/debtor-action.server";
import { loadListPage } from "~/actions/list-page.server";
import { getApp } from "~/auth/context.server";
import { DebtorsTable } from "~/components/debtors/debtors-table";
import { ListPage, SignedOutList } from "~/components/lists/list-page";
import { ListSearch } from "~/components/lists/list-search";
import { RouteError } from "~/components/route-error";
import { getDb } from "~/db/client.server";
import { SESSION_OWNER } from "~/db/prepared.server";
import { DEBTOR_PAGE_SIZE, debtorRowOf, debtorsListQueries } from "~/debtors/index.server";
import { DEBTOR_SORTS, DEFAULT_DEBTOR_SORT, debtorListParams } from "~/domain/list-params";
import { pageMeta } from "~/ui/site";
import type { Route } from "./+types/debtors-list";

// A public route: data is only fetched when a user is signed in (docs/product-spec.md §2 route table).
export async function loader({ context, url }: Route.LoaderArgs) {
  const { env, session } = getApp(context);
  const db = getDb(env.DB);
  // Search, order and page from the URL, each clamped to what the list takes.
  const { page: requested, q, sort, dir } = debtorListParams(url.searchParams);
  // The session's user's, read with the session in one batch (docs/decisions/025).
  const queries = debtorsListQueries(db, SESSION_OWNER, { q, sort, dir, limit: DEBTOR_PAGE_SIZE });
  const read = await loadListPage(session, queries, requested, DEBTOR_PAGE_SIZE);
  if (!read)
    return {
      signedIn: false as const,
      accountCurrency: "USD",
      userLocale: null,
      debtors: [],
      total: 0,
      page: 1,
      pages: 1,
      q: "",
      sort: DEFAULT_DEBTOR_SORT,
      dir: DEBTOR_SORTS[DEFAULT_DEBTOR_SORT],
    };
  const { user, rows: debtors, total, page, pages } = read;
  return {
    signedIn: true as const,
    // The Add Debtor form starts in the account's currency.
    accountCurrency: user.defaultCurrency,
    // A debtor without a language is written to in the user's (its name follows their number format).
    userLocale: user.locale,
    debtors: debtors.map(debtorRowOf),
    total,
    page,
    pages,
    q,
    sort,
    dir,
  };
}

export async function action(args: Route.ActionArgs) {
  return debtorAction(args);
}

export default function DebtorsList({ loaderData }: Route.ComponentProps) {
  if (!loaderData.signedIn) {
    return <SignedOutList heading="Debtors" empty="No debtors found" path="/debtors-list" what="your debtors" />;
  }
  const { debtors, total, page, pages, q, sort, dir } = loaderData;
  return (
    <ListPage
      backLabel="Back to Dashboard"
      total={total}
      singular="debtor"
      plural="debtors"
      countTestId="debtor-count"
      page={page}
      pages={pages}
      search={
        <ListSearch
          id="debtors-search"
          label="Search debtors"
          placeholder="Name or e-mail"
          q={q}
          sort={sort}
          dir={dir}
          sorts={DEBTOR_SORT_OPTIONS}
        />
      }
    >
      <nav aria-label="Import and export debtors" className="flex flex-wrap justify-end gap-4 text-sm">
        <Link to="/debtors/import" className="text-primary underline-offset-4 hover:underline">
          Import CSV
        </Link>
        <a href="/debtors.csv" download className="text-primary underline-offset-4 hover:underline">
          Export CSV
        </a>
        {/* One row per invoice, with its debtor's name and e-mail: importable again. */}
        <a href="/invoices.csv" download className="text-primary underline-offset-4 hover:underline">
          Export invoices CSV
        </a>
      </nav>
      <DebtorsTable
        debtors={debtors}
        area="page"
        headingLevel={1}
        accountCurrency={loaderData.accountCurrency}
        userLocale={loaderData.userLocale}
      />
    </ListPage>
  );
}

const DEBTOR_SORT_OPTIONS = [
  { value: "created", label: "Created" },
  { value: "name", label: "Name" },
  { value: "owed", label: "Amount owed" },
] as const;

export function ErrorBoundary() {
  return <RouteError message="We couldn't load your debtors." />;
}

export const meta: Route.MetaFunction = () => pageMeta("Debtors");
