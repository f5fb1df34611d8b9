import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { parseWithValibot } from "@conform-to/valibot";
import { Loader2 } from "lucide-react";
import { useFetcher } from "react-router";
import { Button } from "~/components/ui/button";
import { FieldError, Input, Label } from "~/components/ui/input";
import { useFormResult } from "~/lib/use-form-result";
import type { profileAction } from "~/routes/profile-action.server";
import { SetPasswordSchema } from "~/schemas/auth";

/** Set a first password, or change it (then the current one is asked for). */
export function PasswordForm({ hasPassword }: { hasPassword: boolean }) {
  const fetcher = useFetcher<typeof profileAction>();
  const busy = fetcher.state !== "idle";
  const reply = useFormResult(fetcher, ["set-password"]);
  const [form, fields] = useForm({
    id: "password-form",
    lastResult: busy ? undefined : reply?.result,
    onValidate: ({ formData }) => parseWithValibot(formData, { schema: SetPasswordSchema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
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
        <input type="hidden" name="intent" value="set-password" />
        {hasPassword && (
          <div>
            <Label htmlFor={fields.currentPassword.id}>Current password</Label>
            <Input
              {...getInputProps(fields.currentPassword, { type: "password" })}
              key={fields.currentPassword.key}
              autoComplete="current-password"
              className="mt-1"
            />
            <FieldError id={fields.currentPassword.errorId} errors={fields.currentPassword.errors} />
          </div>
        )}
        <div>
          <Label htmlFor={fields.newPassword.id}>New password</Label>
          <Input
            {...getInputProps(fields.newPassword, { type: "password" })}
            key={fields.newPassword.key}
            autoComplete="new-password"
            className="mt-1"
          />
          <FieldError id={fields.newPassword.errorId} errors={fields.newPassword.errors} />
        </div>
        <div>
          <Label htmlFor={fields.confirmPassword.id}>Repeat new password</Label>
          <Input
            {...getInputProps(fields.confirmPassword, { type: "password" })}
            key={fields.confirmPassword.key}
            autoComplete="new-password"
            className="mt-1"
          />
          <FieldError id={fields.confirmPassword.errorId} errors={fields.confirmPassword.errors} />
        </div>
        <div role="status" aria-live="polite" className="text-sm text-success">
          {!busy && reply?.ok ? reply.message : null}
        </div>
        <Button type="submit" disabled={busy} className="self-start">
          {busy && <Loader2 className="h-4 w-4 animate-spin" aria-hidden />}
          Save password
        </Button>
      </fetcher.Form>
    </section>
  );
}
