import { type ComponentProps, useRef, useState } from "react";
import { LabeledSelect } from "~/components/ui/labeled-select";
import { PERIODS } from "~/domain/periods";

/** How long after a key the select's changes count as browsing with the keyboard, not choosing. */
const BROWSING_MS = 500;
const CHOOSE_KEYS = new Set(["Enter", "Tab", "Escape"]);

type Props = Omit<ComponentProps<typeof LabeledSelect>, "label" | "children" | "onChange" | "value"> & {
  /** The period shown (controlled); or `defaultValue` for a plain form field. */
  value?: string;
  /** A period was chosen: with the mouse or touch at once; with the keyboard on Enter or on leaving the field. */
  onCommit?: (value: string, select: HTMLSelectElement) => void;
};

/**
 * The 'Period' dropdown of the schedules card and the report: "All time" (value '') and
 * docs/product-spec.md §2's five. A closed native select changes its value on every arrow key;
 * committing each would reload the list per key press, so keyboard browsing commits on Enter or
 * when the focus leaves, while a choice from the open list commits at once.
 */
export function PeriodSelect({ value, defaultValue, onCommit, onKeyDown, onBlur, ...props }: Props) {
  const pageValue = value ?? String(defaultValue ?? "");
  const committed = useRef(pageValue);
  const lastKeyAt = useRef(0);
  const [shown, setShown] = useState(value);
  // A new value from the page (after navigation) is what is shown and committed.
  const [fromPage, setFromPage] = useState(pageValue);
  if (pageValue !== fromPage) {
    setFromPage(pageValue);
    setShown(value);
    committed.current = pageValue;
  }
  const commit = (select: HTMLSelectElement) => {
    if (select.value === committed.current) return;
    committed.current = select.value;
    onCommit?.(select.value, select);
  };
  return (
    <LabeledSelect
      label="Period"
      {...props}
      {...(value === undefined ? { defaultValue } : { value: shown })}
      onKeyDown={(event) => {
        onKeyDown?.(event);
        if (event.key === "Enter") {
          // Enter in a form would submit it: here it chooses the period shown.
          event.preventDefault();
          commit(event.currentTarget);
        } else if (!CHOOSE_KEYS.has(event.key)) lastKeyAt.current = Date.now();
      }}
      onChange={(event) => {
        setShown(event.currentTarget.value);
        if (Date.now() - lastKeyAt.current > BROWSING_MS) commit(event.currentTarget);
      }}
      onBlur={(event) => {
        onBlur?.(event);
        commit(event.currentTarget);
      }}
    >
      <option value="">All time</option>
      {PERIODS.map((p) => (
        <option key={p.id} value={p.id}>
          {p.label}
        </option>
      ))}
    </LabeledSelect>
  );
}
