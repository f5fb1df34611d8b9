import { X } from "lucide-react";
import { Dialog as D } from "radix-ui";
import type { ReactNode } from "react";
import { cn } from "~/lib/utils";

/** A centred modal on Radix Dialog (focus trap, Escape, labelled); scrolls on small screens. */
export function Modal({
  open,
  onOpenChange,
  title,
  description,
  children,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description?: string;
  children: ReactNode;
}) {
  return (
    <D.Root open={open} onOpenChange={onOpenChange}>
      <D.Portal>
        <D.Overlay className="fixed inset-0 z-40 bg-black/60" />
        <D.Content className="fixed left-1/2 top-1/2 z-50 max-h-[90dvh] w-[calc(100vw-2rem)] max-w-lg -translate-x-1/2 -translate-y-1/2 overflow-y-auto rounded-xl border border-border bg-surface p-6 text-foreground shadow-2xl">
          <div className="mb-4 flex items-start justify-between gap-4">
            <D.Title className="text-xl font-bold">{title}</D.Title>
            <CloseButton label="Close" className="p-1" />
          </div>
          {description ? (
            <D.Description className="mb-4 text-sm text-muted">{description}</D.Description>
          ) : (
            <D.Description className="sr-only">{title}</D.Description>
          )}
          {children}
        </D.Content>
      </D.Portal>
    </D.Root>
  );
}

/** The X that closes a modal or drawer (inside a Radix Dialog). */
export function CloseButton({ label, className }: { label: string; className?: string }) {
  return (
    <D.Close className={cn("rounded-md hover:bg-surface-2", className)} aria-label={label}>
      <X className="h-5 w-5" aria-hidden />
    </D.Close>
  );
}
