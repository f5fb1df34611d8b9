import { getFormProps } from "@conform-to/react";
import { useFetcher } from "react-router";
import type { profileAction } from "~/actions/profile-action.server";
import { SubmitButton } from "~/components/ui/button";
import { InputField } from "~/components/ui/field";
import { SetPasswordSchema } from "~/schemas/auth";
import { PROFILE_INTENTS } from "~/schemas/intents";
import { useFormResult } from "~/ui/use-form-result";
import { useValibotForm } from "~/ui/use-valibot-form";

/** Set a first password, or change it (then the current one is asked for). */
export function PasswordForm({ hasPassword }: { hasPassword: boolean }) {
  const fetcher = useFetcher<typeof profileAction>();
  const busy = fetcher.state !== "idle";
  const reply = useFormResult(fetcher, [PROFILE_INTENTS.password]);
  const [form, fields] = useValibotForm(SetPasswordSchema, {
    id: "password-form",
    lastResult: busy ? undefined : reply?.result,
  });
  return (
    <section aria-labelledby="password-title" className="rounded-xl border border-border bg-surface p-6">
      <h2 id="password-title" className="text-xl font-semibold">
        Password
      </h2>
      <p className="mt-1 text-sm text-muted">
        {hasPassword
          ? "Change the password you sign in with."
          : "Set a password to sign in with your e-mail and password, besides the magic link."}
      </p>
      <fetcher.Form method="post" {...getFormProps(form)} className="mt-4 flex max-w-sm flex-col gap-4">
        <input type="hidden" name="intent" value={PROFILE_INTENTS.password} />
        {hasPassword && (
          <InputField
            meta={fields.currentPassword}
            type="password"
            label="Current password"
            autoComplete="current-password"
          />
        )}
        <InputField meta={fields.newPassword} type="password" label="New password" autoComplete="new-password" />
        <InputField
          meta={fields.confirmPassword}
          type="password"
          label="Repeat new password"
          autoComplete="new-password"
        />
        <div role="status" aria-live="polite" className="text-sm text-success">
          {!busy && reply?.ok ? reply.message : null}
        </div>
        <SubmitButton busy={busy} className="self-start">
          Save password
        </SubmitButton>
      </fetcher.Form>
    </section>
  );
}
