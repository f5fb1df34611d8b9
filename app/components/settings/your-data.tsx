import { getFormProps } from "@conform-to/react";
import { useFetcher } from "react-router";
import type { profileAction } from "~/actions/profile-action.server";
import { SubmitButton } from "~/components/ui/button";
import { FormError, InputField } from "~/components/ui/field";
import { buttonVariants } from "~/components/ui/variants";
import { PROFILE_INTENTS } from "~/schemas/intents";
import { CONFIRM_EMAIL_MAX, DeleteAccountSchema } from "~/schemas/profile";
import { cn } from "~/ui/class-names";
import { useFormResult } from "~/ui/use-form-result";
import { useValibotForm } from "~/ui/use-valibot-form";

/** Where "Export my data" downloads from (app/routes/account-export.ts). */
export const EXPORT_PATH = "/account-data.json";

/**
 * Settings → Info, "Your data": download everything the account
 * holds as one JSON file, and delete the account, confirmed by typing its e-mail address. The
 * download is a plain link and the deletion a plain form post: both work before hydration.
 */
export function YourData({ email }: { email: string }) {
  const fetcher = useFetcher<typeof profileAction>();
  const busy = fetcher.state !== "idle";
  const reply = useFormResult(fetcher, [PROFILE_INTENTS.deleteAccount]);
  const [form, fields] = useValibotForm(DeleteAccountSchema, {
    id: "delete-account-form",
    lastResult: busy ? undefined : reply?.result,
    defaultValue: { confirm_email: "" },
  });
  return (
    <section aria-labelledby="your-data-title" className="rounded-xl border border-border bg-surface p-6">
      <h2 id="your-data-title" className="text-xl font-semibold">
        Your data
      </h2>
      <h3 className="mt-4 font-semibold">Export my data</h3>
      <p className="mt-1 text-sm text-muted">
        One JSON file with everything your account holds: your settings, debtors, invoices, payments, schedules, the
        reminders sent, timelines, replies and organizations.
      </p>
      <a href={EXPORT_PATH} download className={cn(buttonVariants({ variant: "outline" }), "mt-3 inline-flex")}>
        Export my data
      </a>

      <h3 className="mt-8 font-semibold text-danger">Delete account</h3>
      <p id="delete-account-help" className="mt-1 text-sm text-muted">
        Deletes your account and everything in it, for good: debtors, invoices, payments, schedules and their history.
        Your subscription is cancelled, no more reminders go out and the links in reminders already sent stop working.
        Export your data first if you want to keep it. You are signed out at once; a large account&apos;s data is gone
        within a few minutes. Type <strong className="break-all">{email}</strong> to confirm.
      </p>
      <fetcher.Form method="post" {...getFormProps(form)} className="mt-4 flex max-w-md flex-col gap-4">
        <input type="hidden" name="intent" value={PROFILE_INTENTS.deleteAccount} />
        <InputField
          meta={fields.confirm_email}
          // Text, not email: any address typed reaches the server, which says whether it is the account's.
          type="text"
          inputMode="email"
          autoCapitalize="none"
          maxLength={CONFIRM_EMAIL_MAX}
          label="Your account's e-mail address"
          autoComplete="off"
          spellCheck={false}
          aria-describedby={
            fields.confirm_email.errors ? `${fields.confirm_email.errorId} delete-account-help` : "delete-account-help"
          }
        />
        <FormError form={form} />
        {reply && !reply.ok && reply.message ? (
          <p role="alert" className="text-sm text-danger">
            {reply.message}
          </p>
        ) : null}
        <SubmitButton busy={busy} variant="danger" className="self-start">
          Delete my account
        </SubmitButton>
      </fetcher.Form>
    </section>
  );
}
