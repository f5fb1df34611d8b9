/**
 * A choice between a few options drawn as a segmented control: native radio buttons in a fieldset
 * (arrow keys move between them, screen readers hear "radio, 1 of 2"), not tabs, which would need
 * panels to point at.
 */
export function SegmentedChoice<T extends string>({
  legend,
  name,
  value,
  options,
  onChange,
}: {
  legend: string;
  /** The radios' group name (not submitted by the forms here, which post a hidden field). */
  name: string;
  value: T;
  options: readonly { value: T; label: string }[];
  onChange: (value: T) => void;
}) {
  return (
    <fieldset className="grid grid-cols-2 gap-1 rounded-lg bg-background p-1">
      <legend className="sr-only">{legend}</legend>
      {options.map((option) => (
        <label
          key={option.value}
          className="cursor-pointer rounded-md px-3 py-2 text-center text-sm font-medium has-[:checked]:bg-primary has-[:checked]:text-primary-foreground has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-ring"
        >
          <input
            type="radio"
            className="sr-only"
            name={name}
            value={option.value}
            checked={value === option.value}
            onChange={() => onChange(option.value)}
          />
          {option.label}
        </label>
      ))}
    </fieldset>
  );
}
