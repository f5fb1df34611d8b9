import { getFormProps, getInputProps } from "@conform-to/react";
import { Link, useFetcher } from "react-router";
import type { requestMagicLink } from "~/auth/sign-in-action.server";
import { Button, SubmitButton } from "~/components/ui/button";
import { FieldError, Input } from "~/components/ui/input";
import { useAutoHide } from "~/lib/use-auto-hide";
import { useFormResult } from "~/lib/use-form-result";
import { useValibotForm } from "~/lib/use-valibot-form";
import { SignInSchema } from "~/schemas/auth";

const GOOGLE_UNAVAILABLE =
  "Google sign-in is not available on this server yet. Please use the magic link or a password.";

function GoogleIcon() {
  return (
    <svg aria-hidden viewBox="0 0 24 24" className="h-4 w-4">
      <path
        fill="#EA4335"
        d="M12 10.2v3.9h5.5c-.2 1.3-1.6 3.9-5.5 3.9-3.3 0-6-2.7-6-6.1s2.7-6.1 6-6.1c1.9 0 3.1.8 3.8 1.5l2.6-2.5C16.8 3.3 14.6 2.4 12 2.4 6.7 2.4 2.4 6.7 2.4 12s4.3 9.6 9.6 9.6c5.5 0 9.2-3.9 9.2-9.4 0-.6-.1-1.1-.2-1.6H12z"
      />
    </svg>
  );
}

/**
 * Magic link, Google and password sign-in (docs/product-spec.md §2 "Landing / sign-in"). Posts to the route it is
 * rendered in; `redirectTo` brings the user back where they were going.
 */
export function SignInForm({
  googleEnabled,
  redirectTo,
  initialError,
}: {
  googleEnabled: boolean;
  redirectTo?: string | null;
  initialError?: string | null;
}) {
  const fetcher = useFetcher<typeof requestMagicLink>();
  const busy = fetcher.state !== "idle";
  const alertOf = (data: { ok: boolean; message: string | null } | undefined) =>
    data?.message ? { kind: data.ok ? ("success" as const) : ("error" as const), text: data.message } : null;
  const reply = useFormResult(fetcher, ["sign-in"], (data) => {
    const next = alertOf(data);
    if (next) setAlert(next);
  });
  // Also on the server: a document post (before hydration) shows its message in the page itself.
  const [alert, setAlert] = useAutoHide<{ kind: "success" | "error"; text: string }>(
    () => alertOf(reply) ?? (initialError ? { kind: "error", text: initialError } : null),
  );
  const [form, fields] = useValibotForm(SignInSchema, {
    lastResult: busy ? undefined : reply?.result,
    shouldValidate: "onSubmit",
  });

  const passwordHref = redirectTo
    ? `/sign-in/password?redirectTo=${encodeURIComponent(redirectTo)}`
    : "/sign-in/password";

  return (
    <div id="sign-in" className="w-full max-w-sm rounded-xl border border-border bg-surface p-6 shadow-lg">
      <fetcher.Form
        method="post"
        {...getFormProps(form)}
        onSubmit={(event) => {
          // While one request is in flight further submissions are ignored (docs/product-spec.md §4).
          if (busy) {
            event.preventDefault();
            return;
          }
          form.onSubmit(event);
        }}
        className="flex flex-col gap-3"
      >
        {redirectTo && <input type="hidden" name="redirectTo" value={redirectTo} />}
        <label htmlFor={fields.email.id} className="sr-only">
          Email
        </label>
        <Input
          {...getInputProps(fields.email, { type: "email" })}
          key={fields.email.key}
          placeholder="Your Email"
          autoComplete="email"
          aria-describedby={fields.email.errors ? fields.email.errorId : undefined}
        />
        <FieldError id={fields.email.errorId} errors={fields.email.errors} />
        {/* Only aria-disabled while busy: the button stays focusable and onSubmit drops the repeat. */}
        <SubmitButton busy={busy} disabled={false} aria-disabled={busy} className={busy ? "opacity-70" : undefined}>
          Get magic link
        </SubmitButton>
      </fetcher.Form>
      <div role="status" aria-live="polite">
        {alert && (
          <p
            className={`mt-3 rounded-md border px-3 py-2 text-sm ${
              alert.kind === "success" ? "border-success text-success" : "border-danger text-danger"
            }`}
          >
            {alert.text}
          </p>
        )}
      </div>
      <div className="my-4 flex items-center gap-3 text-xs text-muted" aria-hidden>
        <span className="h-px flex-1 bg-border" />
        Or
        <span className="h-px flex-1 bg-border" />
      </div>
      <form method="get" action="/auth/google">
        {redirectTo && <input type="hidden" name="redirectTo" value={redirectTo} />}
        <Button
          type="submit"
          variant="outline"
          className="w-full"
          disabled={busy}
          onClick={(event) => {
            if (!googleEnabled) {
              event.preventDefault();
              setAlert({ kind: "error", text: GOOGLE_UNAVAILABLE });
            }
          }}
        >
          <GoogleIcon />
          Continue with Google
        </Button>
      </form>
      <p className="mt-3 text-center text-sm">
        <Link to={passwordHref} className="text-primary underline-offset-4 hover:underline">
          Sign in with a password
        </Link>
      </p>
      <p className="mt-3 text-center text-xs text-muted">If you already have an account we will log you in</p>
    </div>
  );
}
