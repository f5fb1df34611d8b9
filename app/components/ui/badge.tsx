import type { ReactNode } from "react";
import { cn } from "~/ui/class-names";

const TONES = {
  good: "bg-success/10 text-success",
  neutral: "bg-surface-2 text-muted",
  warn: "bg-warning/10 text-warning",
  bad: "bg-danger/10 text-danger",
} as const;

/** A small status pill (schedule state, delivery status). */
export function Badge({ tone, children }: { tone: keyof typeof TONES; children: ReactNode }) {
  return (
    <span className={cn("inline-block rounded-full px-2 py-0.5 text-xs font-medium", TONES[tone])}>{children}</span>
  );
}
