import { Link } from "react-router";
import { sessionUser } from "~/auth/context.server";
import { RouteError } from "~/components/route-error";
import { buttonVariants } from "~/components/ui/variants";
import { pageMeta } from "~/ui/site";
import type { Route } from "./+types/welcome";

export async function loader({ context }: Route.LoaderArgs) {
  return { signedIn: Boolean(await sessionUser(context)) };
}

/** The first screen after sign-in: the spec's words, then the three steps to a first reminder. */
const NEXT_STEPS = [
  { to: "/debtors-list", title: "Add a debtor", text: "Who owes you, how much, and their e-mail address." },
  { to: "/iam/orgs", title: "Add an organization", text: "Optional: send reminders on behalf of your company." },
  { to: "/schedule", title: "Schedule a reminder", text: "Once, daily or weekly, in the tone you choose." },
] as const;

export default function Welcome({ loaderData }: Route.ComponentProps) {
  return (
    <section className="mx-auto flex max-w-2xl flex-col items-center gap-6 px-4 py-20 text-center">
      <h1 className="text-5xl font-black">Welcome</h1>
      <p className="text-lg text-muted">
        Dunly is still in development. Some features are not finished yet, and we are working on them every day.
      </p>
      {loaderData.signedIn && (
        <nav aria-labelledby="next-steps" className="w-full text-left">
          <h2 id="next-steps" className="mb-3 text-center text-xl font-bold">
            Next steps
          </h2>
          <ol className="grid gap-3 sm:grid-cols-3">
            {NEXT_STEPS.map((step, i) => (
              <li key={step.to}>
                <Link
                  to={step.to}
                  className="flex h-full flex-col gap-1 rounded-xl border border-border bg-surface p-4 hover:border-primary"
                >
                  <span className="text-sm text-muted">{`Step ${i + 1}`}</span>
                  <span className="font-semibold text-primary">{step.title}</span>
                  <span className="text-sm text-muted">{step.text}</span>
                </Link>
              </li>
            ))}
          </ol>
        </nav>
      )}
      <Link to={loaderData.signedIn ? "/dashboard" : "/"} className={buttonVariants({ size: "lg" })}>
        {loaderData.signedIn ? "Go to your dashboard" : "Sign in"}
      </Link>
    </section>
  );
}

export function ErrorBoundary() {
  return <RouteError message="We couldn't load the welcome page." />;
}

export const meta: Route.MetaFunction = () => pageMeta("Welcome");
