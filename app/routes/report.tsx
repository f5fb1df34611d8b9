import type { Route } from "./+types/report";
import { requireUser } from "~/auth/guard.server";

export async function loader({ context, request, url }: Route.LoaderArgs) {
  requireUser(context, url);
  return null;
}

export default function Page() {
  return (
    <section className="mx-auto max-w-6xl px-4 py-10">
      <h1 className="text-3xl font-bold">Reminders Report</h1>
    </section>
  );
}

export const meta: Route.MetaFunction = () => [{ title: "Reminders Report · Dunly" }];
