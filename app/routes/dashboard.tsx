import type { Route } from "./+types/dashboard";
import { requireUser } from "~/auth/guard.server";

export async function loader({ context, request }: Route.LoaderArgs) {
  requireUser(context, request);
  return null;
}

export default function Page() {
  return (
    <section className="mx-auto max-w-6xl px-4 py-10">
      <h1 className="text-3xl font-bold">Dashboard</h1>
    </section>
  );
}

export const meta: Route.MetaFunction = () => [{ title: "Dashboard · Dunly" }];
