import { getFormProps } from "@conform-to/react";
import { useFetcher } from "react-router";
import type { profileAction } from "~/actions/profile-action.server";
import { SubmitButton } from "~/components/ui/button";
import { FormError, InputField } from "~/components/ui/field";
import { PROFILE_INTENTS } from "~/schemas/intents";
import { PAYMENT_URL_MAX, PaymentLinkSchema } from "~/schemas/profile";
import { useFormResult } from "~/ui/use-form-result";
import { useValibotForm } from "~/ui/use-valibot-form";

/**
 * The account's payment link: the https page of the user's card checkout, PayPal or
 * bank that the 'Pay now' button of every reminder opens (an organization may have its own).
 * Saving it empty removes it.
 */
export function PaymentLinkForm({ paymentUrl }: { paymentUrl: string | null }) {
  const fetcher = useFetcher<typeof profileAction>();
  const busy = fetcher.state !== "idle";
  const reply = useFormResult(fetcher, [PROFILE_INTENTS.paymentLink]);
  const [form, fields] = useValibotForm(PaymentLinkSchema, {
    id: "payment-link-form",
    lastResult: busy ? undefined : reply?.result,
    defaultValue: { payment_url: paymentUrl ?? "" },
  });
  return (
    <section aria-labelledby="payment-link-title" className="rounded-xl border border-border bg-surface p-6">
      <h2 id="payment-link-title" className="text-xl font-semibold">
        Payment link
      </h2>
      <p id="payment-link-help" className="mt-1 text-sm text-muted">
        Every reminder gets a 'Pay now' button to this page: your card checkout, PayPal or bank payment page. Leave it
        empty for reminders without the button.
      </p>
      <fetcher.Form method="post" {...getFormProps(form)} className="mt-4 flex max-w-md flex-col gap-4">
        <input type="hidden" name="intent" value={PROFILE_INTENTS.paymentLink} />
        <InputField
          meta={fields.payment_url}
          type="text"
          label="Payment link"
          placeholder="https://"
          inputMode="url"
          autoComplete="url"
          spellCheck={false}
          maxLength={PAYMENT_URL_MAX}
          aria-describedby={
            fields.payment_url.errors ? `${fields.payment_url.errorId} payment-link-help` : "payment-link-help"
          }
        />
        <FormError form={form} />
        <div role="status" aria-live="polite" className="text-sm text-success">
          {!busy && reply?.ok ? reply.message : null}
        </div>
        <SubmitButton busy={busy} className="self-start">
          Save payment link
        </SubmitButton>
      </fetcher.Form>
    </section>
  );
}
