import { Link } from "react-router";
import { buttonVariants } from "~/components/ui/variants";
import { getApp } from "~/lib/context.server";
import type { Route } from "./+types/welcome";

export async function loader({ context }: Route.LoaderArgs) {
  return { signedIn: Boolean(getApp(context).user) };
}

export default function Welcome({ loaderData }: Route.ComponentProps) {
  return (
    <section className="mx-auto flex max-w-2xl flex-col items-center gap-6 px-4 py-20 text-center">
      <h1 className="text-5xl font-black">Welcome</h1>
      <p className="text-lg text-muted">
        Dunly is still in development. Some features are not finished yet, and we are working on them every day.
      </p>
      <Link to={loaderData.signedIn ? "/dashboard" : "/"} className={buttonVariants({ size: "lg" })}>
        {loaderData.signedIn ? "Go to your dashboard" : "Sign in"}
      </Link>
    </section>
  );
}

export const meta: Route.MetaFunction = () => [{ title: "Welcome · Dunly" }];
