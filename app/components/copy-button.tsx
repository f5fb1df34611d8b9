import { useState } from "react";
import { buttonVariants } from "~/components/ui/variants";

/** Copies `value`; says so for a moment, to screen readers too. A button: Enter and Space work. */
export function CopyButton({ value, label }: { value: string; label: string }) {
  const [copied, setCopied] = useState<"yes" | "no" | null>(null);
  return (
    <button
      type="button"
      className={buttonVariants({ variant: "outline", size: "sm" })}
      aria-label={copied === "yes" ? `${label} copied` : `Copy ${label}`}
      onClick={() => {
        const done = (outcome: "yes" | "no") => {
          setCopied(outcome);
          setTimeout(() => setCopied(null), 2000);
        };
        if (!navigator.clipboard) return done("no");
        navigator.clipboard.writeText(value).then(
          () => done("yes"),
          () => done("no"),
        );
      }}
    >
      <span aria-live="polite">{copied === "yes" ? "Copied" : copied === "no" ? "Select and copy it" : "Copy"}</span>
    </button>
  );
}
