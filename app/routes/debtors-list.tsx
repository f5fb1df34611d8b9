import { DebtorsTable } from "~/components/debtors/debtors-table";
import { ListPage, SignedOutList } from "~/components/lists/list-page";
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
    return <SignedOutList heading="Debtors" empty="No debtors found" path="/debtors-list" what="your debtors" />;
  }
  const { debtors, total, page, pages } = loaderData;
  return (
    <ListPage
      backLabel="Back to dashboard"
      total={total}
      singular="debtor"
      plural="debtors"
      countTestId="debtor-count"
      page={page}
      pages={pages}
    >
      <DebtorsTable debtors={debtors} area="page" headingLevel={1} />
    </ListPage>
  );
}

export const meta: Route.MetaFunction = () => [{ title: "Debtors · Dunly" }];
