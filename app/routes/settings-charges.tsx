import { getFormProps, getInputProps, getSelectProps } from "@conform-to/react";
import { parseWithValibot } from "@conform-to/valibot";
import { useFetcher } from "react-router";
import { getApp } from "~/auth/context.server";
import { requireUser } from "~/auth/guard.server";
import { CurrencySelect } from "~/components/currency-select";
import { RouteError } from "~/components/route-error";
import { SettingsTabs } from "~/components/settings/settings-tabs";
import { SubmitButton } from "~/components/ui/button";
import { FormField, InputField } from "~/components/ui/field";
import { FormStatus } from "~/components/ui/form-status";
import { getDb } from "~/db/client.server";
import { readAmount } from "~/domain/amount-input";
import { STATUTORY_RULES } from "~/domain/late-charges";
import { fromCents } from "~/domain/money";
import { formatAmountInput } from "~/domain/number-locale";
import { accrueAccount, readTermsAndRates, ruleExplanations, saveTerms } from "~/ledger/index.server";
import { intentOf, readForm, reply } from "~/platform/action-result.server";
import { requestNumberLocale } from "~/platform/locale.server";
import { contractInWords, hundredths, lateChargeTermsSchema } from "~/schemas/late-charges";
import { SOMETHING_WRONG } from "~/schemas/messages";
import { useLocale } from "~/ui/root-data";
import { pageMeta } from "~/ui/site";
import { useFormResult } from "~/ui/use-form-result";
import { useValibotForm } from "~/ui/use-valibot-form";
import type { Route } from "./+types/settings-charges";

const INTENT = "charges-save";

/**
 * Settings → Late charges (decisions/065): late-payment interest and compensation for business
 * debtors, off until the user turns it on: the statutory rules by country, or the user's own
 * contract terms, and what a payment pays first. The tab says in words what will be charged, and
 * that charges are never written to Xero or QuickBooks.
 */
export async function loader({ context, url, request }: Route.LoaderArgs) {
  const user = await requireUser(context, url);
  const db = getDb(getApp(context).env.DB);
  const { terms, rates } = await readTermsAndRates(db, user.id);
  const locale = requestNumberLocale(request, user);
  const today = new Date().toISOString().slice(0, 10);
  return {
    terms: terms
      ? {
          enabled: terms.enabled,
          rule: terms.rule,
          compensation: terms.compensation,
          contractKind: terms.contractKind,
          contractFee:
            terms.contractFeeCents === null ? "" : formatAmountInput(fromCents(terms.contractFeeCents), locale),
          contractFeeCurrency: terms.contractFeeCurrency,
          contractRate: terms.contractRateBp === null ? "" : formatAmountInput(terms.contractRateBp / 100, locale),
          contractGraceDays: terms.contractGraceDays,
          contractCap: terms.contractCapBp === null ? "" : formatAmountInput(terms.contractCapBp / 100, locale),
          paymentOrder: terms.paymentOrder,
        }
      : null,
    explanations: ruleExplanations(rates, today, locale),
    defaultCurrency: user.defaultCurrency,
  };
}

export async function action({ context, request, url }: Route.ActionArgs) {
  const user = await requireUser(context, url);
  const form = await readForm(request);
  if ("refused" in form) return form.refused;
  const { formData } = form;
  const intent = intentOf(formData);
  if (intent !== INTENT) return reply(intent, { status: 400, message: SOMETHING_WRONG });
  const submission = parseWithValibot(formData, { schema: lateChargeTermsSchema(requestNumberLocale(request, user)) });
  if (submission.status !== "success") return reply(intent, { status: 400, result: submission.reply() });
  const db = getDb(getApp(context).env.DB);
  const now = Date.now();
  await saveTerms(db, user.id, submission.value, now);
  // The account's charges follow the new terms: the first debtors now, the rest within minutes.
  await accrueAccount({ db, ownerId: user.id, now });
  return reply(intent, {
    message: submission.value.enabled
      ? "Late charges saved: business debtors' late invoices are charged under these terms from today."
      : "Late charges saved. They are off: no debtor is charged unless their own setting says so.",
    result: submission.reply(),
  });
}

const KIND_LABELS = {
  fixed: "A fixed fee, once",
  percent_once: "A percentage of what is unpaid, once",
  percent_monthly: "A percentage a month of what is unpaid",
} as const;

export default function SettingsCharges({ loaderData }: Route.ComponentProps) {
  const { terms, explanations, defaultCurrency } = loaderData;
  const locale = useLocale();
  const fetcher = useFetcher<typeof action>();
  const busy = fetcher.state !== "idle";
  const result = useFormResult(fetcher, [INTENT]);
  const schema = lateChargeTermsSchema(locale);
  const [form, fields] = useValibotForm(schema, {
    id: "late-charges",
    lastResult: busy ? undefined : result?.result,
    defaultValue: {
      enabled: terms?.enabled ? "on" : undefined,
      rule: terms?.rule ?? "gb",
      compensation: terms === null || terms.compensation ? "on" : undefined,
      contract_kind: terms?.contractKind ?? "fixed",
      contract_fee: terms?.contractFee ?? "",
      contract_fee_currency: terms?.contractFeeCurrency ?? defaultCurrency,
      contract_rate: terms?.contractRate ?? "",
      contract_grace_days: String(terms?.contractGraceDays ?? 0),
      contract_cap: terms?.contractCap ?? "",
      payment_order: terms?.paymentOrder ?? "principal_first",
    },
  });
  const rule = String(fields.rule.value ?? terms?.rule ?? "gb");
  const kind = String(fields.contract_kind.value ?? terms?.contractKind ?? "fixed");
  const isContract = rule === "contract";
  // The contract in words as it is typed now (the saved values before anything is changed).
  const typed = (value: unknown) => {
    const reading = readAmount(value, locale);
    return reading.ok ? reading.value : undefined;
  };
  const feeCents = hundredths(typed(fields.contract_fee.value));
  const rateBp = hundredths(typed(fields.contract_rate.value));
  const contract =
    (kind === "fixed" ? feeCents !== null : rateBp !== null) &&
    (kind === "fixed" || kind === "percent_once" || kind === "percent_monthly")
      ? contractInWords(
          {
            kind,
            feeCents,
            feeCurrency: String(fields.contract_fee_currency.value ?? terms?.contractFeeCurrency ?? defaultCurrency),
            rateBp,
            graceDays: Number(fields.contract_grace_days.value ?? 0) || 0,
            capBp: hundredths(typed(fields.contract_cap.value)),
          },
          locale,
        )
      : null;
  return (
    <SettingsTabs current="charges">
      <section aria-labelledby="charges-title" className="rounded-xl border border-border bg-surface p-6">
        <h2 id="charges-title" className="text-xl font-semibold">
          Late charges
        </h2>
        <p className="mt-1 text-sm text-muted">
          Late-payment interest and compensation for business debtors (those marked as companies), as separate lines
          beside their invoices, each explained. A person is never charged. A payment settles what you choose first, and
          you can waive any charge from the debtor's page.
        </p>
        <p className="mt-2 text-sm text-muted" data-testid="charges-books">
          Charges stay in Dunly: they are never written to Xero or QuickBooks.
        </p>
        <fetcher.Form method="post" {...getFormProps(form)} className="mt-4 flex flex-col gap-4">
          <input type="hidden" name="intent" value={INTENT} />
          <label className="flex items-start gap-2 text-sm">
            <input {...getInputProps(fields.enabled, { type: "checkbox" })} key={fields.enabled.key} className="mt-1" />
            <span>Charge late-payment interest to business debtors</span>
          </label>
          <FormField meta={fields.rule} label="Rules">
            <select
              {...getSelectProps(fields.rule, { ariaDescribedBy: "charges-explained" })}
              key={fields.rule.key}
              className="mt-1 h-10 w-full rounded-md border border-border bg-background px-3 text-sm"
            >
              {STATUTORY_RULES.map((r) => (
                <option key={r.id} value={r.id}>
                  {`${r.country}: statutory interest (${r.currency})`}
                </option>
              ))}
              <option value="contract">My contract terms</option>
            </select>
          </FormField>
          {!isContract && (
            <label className="flex items-start gap-2 text-sm">
              <input
                {...getInputProps(fields.compensation, { type: "checkbox" })}
                key={fields.compensation.key}
                className="mt-1"
              />
              <span>Add the statutory compensation for recovery costs per invoice</span>
            </label>
          )}
          {isContract && (
            <fieldset className="flex flex-col gap-4 rounded-lg border border-border p-4">
              <legend className="px-1 text-sm font-medium">My contract terms</legend>
              <FormField meta={fields.contract_kind} label="What is charged">
                <select
                  {...getSelectProps(fields.contract_kind)}
                  key={fields.contract_kind.key}
                  className="mt-1 h-10 w-full rounded-md border border-border bg-background px-3 text-sm"
                >
                  {Object.entries(KIND_LABELS).map(([value, label]) => (
                    <option key={value} value={value}>
                      {label}
                    </option>
                  ))}
                </select>
              </FormField>
              {kind === "fixed" ? (
                <div className="grid gap-4 sm:grid-cols-2">
                  <InputField meta={fields.contract_fee} label="Fee" type="text" inputMode="decimal" />
                  <CurrencySelect
                    meta={fields.contract_fee_currency}
                    label="Fee currency"
                    current={terms?.contractFeeCurrency ?? defaultCurrency}
                  />
                </div>
              ) : (
                <InputField
                  meta={fields.contract_rate}
                  label={kind === "percent_monthly" ? "Percent a month" : "Percent, once"}
                  type="text"
                  inputMode="decimal"
                />
              )}
              <div className="grid gap-4 sm:grid-cols-2">
                <InputField
                  meta={fields.contract_grace_days}
                  label="Grace days after the due date"
                  type="text"
                  inputMode="numeric"
                />
                <InputField
                  meta={fields.contract_cap}
                  label="Cap, percent of the invoice (optional)"
                  type="text"
                  inputMode="decimal"
                />
              </div>
            </fieldset>
          )}
          <FormField meta={fields.payment_order} label="A payment pays first">
            <select
              {...getSelectProps(fields.payment_order)}
              key={fields.payment_order.key}
              className="mt-1 h-10 w-full rounded-md border border-border bg-background px-3 text-sm"
            >
              <option value="principal_first">The invoices, then the charges</option>
              <option value="charges_first">The charges, then the invoices</option>
            </select>
          </FormField>
          <div id="charges-explained" className="rounded-lg bg-surface-2 p-3 text-sm" data-testid="charges-explained">
            <p className="font-medium">What will be charged</p>
            <p className="mt-1">
              {isContract
                ? (contract ?? "Type the fee or the percentage above to see what will be charged.")
                : explanations[rule]}
            </p>
            <p className="mt-1 text-muted">
              Interest runs daily from the day after the due date on what is unpaid, pauses while an invoice is
              disputed, and stops when it is paid.
            </p>
          </div>
          <div className="flex flex-wrap items-center gap-3">
            <SubmitButton busy={busy}>Save late charges</SubmitButton>
            <FormStatus result={result} busy={busy} formStatus={form.status} />
          </div>
        </fetcher.Form>
      </section>
    </SettingsTabs>
  );
}

export function ErrorBoundary() {
  return <RouteError message="We couldn't load your late-charge settings." />;
}

export const meta: Route.MetaFunction = () => pageMeta("Late charges");
