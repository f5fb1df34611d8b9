/**
 * The header checkbox of a selectable list: checked when every row is, indeterminate when some
 * are; pressing it selects all or clears (the caller's toggleAll).
 */
export function SelectAllCheckbox({
  label,
  total,
  selectedCount,
  onToggle,
}: {
  label: string;
  total: number;
  selectedCount: number;
  onToggle: () => void;
}) {
  const all = total > 0 && selectedCount === total;
  return (
    <input
      type="checkbox"
      className="h-4 w-4 accent-[var(--primary)]"
      aria-label={label}
      checked={all}
      ref={(el) => {
        if (el) el.indeterminate = selectedCount > 0 && !all;
      }}
      onChange={onToggle}
      disabled={total === 0}
    />
  );
}
