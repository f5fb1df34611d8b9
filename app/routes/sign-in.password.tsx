import { getFormProps } from "@conform-to/react";
import { parseWithValibot } from "@conform-to/valibot";
import { Form, Link, redirect, useNavigation } from "react-router";
import { getApp } from "~/auth/context.server";
import { redirectSignedIn } from "~/auth/guard.server";
import { authenticateWithPassword, clientKey, startSession } from "~/auth/index.server";
import { RouteError } from "~/components/route-error";
import { SubmitButton } from "~/components/ui/button";
import { FormError, InputField } from "~/components/ui/field";
import { getDb } from "~/db/client.server";
import { readForm, reply } from "~/platform/action-result.server";
import { allowPasswordGuess, TOO_MANY_PASSWORD_GUESSES } from "~/platform/rate-limit.server";
import { safeRedirect } from "~/platform/redirect";
import { PasswordSignInSchema } from "~/schemas/auth";
import { pageMeta } from "~/ui/site";
import { useValibotForm } from "~/ui/use-valibot-form";
import type { Route } from "./+types/sign-in.password";

const WRONG = "Wrong e-mail or password.";

export async function loader({ context, request }: Route.LoaderArgs) {
  await redirectSignedIn(context);
  return { redirectTo: safeRedirect(new URL(request.url).searchParams.get("redirectTo")) };
}

export async function action({ request, context }: Route.ActionArgs) {
  const { env } = getApp(context);
  const form = await readForm(request);
  if ("refused" in form) return form.refused;
  const submission = parseWithValibot(form.formData, { schema: PasswordSignInSchema });
  if (submission.status !== "success")
    return reply("password-sign-in", { status: 400, result: submission.reply({ hideFields: ["password"] }) });
  const db = getDb(env.DB);
  const email = submission.value.email.toLowerCase();
  // Guessing is slowed down per client, and per address from that client (so guesses from
  // elsewhere never lock the owner out); the message never says which part was wrong.
  const client = clientKey(request);
  if (!(await allowPasswordGuess(db, client, `password-email:${client}:${email}`))) {
    return reply("password-sign-in", {
      status: 429,
      result: submission.reply({
        formErrors: [TOO_MANY_PASSWORD_GUESSES],
        hideFields: ["password"],
      }),
    });
  }
  const userId = await authenticateWithPassword(db, email, submission.value.password);
  if (!userId)
    return reply("password-sign-in", {
      status: 400,
      result: submission.reply({ formErrors: [WRONG], hideFields: ["password"] }),
    });
  return redirect(safeRedirect(submission.value.redirectTo) ?? "/welcome", {
    headers: { "Set-Cookie": await startSession(db, userId, request) },
  });
}

export default function PasswordSignIn({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const [form, fields] = useValibotForm(PasswordSignInSchema, {
    lastResult: actionData?.result,
    shouldValidate: "onSubmit",
  });
  return (
    <section className="mx-auto flex max-w-sm flex-col gap-6 px-4 py-16">
      <h1 className="text-3xl font-bold">Sign in with a password</h1>
      <Form
        method="post"
        {...getFormProps(form)}
        className="flex flex-col gap-4 rounded-xl border border-border bg-surface p-6"
      >
        {loaderData.redirectTo && <input type="hidden" name="redirectTo" value={loaderData.redirectTo} />}
        <InputField meta={fields.email} type="email" label="Email" placeholder="Your Email" autoComplete="email" />
        <InputField meta={fields.password} type="password" label="Password" autoComplete="current-password" />
        <FormError form={form} />
        <SubmitButton busy={busy}>Sign in</SubmitButton>
      </Form>
      <p className="text-sm text-muted">
        No password yet? Sign in with a{" "}
        <Link reloadDocument to="/#sign-in" className="text-primary underline">
          magic link
        </Link>{" "}
        and set one in Settings.
      </p>
    </section>
  );
}

export function ErrorBoundary() {
  return <RouteError message="We couldn't load the password sign-in." />;
}

export const meta: Route.MetaFunction = () => pageMeta("Sign in with a password");
