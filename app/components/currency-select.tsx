import { type FieldMetadata, getSelectProps } from "@conform-to/react";
import type { ReactNode } from "react";
import { FormField } from "~/components/ui/field";
import { CURRENCIES } from "~/domain/currencies";

/**
 * A form's currency field: the supported currencies in a select, labelled, with the field's error.
 * A `current` currency outside the list (stored before the list had it) stays choosable, first.
 * `children` stand under the select (a help text named by `ariaDescribedBy`).
 */
export function CurrencySelect<Schema>({
  meta,
  label,
  current,
  ariaDescribedBy,
  children,
}: {
  meta: FieldMetadata<Schema>;
  label: string;
  current: string;
  ariaDescribedBy?: string;
  children?: ReactNode;
}) {
  const currencies: string[] = (CURRENCIES as readonly string[]).includes(current)
    ? [...CURRENCIES]
    : [current, ...CURRENCIES];
  return (
    <FormField meta={meta} label={label}>
      <select
        {...getSelectProps(meta, { ariaDescribedBy })}
        key={meta.key}
        className="mt-1 h-10 w-full rounded-md border border-border bg-background px-3 text-sm"
      >
        {currencies.map((c) => (
          <option key={c} value={c}>
            {c}
          </option>
        ))}
      </select>
      {children}
    </FormField>
  );
}
