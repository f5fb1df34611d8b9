import { getFormProps, getSelectProps } from "@conform-to/react";
import { Tabs } from "radix-ui";
import { useState } from "react";
import { useFetcher } from "react-router";
import { Button, SubmitButton } from "~/components/ui/button";
import { FormError, FormField, InputField } from "~/components/ui/field";
import { STRATEGIES } from "~/domain/strategies";
import type { ActionResult } from "~/lib/action-result";
import { useFormResult } from "~/lib/use-form-result";
import { useValibotForm } from "~/lib/use-valibot-form";
import type { debtorAction } from "~/routes/debtor-action.server";
import { DebtorSchema } from "~/schemas/debtor";

export interface DebtorFormValues {
  id: number;
  kind: "person" | "company";
  full_name: string;
  email: string;
  debt: number;
  active_strategy: number;
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
  const intent = debtor ? "debtor-edit" : "debtor-add";
  const reply = useFormResult(fetcher, [intent], (data) => {
    if (data.ok || data.message) onDone(data);
  });
  const [kind, setKind] = useState<"person" | "company">(debtor?.kind ?? "person");
  const [form, fields] = useValibotForm(DebtorSchema, {
    id: debtor ? `debtor-edit-${debtor.id}` : "debtor-add",
    lastResult: busy ? undefined : reply?.result,
    defaultValue: debtor
      ? {
          full_name: debtor.full_name,
          email: debtor.email,
          debt: String(debtor.debt),
          active_strategy: String(debtor.active_strategy),
        }
      : { active_strategy: "1" },
  });

  const nameLabel = kind === "company" ? "Company name" : "Full Name";
  return (
    <fetcher.Form method="post" {...getFormProps(form)} className="flex flex-col gap-4">
      <input type="hidden" name="intent" value={intent} />
      {debtor && <input type="hidden" name="id" value={debtor.id} />}
      <input type="hidden" name="kind" value={kind} />
      <Tabs.Root value={kind} onValueChange={(value) => setKind(value as "person" | "company")}>
        <Tabs.List aria-label="Debtor type" className="grid grid-cols-2 gap-1 rounded-lg bg-background p-1">
          {(["person", "company"] as const).map((k) => (
            <Tabs.Trigger
              key={k}
              value={k}
              className="rounded-md px-3 py-2 text-sm font-medium data-[state=active]:bg-primary data-[state=active]:text-primary-foreground"
            >
              {k === "person" ? "Private person" : "Company"}
            </Tabs.Trigger>
          ))}
        </Tabs.List>
      </Tabs.Root>
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
      <FormError form={form} />
      <div className="flex justify-end gap-2">
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
