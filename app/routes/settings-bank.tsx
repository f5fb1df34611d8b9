import { getFormProps } from "@conform-to/react";
import { parseWithValibot } from "@conform-to/valibot";
import { Link, useFetcher } from "react-router";
import { getApp } from "~/auth/context.server";
import { requireUser } from "~/auth/guard.server";
import { listBankAccounts, removeBankAccount, saveBankAccount } from "~/bank/index.server";
import { CurrencySelect } from "~/components/currency-select";
import { RouteError } from "~/components/route-error";
import { SettingsTabs } from "~/components/settings/settings-tabs";
import { Button, SubmitButton } from "~/components/ui/button";
import { InputField } from "~/components/ui/field";
import { FormStatus } from "~/components/ui/form-status";
import { getDb } from "~/db/client.server";
import { bankLines } from "~/domain/bank-transfer";
import { CURRENCIES } from "~/domain/currencies";
import { intentOf, readForm, reply } from "~/platform/action-result.server";
import { BankAccountSchema, REFERENCE_MAX } from "~/schemas/bank";
import { SOMETHING_WRONG } from "~/schemas/messages";
import { pageMeta } from "~/ui/site";
import { useFormResult } from "~/ui/use-form-result";
import { useValibotForm } from "~/ui/use-valibot-form";
import type { Route } from "./+types/settings-bank";

const INTENTS = { save: "bank-save", remove: "bank-remove" } as const;

/**
 * Settings → Bank transfer (docs/decisions/051): the user's bank details per currency, shown on every
 * reminder and on the portal of a debtor who owes in that currency. `?currency=EUR` opens that
 * currency's account in the form (the account's default currency otherwise).
 */
export async function loader({ context, url }: Route.LoaderArgs) {
  const user = await requireUser(context, url);
  const accounts = await listBankAccounts(getDb(getApp(context).env.DB), user.id);
  const asked = url.searchParams.get("currency")?.toUpperCase() ?? "";
  const currency = (CURRENCIES as readonly string[]).includes(asked) ? asked : user.defaultCurrency;
  return {
    currency,
    editing: accounts.find((a) => a.currency === currency) ?? null,
    accounts: accounts.map(({ ownerId: _o, ...a }) => ({ ...a, lines: bankLines(a) })),
  };
}

export async function action({ context, request, url }: Route.ActionArgs) {
  const user = await requireUser(context, url);
  const form = await readForm(request);
  if ("refused" in form) return form.refused;
  const { formData } = form;
  const db = getDb(getApp(context).env.DB);
  const intent = intentOf(formData);
  if (intent === INTENTS.save) {
    const submission = parseWithValibot(formData, { schema: BankAccountSchema });
    if (submission.status !== "success") return reply(intent, { status: 400, result: submission.reply() });
    await saveBankAccount(db, user.id, submission.value);
    return reply(intent, {
      message: `Bank details for ${submission.value.currency} saved: every reminder and statement page in ${submission.value.currency} shows them.`,
      result: submission.reply(),
    });
  }
  if (intent === INTENTS.remove) {
    const currency = String(formData.get("currency") ?? "");
    const removed = await removeBankAccount(db, user.id, currency);
    if (!removed) return reply(intent, { status: 404, message: "There are no bank details for this currency." });
    return reply(intent, { message: `Bank details for ${currency} removed.` });
  }
  return reply(intent, { status: 400, message: SOMETHING_WRONG });
}

/** "Remove EUR": its own fetcher, so its answer is told beside it. */
function RemoveAccount({ currency }: { currency: string }) {
  const fetcher = useFetcher<typeof action>();
  const busy = fetcher.state !== "idle";
  const result = useFormResult(fetcher, [INTENTS.remove]);
  return (
    <fetcher.Form method="post" className="flex items-center gap-2">
      <input type="hidden" name="intent" value={INTENTS.remove} />
      <input type="hidden" name="currency" value={currency} />
      <Button type="submit" variant="outline" size="sm" disabled={busy}>
        {`Remove ${currency}`}
      </Button>
      {!busy && result && !result.ok && (
        <span role="status" className="text-sm text-danger">
          {result.message}
        </span>
      )}
    </fetcher.Form>
  );
}

export default function SettingsBank({ loaderData }: Route.ComponentProps) {
  const { currency, editing, accounts } = loaderData;
  const fetcher = useFetcher<typeof action>();
  const busy = fetcher.state !== "idle";
  const result = useFormResult(fetcher, [INTENTS.save]);
  const [form, fields] = useValibotForm(BankAccountSchema, {
    id: `bank-${currency}`,
    lastResult: busy ? undefined : result?.result,
    defaultValue: {
      currency,
      holder: editing?.holder ?? "",
      iban: editing?.iban ?? "",
      bic: editing?.bic ?? "",
      account_number: editing?.accountNumber ?? "",
      sort_code: editing?.sortCode ?? "",
      routing_number: editing?.routingNumber ?? "",
      reference: editing?.reference ?? "{invoice}",
    },
  });
  return (
    <SettingsTabs current="bank">
      <section aria-labelledby="bank-title" className="rounded-xl border border-border bg-surface p-6">
        <h2 id="bank-title" className="text-xl font-semibold">
          Bank transfer
        </h2>
        <p className="mt-1 text-sm text-muted">
          Most clients pay by bank transfer. The details for a currency show on every reminder and statement page of a
          debtor who owes in it, with the reference to quote, beside the card payment when Stripe is connected.
        </p>
        {accounts.length > 0 ? (
          <ul className="mt-4 flex flex-col gap-3" aria-label="Your bank details">
            {accounts.map((a) => (
              <li key={a.currency} className="rounded-lg border border-border p-4" data-testid="bank-account">
                <div className="flex flex-wrap items-center justify-between gap-2">
                  <h3 className="font-semibold">{a.currency}</h3>
                  <div className="flex gap-2">
                    <Button asChild variant="outline" size="sm">
                      <Link to={`/iam/bank?currency=${a.currency}`}>{`Edit ${a.currency}`}</Link>
                    </Button>
                    <RemoveAccount currency={a.currency} />
                  </div>
                </div>
                <dl className="mt-2 grid grid-cols-1 gap-x-4 gap-y-1 text-sm sm:grid-cols-[10rem_1fr]">
                  {a.lines.map((l) => (
                    <div key={l.label} className="contents">
                      <dt className="text-muted">{l.label}</dt>
                      <dd className="break-words font-mono">{l.shown}</dd>
                    </div>
                  ))}
                  <dt className="text-muted">Reference</dt>
                  <dd className="break-words font-mono">{a.reference}</dd>
                </dl>
              </li>
            ))}
          </ul>
        ) : (
          <p className="mt-4 text-sm" data-testid="no-bank-account">
            No bank details yet: your reminders offer no bank transfer.
          </p>
        )}
      </section>

      <section aria-labelledby="bank-form-title" className="rounded-xl border border-border bg-surface p-6">
        <h2 id="bank-form-title" className="text-xl font-semibold">
          {editing ? `Change the ${currency} account` : "Add or change an account"}
        </h2>
        <fetcher.Form method="post" {...getFormProps(form)} className="mt-4 flex max-w-xl flex-col gap-4">
          <input type="hidden" name="intent" value={INTENTS.save} />
          <CurrencySelect meta={fields.currency} label="Currency" current={currency} />
          <InputField meta={fields.holder} type="text" label="Account holder" autoComplete="off" />
          <InputField meta={fields.iban} type="text" label="IBAN" autoComplete="off" spellCheck={false} />
          <InputField meta={fields.bic} type="text" label="BIC (optional)" autoComplete="off" spellCheck={false} />
          <p className="-mt-2 text-xs text-muted">
            Without an IBAN: the account number with its sort code (UK) or routing number (US).
          </p>
          <div className="grid gap-4 sm:grid-cols-3">
            <InputField meta={fields.account_number} type="text" label="Account number" inputMode="numeric" />
            <InputField meta={fields.sort_code} type="text" label="Sort code" inputMode="numeric" />
            <InputField meta={fields.routing_number} type="text" label="Routing number" inputMode="numeric" />
          </div>
          <InputField
            meta={fields.reference}
            type="text"
            label="Payment reference"
            maxLength={REFERENCE_MAX}
            aria-describedby="bank-reference-help"
          />
          <p id="bank-reference-help" className="-mt-2 text-xs text-muted">
            {"{invoice} becomes the invoices' numbers, as in “INV-101, INV-107”."}
          </p>
          <FormStatus result={result} busy={busy} formStatus={form.status} />
          <SubmitButton busy={busy} className="self-start">
            Save bank details
          </SubmitButton>
        </fetcher.Form>
      </section>
    </SettingsTabs>
  );
}

export function ErrorBoundary() {
  return <RouteError message="We couldn't load your bank details." />;
}

export const meta: Route.MetaFunction = () => pageMeta("Bank transfer");
