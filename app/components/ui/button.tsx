import type { VariantProps } from "class-variance-authority";
import { Loader2 } from "lucide-react";
import { type ComponentProps, cloneElement, isValidElement, type ReactElement } from "react";
import { cn } from "~/ui/class-names";
import { buttonVariants } from "./variants";

/**
 * A button in one of our variants. `asChild`: the one child element (a `Link`) is drawn as the
 * button instead, with these classes added to its own (a few lines rather than Radix's Slot and its
 * ref merging, which would put Radix's utilities in most pages' first load).
 */
export function Button({
  className,
  variant,
  size,
  asChild = false,
  children,
  ...props
}: ComponentProps<"button"> & VariantProps<typeof buttonVariants> & { asChild?: boolean }) {
  const classes = cn(buttonVariants({ variant, size }), className);
  if (asChild && isValidElement<{ className?: string }>(children)) {
    const child = children as ReactElement<{ className?: string }>;
    return cloneElement(child, { ...(props as object), className: cn(classes, child.props.className) });
  }
  return (
    <button className={classes} {...props}>
      {children}
    </button>
  );
}

/** A submit button that is disabled and shows a spinner before its label while `busy`. */
export function SubmitButton({ busy, children, ...props }: ComponentProps<typeof Button> & { busy: boolean }) {
  return (
    <Button type="submit" disabled={busy} {...props}>
      {busy && <Loader2 className="h-4 w-4 animate-spin" aria-hidden />}
      {children}
    </Button>
  );
}
