import { data } from "react-router";
import { NotFoundMessage } from "~/components/not-found";
import { RouteError } from "~/components/route-error";
import { pageMeta } from "~/ui/site";
import type { Route } from "./+types/not-found";

export async function loader() {
  return data(null, { status: 404 });
}

// Unknown form posts land here too; answer them with the same 404.
export async function action() {
  return data(null, { status: 404 });
}

export default function NotFound() {
  return <NotFoundMessage />;
}

export function ErrorBoundary() {
  return <RouteError message="We couldn't load this page." />;
}

export const meta: Route.MetaFunction = () => pageMeta("Page not found");
