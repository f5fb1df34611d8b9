import type { ComponentProps } from "react";
import { LabeledSelect } from "~/components/ui/labeled-select";
import { PERIODS } from "~/domain/periods";

/** The 'Period' dropdown of the schedules card and the report: "All time" (value '') and docs/product-spec.md §2's five. */
export function PeriodSelect(props: Omit<ComponentProps<typeof LabeledSelect>, "label" | "children">) {
  return (
    <LabeledSelect label="Period" {...props}>
      <option value="">All time</option>
      {PERIODS.map((p) => (
        <option key={p.id} value={p.id}>
          {p.label}
        </option>
      ))}
    </LabeledSelect>
  );
}
