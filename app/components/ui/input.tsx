import type { ComponentProps } from "react";
import { cn } from "~/ui/class-names";
import { inputClass } from "./variants";

export function Input({ className, ...props }: ComponentProps<"input">) {
  return <input className={cn(inputClass, className)} {...props} />;
}

export function Label({ className, ...props }: ComponentProps<"label">) {
  // biome-ignore lint/a11y/noLabelWithoutControl: every caller passes htmlFor (the field's id) through props.
  return <label className={cn("text-sm font-medium", className)} {...props} />;
}

/** The message under a field; `id` is what the input's aria-describedby points at. */
export function FieldError({ id, errors }: { id: string; errors?: string[] }) {
  if (!errors?.length) return null;
  return (
    <p id={id} className="mt-1 text-sm text-danger" role="alert">
      {errors[0]}
    </p>
  );
}
