import { getFormProps, getInputProps, getSelectProps } from "@conform-to/react";
import { useState } from "react";
import { useFetcher } from "react-router";
import type { debtorAction } from "~/actions/debtor-action.server";
import { CurrencySelect } from "~/components/currency-select";
import { Button, SubmitButton } from "~/components/ui/button";
import { FormError, FormField, InputField } from "~/components/ui/field";
import { FieldError, Input, Label } from "~/components/ui/input";
import { SegmentedChoice } from "~/components/ui/segmented-choice";
import { languageOptions } from "~/domain/debtor-language";
import { amountExample, formatAmountInput } from "~/domain/number-locale";
import { PHONE_INPUT_MAX } from "~/domain/phone";
import { STRATEGIES } from "~/domain/strategies";
import type { ActionResult } from "~/platform/action-result";
import { CONTACT_NAME_MAX, CONTACT_ROLE_MAX } from "~/schemas/contact";
import { debtorSchema, INVOICE_NUMBER_MAX } from "~/schemas/debtor";
import { ALLOW_DUPLICATE_FIELD, DEBTOR_INTENTS } from "~/schemas/intents";
import { twinDebtorMessage } from "~/schemas/messages";
import { useLocale } from "~/ui/root-data";
import { useFormResult } from "~/ui/use-form-result";
import { useValibotForm } from "~/ui/use-valibot-form";

export interface DebtorFormValues {
  id: number;
  kind: "person" | "company";
  full_name: string;
  email: string;
  debt: number;
  active_strategy: number;
  time_zone: string;
  /** The language Dunly writes to them in; null: the user's. */
  language?: string | null;
  invoice_number: string | null;
  currency: string;
  /** False when the debtor owes several invoices: the debt, currency and number are theirs, not the form's. */
  single_invoice?: boolean;
  /** The primary contact: the person behind the e-mail (decisions/057). */
  contact_name?: string | null;
  contact_role?: string | null;
  /** Late-payment charges (decisions/065): the account's, always, or never. */
  late_charges?: "account" | "on" | "off";
  /** The mobile in E.164 (decisions/069); null: none. */
  phone?: string | null;
  /** When the user confirmed they may text the debtor (epoch ms) and who; null: no consent. */
  text_consent_at?: number | null;
  text_consent_by?: string | null;
}

/** What the form says when a debtor owes several invoices. */
export const SEVERAL_INVOICES_NOTE = "This debtor owes several invoices: edit them in the Invoices section.";

/** The browser's IANA zone ("" where Intl cannot tell). */
function browserTimeZone() {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone ?? "";
  } catch {
    return "";
  }
}

/** Every zone the browser knows, for the field's suggestions (none where Intl cannot list them). */
function knownTimeZones(): string[] {
  const intl = Intl as typeof Intl & { supportedValuesOf?: (key: "timeZone") => string[] };
  try {
    return intl.supportedValuesOf?.("timeZone") ?? [];
  } catch {
    return [];
  }
}

/**
 * The debtor form (docs/product-spec.md §2 "Debtor modals and forms"): tabs 'Private person' / 'Company', Full
 * Name, e-mail, Amount of debt, strategy. Validated in the browser and again by the action with
 * the same schema; what the user typed stays on any error.
 *
 * A new debtor's debt is their first invoice (currency, number and due date). When the e-mail is
 * already one of the user's debtors, the action answers so and the form offers "Add this invoice to <name>" or "Add as a new debtor anyway",
 * keeping what was typed. A debtor with several invoices shows their total, read-only: the
 * invoices are edited one by one in the Invoices section.
 */
export function DebtorForm({
  debtor,
  onDone,
  onCancel,
  accountCurrency = "USD",
  userLocale = null,
}: {
  debtor?: DebtorFormValues;
  /** A new debtor's currency until the user chooses another: the account's (Settings → Info). */
  accountCurrency?: string;
  /** The user's number format (users.locale): "Same as mine" names the user's language. */
  userLocale?: string | null;
  onDone: (data: ActionResult) => void;
  onCancel?: () => void;
}) {
  const fetcher = useFetcher<typeof debtorAction>();
  const busy = fetcher.state !== "idle";
  const intent = debtor ? DEBTOR_INTENTS.edit : DEBTOR_INTENTS.add;
  const reply = useFormResult(fetcher, debtor ? [intent] : [intent, DEBTOR_INTENTS.addInvoice], (data) => {
    if (data.ok || data.message) onDone(data);
  });
  const several = debtor?.single_invoice === false;
  const submitting = busy ? String(fetcher.formData?.get("intent") ?? "") : "";
  const [kind, setKind] = useState<"person" | "company">(debtor?.kind ?? "person");
  const locale = useLocale();
  const [form, fields] = useValibotForm(debtorSchema(locale), {
    id: debtor ? `debtor-edit-${debtor.id}` : "debtor-new",
    lastResult: busy ? undefined : reply?.result,
    defaultValue: debtor
      ? {
          full_name: debtor.full_name,
          email: debtor.email,
          debt: formatAmountInput(debtor.debt, locale),
          active_strategy: String(debtor.active_strategy),
          time_zone: debtor.time_zone,
          language: debtor.language ?? "",
          invoice_number: debtor.invoice_number ?? "",
          currency: debtor.currency,
          contact_name: debtor.contact_name ?? "",
          contact_role: debtor.contact_role ?? "",
          late_charges: debtor.late_charges ?? "account",
          phone: debtor.phone ?? "",
          text_consent: debtor.text_consent_at ? "on" : "",
        }
      : // The form only renders in a dialog, on the client: the browser's own zone is known.
        { active_strategy: "1", time_zone: browserTimeZone(), currency: accountCurrency, late_charges: "account" },
  });
  // The add was answered that this e-mail is one of the user's debtors: the choice stays offered
  // while the e-mail is the one that was sent.
  const sentEmail = String(reply?.result?.initialValue?.email ?? "")
    .trim()
    .toLowerCase();
  const twin =
    !debtor && reply?.intent === DEBTOR_INTENTS.add && reply.existing
      ? (fields.email.value ?? sentEmail).trim().toLowerCase() === sentEmail
        ? reply.existing
        : null
      : null;
  const severalId = `${form.id}-several`;
  const dueHelpId = `${form.id}-due-help`;
  // Suggestions for the zone field, listed once per form.
  const [zones] = useState(knownTimeZones);
  const zonesId = `${form.id}-time-zones`;
  const zoneHelpId = `${form.id}-time-zone-help`;
  const currencyHelpId = `${form.id}-currency-help`;
  const languageHelpId = `${form.id}-language-help`;

  const nameLabel = kind === "company" ? "Company name" : "Full Name";
  return (
    <fetcher.Form method="post" {...getFormProps(form)} className="flex flex-col gap-4">
      {/* Offering the twin, each choice is a submit button naming its own intent. */}
      {!twin && <input type="hidden" name="intent" value={intent} />}
      {debtor && <input type="hidden" name="id" value={debtor.id} />}
      <input type="hidden" name="kind" value={kind} />
      <SegmentedChoice
        legend="Debtor type"
        name={`${form.id}-kind-choice`}
        value={kind}
        options={[
          { value: "person", label: "Private person" },
          { value: "company", label: "Company" },
        ]}
        onChange={setKind}
      />
      <InputField meta={fields.full_name} type="text" label={nameLabel} placeholder={nameLabel} autoComplete="off" />
      <InputField meta={fields.email} type="email" label="Email" placeholder="Debtor's email" autoComplete="off" />
      {/* The person behind the e-mail (decisions/057): reminders greet them by name. */}
      <div className="grid gap-4 sm:grid-cols-2">
        <InputField
          meta={fields.contact_name}
          type="text"
          label="Contact person (optional)"
          placeholder="Jane Doe"
          autoComplete="off"
          maxLength={CONTACT_NAME_MAX}
        />
        <InputField
          meta={fields.contact_role}
          type="text"
          label="Their role (optional)"
          placeholder="Accounts payable"
          autoComplete="off"
          maxLength={CONTACT_ROLE_MAX}
        />
      </div>
      {/* The debtor's mobile and the user's consent to text it (decisions/069). */}
      <InputField
        meta={fields.phone}
        type="text"
        inputMode="tel"
        label="Mobile number (optional)"
        placeholder="+44 7400 123456"
        autoComplete="off"
        maxLength={PHONE_INPUT_MAX}
        describedBy={`${form.id}-phone-help`}
      />
      <p id={`${form.id}-phone-help`} className="-mt-3 text-xs text-muted">
        With its country code. Only a mobile can receive texts.
      </p>
      <div>
        <div className="flex items-start gap-2">
          <input
            {...getInputProps(fields.text_consent, {
              type: "checkbox",
              value: "on",
              ariaDescribedBy: `${form.id}-consent-help`,
            })}
            key={fields.text_consent.key}
            className="mt-1 h-4 w-4"
          />
          <label htmlFor={fields.text_consent.id} className="text-sm">
            I may text this debtor
            <span id={`${form.id}-consent-help`} className="block text-xs text-muted">
              {debtor?.text_consent_at
                ? `Confirmed ${new Date(debtor.text_consent_at).toISOString().slice(0, 10)}${debtor.text_consent_by ? ` by ${debtor.text_consent_by}` : ""}. Their STOP or opt-out ends it.`
                : "Tick only if the debtor agreed to receive texts from you. Their STOP or opt-out ends it."}
            </span>
          </label>
        </div>
        <FieldError id={fields.text_consent.errorId} errors={fields.text_consent.errors} />
      </div>
      {several ? (
        <>
          <p id={severalId} className="rounded-md border border-border bg-surface-2 p-3 text-sm">
            {SEVERAL_INVOICES_NOTE}
          </p>
          {/* Read-only and sent as they are: the server takes a debtor's total only unchanged. */}
          <FormField meta={fields.debt} label="Amount of debt (total)">
            <Input
              {...getInputProps(fields.debt, { type: "text", ariaDescribedBy: severalId })}
              key={fields.debt.key}
              className="mt-1"
              readOnly
            />
          </FormField>
          <div className="grid gap-4 sm:grid-cols-2">
            <FormField meta={fields.currency} label="Currency">
              <Input
                {...getInputProps(fields.currency, { type: "text", ariaDescribedBy: severalId })}
                key={fields.currency.key}
                className="mt-1"
                readOnly
              />
            </FormField>
            <div>
              <Label htmlFor={`${form.id}-several-number`}>Invoice number</Label>
              <Input
                id={`${form.id}-several-number`}
                type="text"
                className="mt-1"
                disabled
                placeholder="One per invoice"
                aria-describedby={severalId}
              />
            </div>
          </div>
        </>
      ) : (
        <>
          <InputField
            meta={fields.debt}
            type="text"
            label="Amount of debt"
            placeholder={`For example ${amountExample(locale)}`}
            inputMode="decimal"
            autoComplete="off"
          />
          <div className="grid gap-4 sm:grid-cols-2">
            {/* A debtor's or the account's currency outside the list (written before it existed) stays choosable. */}
            <CurrencySelect
              meta={fields.currency}
              label="Currency"
              current={debtor?.currency ?? accountCurrency}
              ariaDescribedBy={debtor ? undefined : currencyHelpId}
            >
              {!debtor && (
                <p id={currencyHelpId} className="mt-1 text-xs text-muted">
                  Your default currency, set in Settings.
                </p>
              )}
            </CurrencySelect>
            <InputField
              meta={fields.invoice_number}
              type="text"
              label="Invoice number (optional)"
              placeholder="e.g. INV-2026-001"
              autoComplete="off"
              maxLength={INVOICE_NUMBER_MAX}
            />
          </div>
        </>
      )}
      {!debtor && (
        <div className="grid gap-4 sm:grid-cols-2">
          <InputField meta={fields.issued_on} type="date" label="Issue date (optional)" describedBy={dueHelpId} />
          <InputField meta={fields.due_on} type="date" label="Due date (optional)" describedBy={dueHelpId} />
          <p id={dueHelpId} className="-mt-2 text-xs text-muted sm:col-span-2">
            The invoice's dates. Blank: issued today, due today.
          </p>
        </div>
      )}
      {/* Side by side where there is room: the dialog stays short enough not to scroll on a laptop. */}
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField meta={fields.active_strategy} label="Strategy">
          <select
            {...getSelectProps(fields.active_strategy)}
            key={fields.active_strategy.key}
            className="mt-1 h-10 w-full rounded-md border border-border bg-background px-3 text-sm"
          >
            {STRATEGIES.map((s) => (
              <option key={s.value} value={s.value}>
                {s.value} {s.label}
              </option>
            ))}
          </select>
        </FormField>
        <FormField meta={fields.time_zone} label="Time zone">
          <Input
            {...getInputProps(fields.time_zone, { type: "text", ariaDescribedBy: zoneHelpId })}
            key={fields.time_zone.key}
            className="mt-1"
            list={zones.length > 0 ? zonesId : undefined}
            placeholder="e.g. Europe/Berlin"
            autoComplete="off"
            spellCheck={false}
          />
          <p id={zoneHelpId} className="mt-1 text-xs text-muted">
            Reminders reach this debtor only between 08:00 and 21:00 in this zone.
          </p>
          {zones.length > 0 && (
            <datalist id={zonesId}>
              {zones.map((z) => (
                <option key={z} value={z} />
              ))}
            </datalist>
          )}
        </FormField>
        <FormField meta={fields.language} label="Language">
          <select
            {...getSelectProps(fields.language, { ariaDescribedBy: languageHelpId })}
            key={fields.language.key}
            className="mt-1 h-10 w-full rounded-md border border-border bg-background px-3 text-sm"
          >
            {languageOptions(userLocale).map((o) => (
              <option key={o.value} value={o.value}>
                {o.label}
              </option>
            ))}
          </select>
          <p id={languageHelpId} className="mt-1 text-xs text-muted">
            Reminders, receipts and their pages reach this debtor in this language.
          </p>
        </FormField>
      </div>
      {/* Late-payment charges (decisions/065): only a company is ever charged. */}
      <FormField meta={fields.late_charges} label="Late charges">
        <select
          {...getSelectProps(fields.late_charges, { ariaDescribedBy: `${form.id}-late-charges-help` })}
          key={fields.late_charges.key}
          className="mt-1 h-10 w-full rounded-md border border-border bg-background px-3 text-sm"
        >
          <option value="account">As the account (Settings → Late charges)</option>
          <option value="on">On for this debtor</option>
          <option value="off">Off for this debtor</option>
        </select>
        <p id={`${form.id}-late-charges-help`} className="mt-1 text-xs text-muted">
          {kind === "company"
            ? "Late-payment interest and fees on this company's late invoices."
            : "Only companies are charged: a private person never is, whatever this says."}
        </p>
      </FormField>
      {twin ? (
        // Either choice: the debtor this e-mail belongs to gets the invoice, or a new debtor is added anyway.
        <>
          <input type="hidden" name="debtor_id" value={twin.id} />
          <input type="hidden" name={ALLOW_DUPLICATE_FIELD} value="true" />
        </>
      ) : (
        <FormError form={form} />
      )}
      {twin ? (
        // The question and its answers together at the dialog's bottom, the likelier answer first
        // (also the one Enter in a field chooses).
        <div className="sticky -bottom-6 -mx-6 -mb-6 flex flex-col gap-2 border-t border-border bg-surface px-6 py-4">
          <p id={form.errorId} role="alert" className="text-sm font-medium" data-testid="twin-notice">
            {form.errors?.[0] ?? twinDebtorMessage(twin.name)}
          </p>
          <SubmitButton
            name="intent"
            value={DEBTOR_INTENTS.addInvoice}
            busy={submitting === DEBTOR_INTENTS.addInvoice}
            disabled={busy}
            size="wrap"
          >
            {`Add this invoice to ${twin.name}`}
          </SubmitButton>
          <SubmitButton
            variant="outline"
            name="intent"
            value={DEBTOR_INTENTS.add}
            busy={submitting === DEBTOR_INTENTS.add}
            disabled={busy}
            size="wrap"
          >
            Add as a new debtor anyway
          </SubmitButton>
        </div>
      ) : (
        // Sticky at the dialog's bottom: a field error that appears on blur never moves Save away from the pointer.
        <div className="sticky -bottom-6 -mx-6 -mb-6 flex justify-end gap-2 border-t border-border bg-surface px-6 py-4">
          {onCancel && (
            <Button type="button" variant="outline" onClick={onCancel}>
              Cancel
            </Button>
          )}
          <SubmitButton busy={busy}>Save</SubmitButton>
        </div>
      )}
    </fetcher.Form>
  );
}
