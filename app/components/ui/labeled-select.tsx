import type { ComponentProps } from "react";
import { cn } from "~/ui/class-names";

/** A native select in the app's field style with its label above it, or with `hideLabel` for screen readers only. */
export function LabeledSelect({
  id,
  label,
  hideLabel = false,
  className,
  children,
  ...props
}: ComponentProps<"select"> & { id: string; label: string; hideLabel?: boolean }) {
  const field = (
    <>
      <label htmlFor={id} className={hideLabel ? "sr-only" : "text-sm text-muted"}>
        {label}
      </label>
      <select
        id={id}
        className={cn("h-10 rounded-md border border-border bg-background px-3 text-sm", className)}
        {...props}
      >
        {children}
      </select>
    </>
  );
  return hideLabel ? field : <div className="flex flex-col gap-1">{field}</div>;
}
