import type { SubmissionResult } from "@conform-to/react";
import { Loader2 } from "lucide-react";
import { useId, useRef, useState } from "react";
import { Link, useFetcher } from "react-router";
import type { requestMagicLink } from "~/auth/sign-in-action.server";
import { notOnServer } from "~/components/on-demand";
import { buttonVariants, inputClass } from "~/components/ui/variants";
import { useAutoHide } from "~/ui/use-auto-hide";
import { useFormResult } from "~/ui/use-form-result";

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

// The browser's check (valibot and the schema) is fetched on the form's first focus, not with the page.
let validate: typeof import("./sign-in-validation").emailErrors | undefined;
let loading: Promise<NonNullable<typeof validate>> | undefined;
const loadValidation = () => {
  loading ??= (import.meta.env.SSR ? notOnServer() : import("./sign-in-validation")).then(
    (m) => (validate = m.emailErrors),
    (error: unknown) => {
      loading = undefined;
      throw error;
    },
  );
  return loading;
};

/** The address's errors in an action's answer (conform's reply). */
const replyErrors = (result: SubmissionResult<string[]> | undefined) => result?.error?.email ?? undefined;

/**
 * Magic link, Google and password sign-in (docs/product-spec.md §2 "Landing / sign-in"). Posts to the route it is
 * rendered in; `redirectTo` brings the user back where they were going.
 *
 * The first thing a visitor loads, so it is kept small: one field needs no form library,
 * and the schema check loads on the form's first focus (a submit before it has loaded waits for it). It behaves as
 * the conform forms do: checked with the action's schema on submit (an invalid submit focuses the field), then on
 * every input; the action's field errors and what was typed after a document post; cleared after a link was sent.
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
  const id = useId();
  const emailId = `${id}-email`;
  const errorId = `${id}-email-error`;
  const alertOf = (data: { ok: boolean; message: string | null } | undefined) =>
    data?.message ? { kind: data.ok ? ("success" as const) : ("error" as const), text: data.message } : null;
  // "" is a post the server could not read (readForm's refusal): on the landing page, which has no
  // scripts (docs/decisions/026), its message must be in the page's HTML.
  const reply = useFormResult(fetcher, ["sign-in", ""], (data) => {
    const next = alertOf(data);
    if (next) setAlert(next);
    setErrors(replyErrors(data.result));
    setValidated(false);
    // A link sent by the fetcher clears the field (the action's `resetForm`): a new, empty input.
    if (data.ok && data === fetcher.data) setGeneration((n) => n + 1);
  });
  // Also on the server: a document post (before hydration) shows its message in the page itself.
  const [alert, setAlert] = useAutoHide<{ kind: "success" | "error"; text: string }>(
    () => alertOf(reply) ?? (initialError ? { kind: "error", text: initialError } : null),
  );
  const [errors, setErrors] = useState(() => replyErrors(reply?.result));
  // After a submit the browser found invalid, every input checks the address again.
  const [validated, setValidated] = useState(false);
  const [generation, setGeneration] = useState(0);
  const typed = generation === 0 && !reply?.ok ? reply?.result?.initialValue?.email : undefined;
  const invalid = Boolean(errors?.length);
  const checking = useRef(false);
  /** Shows the browser's verdict on the form; false when it must not be sent. */
  const accepts = (form: HTMLFormElement, check: NonNullable<typeof validate>) => {
    const found = check(form);
    setErrors(found);
    if (!found) return true;
    setValidated(true);
    const field = form.elements.namedItem("email");
    if (field instanceof HTMLElement) field.focus();
    return false;
  };

  const passwordHref = redirectTo
    ? `/sign-in/password?redirectTo=${encodeURIComponent(redirectTo)}`
    : "/sign-in/password";

  return (
    <div id="sign-in" className="w-full max-w-sm rounded-xl border border-border bg-surface p-6 shadow-lg">
      <fetcher.Form
        method="post"
        id={id}
        noValidate
        onFocus={() => void loadValidation().catch(() => {})}
        onSubmit={(event) => {
          // While one request is in flight further submissions are ignored (docs/product-spec.md §4).
          if (busy || checking.current) {
            event.preventDefault();
            return;
          }
          const form = event.currentTarget;
          if (validate) {
            if (!accepts(form, validate)) event.preventDefault();
            return;
          }
          // Submitted before the check has loaded: wait for it, then submit (the server checks too if it cannot load).
          event.preventDefault();
          checking.current = true;
          loadValidation()
            .then(
              (check) => accepts(form, check),
              () => true,
            )
            .then((ok) => {
              checking.current = false;
              if (ok) fetcher.submit(form);
            });
        }}
        onInput={(event) => {
          if (validated && validate) setErrors(validate(event.currentTarget));
        }}
        className="flex flex-col gap-3"
      >
        {redirectTo && <input type="hidden" name="redirectTo" value={redirectTo} />}
        <label htmlFor={emailId} className="sr-only">
          Email
        </label>
        <input
          key={generation}
          id={emailId}
          name="email"
          type="email"
          defaultValue={typeof typed === "string" ? typed : undefined}
          className={inputClass}
          placeholder="Your Email"
          autoComplete="email"
          aria-invalid={invalid || undefined}
          aria-describedby={invalid ? errorId : undefined}
        />
        {invalid && (
          <p id={errorId} className="mt-1 text-sm text-danger" role="alert">
            {errors?.[0]}
          </p>
        )}
        {/* Only aria-disabled while busy: the button stays focusable and onSubmit drops the repeat. */}
        <button
          type="submit"
          aria-disabled={busy}
          className={buttonVariants({ className: busy ? "opacity-70" : undefined })}
        >
          {busy && <Loader2 className="h-4 w-4 animate-spin" aria-hidden />}
          Get magic link
        </button>
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
        <button
          type="submit"
          className={buttonVariants({ variant: "outline", className: "w-full" })}
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
        </button>
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
