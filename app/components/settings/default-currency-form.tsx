import { getFormProps } from "@conform-to/react";
import { useFetcher } from "react-router";
import type { profileAction } from "~/actions/profile-action.server";
import { CurrencySelect } from "~/components/currency-select";
import { SubmitButton } from "~/components/ui/button";
import { FormField } from "~/components/ui/field";
import { PROFILE_INTENTS } from "~/schemas/intents";
import { DefaultCurrencySchema } from "~/schemas/profile";
import { useLocale } from "~/ui/root-data";
import { useFormResult } from "~/ui/use-form-result";
import { useValibotForm } from "~/ui/use-valibot-form";

/**
 * The account's currency: the debtor form starts with it, and a debtor
 * added through the API or a CSV row without a currency is in it. With it, the user's number
 * format: how every amount field and the CSV import read "1.234,56".
 */

export function DefaultCurrencyForm({
  defaultCurrency,
  formats,
}: {
  defaultCurrency: string;
  formats: { value: string; label: string }[];
}) {
  const fetcher = useFetcher<typeof profileAction>();
  const busy = fetcher.state !== "idle";
  const reply = useFormResult(fetcher, [PROFILE_INTENTS.defaultCurrency]);
  const locale = useLocale();
  const [form, fields] = useValibotForm(DefaultCurrencySchema, {
    id: "default-currency-form",
    lastResult: busy ? undefined : reply?.result,
    defaultValue: { default_currency: defaultCurrency, number_locale: locale },
  });
  return (
    <section aria-labelledby="default-currency-title" className="rounded-xl border border-border bg-surface p-6">
      <h2 id="default-currency-title" className="text-xl font-semibold">
        Currency, numbers and dates
      </h2>
      <p id="default-currency-help" className="mt-1 text-sm text-muted">
        New debtors and their invoices are in this currency unless you choose another one, and so are the rows of a CSV
        import without a currency. Debtors you already have keep theirs. The format is how you type amounts, here and in
        CSV files (one that could be read two ways is refused), and how dates are written on your pages, in your e-mails
        and on your debtors' page.
      </p>
      <fetcher.Form method="post" {...getFormProps(form)} className="mt-4 flex max-w-md flex-col gap-4">
        <input type="hidden" name="intent" value={PROFILE_INTENTS.defaultCurrency} />
        <CurrencySelect
          meta={fields.default_currency}
          label="Default currency"
          current={defaultCurrency}
          ariaDescribedBy="default-currency-help"
        />
        <FormField meta={fields.number_locale} label="Number and date format">
          <select
            name={fields.number_locale.name}
            id={fields.number_locale.id}
            defaultValue={locale}
            key={fields.number_locale.key}
            className="mt-1 h-10 w-full rounded-md border border-border bg-background px-3 text-sm"
          >
            {formats.map((f) => (
              <option key={f.value} value={f.value}>
                {f.label}
              </option>
            ))}
          </select>
        </FormField>
        <div role="status" aria-live="polite" className="text-sm text-success">
          {!busy && reply?.ok ? reply.message : null}
        </div>
        <SubmitButton busy={busy} className="self-start">
          Save currency and format
        </SubmitButton>
      </fetcher.Form>
    </section>
  );
}
