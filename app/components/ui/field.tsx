import { type FieldMetadata, getInputProps } from "@conform-to/react";
import type { ComponentProps, ReactNode } from "react";
import { FieldError, Input, Label } from "~/components/ui/input";

/**
 * The form's own error (not a field's), e.g. an account cap: in the markup, so it shows before
 * hydration and without JavaScript, and announced when it appears.
 */
export function FormError({ form }: { form: { errorId: string; errors?: string[] } }) {
  return <FieldError id={form.errorId} errors={form.errors} />;
}

/** A form row for a conform field: its label, the control (children) and the field's first error. */
export function FormField<Schema>({
  meta,
  label,
  children,
}: {
  meta: FieldMetadata<Schema>;
  label: ReactNode;
  children: ReactNode;
}) {
  return (
    <div>
      <Label htmlFor={meta.id}>{label}</Label>
      {children}
      <FieldError id={meta.errorId} errors={meta.errors} />
    </div>
  );
}

/** A labelled Input for a conform field; id, name, default value and aria attributes come from conform. */
export function InputField<Schema>({
  meta,
  label,
  type,
  describedBy,
  ...props
}: {
  meta: FieldMetadata<Schema>;
  label: ReactNode;
  type: "text" | "email" | "password" | "number" | "date";
  /** The id of a hint the input is described by, besides its error. */
  describedBy?: string;
} & Omit<ComponentProps<"input">, "type" | "className">) {
  return (
    <FormField meta={meta} label={label}>
      {/* The key remounts the input when conform resets the field. */}
      <Input
        {...getInputProps(meta, { type, ariaDescribedBy: describedBy })}
        key={meta.key}
        className="mt-1"
        {...props}
      />
    </FormField>
  );
}
