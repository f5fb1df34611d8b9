import { cva } from "class-variance-authority";

/**
 * Class names of our buttons and inputs, with no class merging (tailwind-merge) and no React: a
 * link styled as a button, or a page that must stay small (the landing page, pricing), uses these
 * directly; `Button` and `Input` merge a caller's classes over them.
 */
export const buttonVariants = cva(
  "inline-flex items-center justify-center gap-2 whitespace-nowrap rounded-md text-sm font-semibold transition-colors disabled:pointer-events-none disabled:opacity-60 cursor-pointer",
  {
    variants: {
      variant: {
        primary: "bg-primary text-primary-foreground hover:opacity-90",
        outline: "border border-border bg-transparent hover:bg-surface-2",
        ghost: "bg-transparent hover:bg-surface-2",
        danger: "bg-danger text-danger-foreground hover:opacity-90",
        link: "bg-transparent underline-offset-4 hover:underline text-primary px-0",
      },
      size: {
        sm: "h-8 px-3",
        md: "h-10 px-4",
        lg: "h-12 px-6 text-base",
        icon: "h-10 w-10",
      },
    },
    defaultVariants: { variant: "primary", size: "md" },
  },
);

export const inputClass =
  "h-10 w-full rounded-md border border-border bg-background px-3 text-sm text-foreground placeholder:text-muted aria-[invalid=true]:border-danger";
