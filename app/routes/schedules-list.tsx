import { Link } from "react-router";
import type { Route } from "./+types/schedules-list";
import { getApp } from "~/lib/context.server";

// A public route: data is only fetched when a user is signed in (spec §2 route table).
export async function loader({ context }: Route.LoaderArgs) {
  return { signedIn: Boolean(getApp(context).user) };
}

export default function Page({ loaderData }: Route.ComponentProps) {
  return (
    <section className="mx-auto max-w-6xl px-4 py-10">
      <h1 className="text-3xl font-bold">Scheduled reminders</h1>
      {!loaderData.signedIn && (
        <p className="mt-4 text-muted">
          <Link to="/#sign-in" className="text-primary underline">
            Sign in
          </Link>{" "}
          to see your data.
        </p>
      )}
    </section>
  );
}

export const meta: Route.MetaFunction = () => [{ title: "Scheduled reminders · Dunly" }];
