import { getFormProps, getInputProps, getSelectProps } from "@conform-to/react";
import { useState } from "react";
import { useFetcher } from "react-router";
import { Button, SubmitButton } from "~/components/ui/button";
import { FormError, FormField, InputField } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { SegmentedChoice } from "~/components/ui/segmented-choice";
import { STRATEGIES } from "~/domain/strategies";
import { DEBTOR_INTENTS } from "~/entities/intents";
import type { ActionResult } from "~/lib/action-result";
import { useFormResult } from "~/lib/use-form-result";
import { useValibotForm } from "~/lib/use-valibot-form";
import type { debtorAction } from "~/routes/debtor-action.server";
import { CURRENCIES, DebtorSchema, INVOICE_NUMBER_MAX } from "~/schemas/debtor";

export interface DebtorFormValues {
  id: number;
  kind: "person" | "company";
  full_name: string;
  email: string;
  debt: number;
  active_strategy: number;
  time_zone: string;
  invoice_number: string | null;
  currency: string;
}

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
 */
export function DebtorForm({
  debtor,
  onDone,
  onCancel,
}: {
  debtor?: DebtorFormValues;
  onDone: (data: ActionResult) => void;
  onCancel?: () => void;
}) {
  const fetcher = useFetcher<typeof debtorAction>();
  const busy = fetcher.state !== "idle";
  const intent = debtor ? DEBTOR_INTENTS.edit : DEBTOR_INTENTS.add;
  const reply = useFormResult(fetcher, [intent], (data) => {
    if (data.ok || data.message) onDone(data);
  });
  const [kind, setKind] = useState<"person" | "company">(debtor?.kind ?? "person");
  const [form, fields] = useValibotForm(DebtorSchema, {
    id: debtor ? `debtor-edit-${debtor.id}` : "debtor-new",
    lastResult: busy ? undefined : reply?.result,
    defaultValue: debtor
      ? {
          full_name: debtor.full_name,
          email: debtor.email,
          debt: String(debtor.debt),
          active_strategy: String(debtor.active_strategy),
          time_zone: debtor.time_zone,
          invoice_number: debtor.invoice_number ?? "",
          currency: debtor.currency,
        }
      : // The form only renders in a dialog, on the client: the browser's own zone is known.
        { active_strategy: "1", time_zone: browserTimeZone(), currency: "" },
  });
  // Suggestions for the zone field, listed once per form.
  const [zones] = useState(knownTimeZones);
  const zonesId = `${form.id}-time-zones`;
  const zoneHelpId = `${form.id}-time-zone-help`;
  const currencyHelpId = `${form.id}-currency-help`;
  // A debtor's currency outside the list (written before it existed) stays choosable.
  const currencies: string[] =
    debtor && !(CURRENCIES as readonly string[]).includes(debtor.currency)
      ? [debtor.currency, ...CURRENCIES]
      : [...CURRENCIES];

  const nameLabel = kind === "company" ? "Company name" : "Full Name";
  return (
    <fetcher.Form method="post" {...getFormProps(form)} className="flex flex-col gap-4">
      <input type="hidden" name="intent" value={intent} />
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
      <InputField
        meta={fields.debt}
        type="number"
        label="Amount of debt"
        placeholder="Amount of debt"
        inputMode="decimal"
        step="0.01"
      />
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField meta={fields.currency} label="Currency">
          <select
            {...getSelectProps(fields.currency, { ariaDescribedBy: debtor ? undefined : currencyHelpId })}
            key={fields.currency.key}
            className="mt-1 h-10 w-full rounded-md border border-border bg-background px-3 text-sm"
          >
            {!debtor && <option value="">Your usual currency</option>}
            {currencies.map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </select>
          {!debtor && (
            <p id={currencyHelpId} className="mt-1 text-xs text-muted">
              Your usual currency is that of the debtor you added last (USD for your first).
            </p>
          )}
        </FormField>
        <InputField
          meta={fields.invoice_number}
          type="text"
          label="Invoice number (optional)"
          placeholder="e.g. INV-2026-001"
          autoComplete="off"
          maxLength={INVOICE_NUMBER_MAX}
        />
      </div>
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
      </div>
      <FormError form={form} />
      {/* Sticky at the dialog's bottom: a field error that appears on blur never moves Save away from the pointer. */}
      <div className="sticky -bottom-6 -mx-6 -mb-6 flex justify-end gap-2 border-t border-border bg-surface px-6 py-4">
        {onCancel && (
          <Button type="button" variant="outline" onClick={onCancel}>
            Cancel
          </Button>
        )}
        <SubmitButton busy={busy}>Save</SubmitButton>
      </div>
    </fetcher.Form>
  );
}
