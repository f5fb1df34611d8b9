import { parseWithValibot } from "@conform-to/valibot";
import { data, Form, Link, redirect, useNavigation } from "react-router";
import { getApp, sessionUser } from "~/auth/context.server";
import { updateProfileName } from "~/auth/index.server";
import { RouteError } from "~/components/route-error";
import { SubmitButton } from "~/components/ui/button";
import { FieldError, Label } from "~/components/ui/input";
import { buttonVariants, inputClass } from "~/components/ui/variants";
import { getDb } from "~/db/client.server";
import { readForm } from "~/platform/action-result.server";
import { BUSINESS_NAME_MAX, ProfileNameSchema } from "~/schemas/profile";
import { pageMeta } from "~/ui/site";
import type { Route } from "./+types/welcome";

/**
 * The first screen after sign-in: a welcome that asks the new user's name and business (the name
 * their reminders and their debtors' pages go out under), skippable, then the three steps to a
 * first reminder. Signed out, a welcome and the way in.
 */
export async function loader({ context }: Route.LoaderArgs) {
  const user = await sessionUser(context);
  return {
    signedIn: Boolean(user),
    // A new account's name is its address's local part until the user gives one.
    fullName: user && user.fullName !== user.email.split("@")[0] ? user.fullName : "",
    businessName: user?.businessName ?? "",
  };
}

type Answer = { errors: { full_name?: string[]; business_name?: string[] }; values: Record<string, string> };

export async function action({ context, request, url }: Route.ActionArgs) {
  const user = await sessionUser(context);
  if (!user) throw redirect(`/404?redirectTo=${encodeURIComponent(url.pathname)}`);
  const form = await readForm(request);
  if ("refused" in form) return data<Answer>({ errors: {}, values: {} }, { status: 400 });
  const submission = parseWithValibot(form.formData, { schema: ProfileNameSchema });
  if (submission.status !== "success") {
    const values = Object.fromEntries(
      ["full_name", "business_name"].map((k) => [k, String(form.formData.get(k) ?? "")]),
    );
    return data<Answer>({ errors: submission.error ?? {}, values }, { status: 400 });
  }
  await updateProfileName(
    getDb(getApp(context).env.DB),
    user.id,
    submission.value.full_name,
    submission.value.business_name || null,
  );
  throw redirect("/dashboard");
}

const NEXT_STEPS = [
  { to: "/debtors-list", title: "Add a debtor", text: "Who owes you, how much, and their e-mail address." },
  { to: "/iam/cadence", title: "Check your cadence", text: "When reminders go out, in which tone." },
  { to: "/schedule", title: "Schedule a reminder", text: "Once, daily, weekly or by the due date." },
] as const;

export default function Welcome({ loaderData, actionData }: Route.ComponentProps) {
  const busy = useNavigation().state !== "idle";
  const errors = actionData?.errors ?? {};
  const values = actionData?.values;
  if (!loaderData.signedIn) {
    return (
      <section className="mx-auto flex max-w-2xl flex-col items-center gap-6 px-4 py-20 text-center">
        <h1 className="text-5xl font-black">Welcome</h1>
        <p className="text-lg text-muted">
          Dunly chases the money you are owed, politely and on time, so you do not have to.
        </p>
        <Link to="/404?redirectTo=%2Fwelcome" className={buttonVariants({ size: "lg" })}>
          Sign in
        </Link>
      </section>
    );
  }
  return (
    <section className="mx-auto flex max-w-2xl flex-col gap-8 px-4 py-16">
      <header className="flex flex-col gap-2 text-center">
        <h1 className="text-5xl font-black">Welcome</h1>
        <p className="text-lg text-muted">
          Your reminders go out in your name. Tell your debtors who you are; you can change it later in Settings.
        </p>
      </header>
      <Form method="post" className="mx-auto flex w-full max-w-md flex-col gap-4" aria-labelledby="about-you">
        <h2 id="about-you" className="text-xl font-bold">
          About you
        </h2>
        <div>
          <Label htmlFor="welcome-name">Your name</Label>
          <input
            id="welcome-name"
            name="full_name"
            type="text"
            required
            maxLength={200}
            autoComplete="name"
            defaultValue={values?.full_name ?? loaderData.fullName}
            aria-invalid={errors.full_name ? true : undefined}
            aria-describedby={errors.full_name ? "welcome-name-error" : undefined}
            className={`${inputClass} mt-1`}
          />
          <FieldError id="welcome-name-error" errors={errors.full_name} />
        </div>
        <div>
          <Label htmlFor="welcome-business">Business name (optional)</Label>
          <input
            id="welcome-business"
            name="business_name"
            type="text"
            maxLength={BUSINESS_NAME_MAX}
            autoComplete="organization"
            defaultValue={values?.business_name ?? loaderData.businessName}
            aria-invalid={errors.business_name ? true : undefined}
            aria-describedby={`welcome-business-hint${errors.business_name ? " welcome-business-error" : ""}`}
            className={`${inputClass} mt-1`}
          />
          <p id="welcome-business-hint" className="mt-1 text-xs text-muted">
            Reminders and your debtors' page show it as the sender.
          </p>
          <FieldError id="welcome-business-error" errors={errors.business_name} />
        </div>
        <div className="flex flex-wrap items-center gap-3">
          <SubmitButton busy={busy}>Save and continue</SubmitButton>
          <Link to="/dashboard" className="text-sm text-primary underline-offset-4 hover:underline">
            Skip for now
          </Link>
        </div>
      </Form>
      <nav aria-labelledby="next-steps" className="w-full">
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
    </section>
  );
}

export function ErrorBoundary() {
  return <RouteError message="We couldn't load the welcome page." />;
}

export const meta: Route.MetaFunction = () => pageMeta("Welcome");
