import { PERIODS } from "~/domain/periods";

/** The period choices of the schedules card and the report: "All time" (value '') and docs/product-spec.md §2's five. */
export function PeriodOptions() {
  return (
    <>
      <option value="">All time</option>
      {PERIODS.map((p) => (
        <option key={p.id} value={p.id}>
          {p.label}
        </option>
      ))}
    </>
  );
}
