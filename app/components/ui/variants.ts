import { cva } from "class-variance-authority";

/**
 * Class names of our buttons and inputs, with no React: a link styled as a button, or a page that
 * must stay small (the landing page, pricing), uses these directly; `Button` and `Input` add a
 * caller's classes to them. Nothing merges conflicting classes (app/ui/class-names.ts): a variant's
 * classes never conflict with the base, and a caller that needs another height asks for a size.
 */
export const buttonVariants = cva(
  "inline-flex items-center justify-center gap-2 rounded-md text-sm font-semibold transition-colors disabled:pointer-events-none disabled:opacity-60 cursor-pointer",
  {
    variants: {
      variant: {
        primary: "bg-primary text-primary-foreground hover:opacity-90",
        outline: "border border-border bg-transparent hover:bg-surface-2",
        ghost: "bg-transparent hover:bg-surface-2",
        danger: "bg-danger text-danger-foreground hover:opacity-90",
        // The size's padding applies (as it always did): class names are not merged (app/ui/class-names.ts).
        link: "bg-transparent underline-offset-4 hover:underline text-primary",
      },
      size: {
        sm: "h-8 whitespace-nowrap px-3",
        md: "h-10 whitespace-nowrap px-4",
        lg: "h-12 whitespace-nowrap px-6 text-base",
        icon: "h-10 w-10 whitespace-nowrap",
        // At least md's height, growing with a label that wraps (a long choice in a narrow form).
        wrap: "h-auto min-h-10 whitespace-normal px-4 py-2",
      },
    },
    defaultVariants: { variant: "primary", size: "md" },
  },
);

export const inputClass =
  "h-10 w-full rounded-md border border-border bg-background px-3 text-sm text-foreground placeholder:text-muted aria-[invalid=true]:border-danger";
