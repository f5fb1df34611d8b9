import { X } from "lucide-react";
import { Dialog as D } from "radix-ui";
import { type ReactNode, useLayoutEffect, useRef, useState } from "react";
import { cn } from "~/ui/class-names";
import { ModalContainer } from "./modal-container";

/** The first field to type in or choose from (one marked data-autofocus first), which takes the focus when a dialog opens. */
const FIRST_FIELD =
  "[data-autofocus], input:not([type=hidden]):not([type=radio]):not([type=checkbox]):not(:disabled), select:not(:disabled), textarea:not(:disabled)";

/** Focuses the dialog's first field, now or (for a form that loads on demand) once it appears. */
function focusFirstField(content: HTMLElement, attempts = 60) {
  const field = content.querySelector<HTMLElement>(FIRST_FIELD);
  const active = document.activeElement;
  // The user moved on meanwhile (clicked or tabbed to something else than the close button).
  if (active && active !== content && content.contains(active) && !active.matches("[data-dialog-close]")) return;
  if (field) field.focus();
  else if (attempts > 0) requestAnimationFrame(() => focusFirstField(content, attempts - 1));
}

/**
 * Escape inside a popup of the dialog's own (a date picker's calendar, an open combobox) closes that
 * popup alone. Radix hears Escape first (on the document, capturing), so it must let it pass.
 */
function inNestedPopup(target: EventTarget | null) {
  return (
    target instanceof Element &&
    Boolean(
      target.closest('[data-trigger], [role="combobox"][aria-expanded="true"], [aria-haspopup][aria-expanded="true"]'),
    )
  );
}

/**
 * A centred modal on Radix Dialog (focus trap, Escape, labelled); scrolls on small screens. It
 * opens on its first field, and on closing gives the focus back to the control that opened it
 * (our modals open from state, without a Radix trigger that would remember it).
 */
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
  const [content, setContent] = useState<HTMLDivElement | null>(null);
  const opener = useRef<HTMLElement | null>(null);
  // Runs before Radix moves the focus into the dialog: what has the focus now opened it.
  useLayoutEffect(() => {
    if (open && document.activeElement instanceof HTMLElement && document.activeElement !== document.body) {
      opener.current = document.activeElement;
    }
  }, [open]);
  return (
    <D.Root open={open} onOpenChange={onOpenChange}>
      <D.Portal>
        <D.Overlay className="fixed inset-0 z-40 bg-black/60" />
        <D.Content
          ref={setContent}
          onOpenAutoFocus={(event) => {
            const element = event.currentTarget;
            if (!(element instanceof HTMLElement)) return;
            event.preventDefault();
            element.focus();
            focusFirstField(element);
          }}
          onCloseAutoFocus={(event) => {
            const back = opener.current;
            opener.current = null;
            if (!back?.isConnected) return;
            event.preventDefault();
            back.focus();
          }}
          onEscapeKeyDown={(event) => {
            if (inNestedPopup(event.target)) event.preventDefault();
          }}
          className="fixed left-1/2 top-1/2 z-50 max-h-[90dvh] w-[calc(100vw-2rem)] max-w-lg -translate-x-1/2 -translate-y-1/2 overflow-y-auto rounded-xl border border-border bg-surface p-6 text-foreground shadow-2xl"
        >
          <div className="mb-4 flex items-start justify-between gap-4">
            <D.Title className="text-xl font-bold">{title}</D.Title>
            <CloseButton label="Close" className="p-1" />
          </div>
          {description ? (
            <D.Description className="mb-4 text-sm text-muted">{description}</D.Description>
          ) : (
            <D.Description className="sr-only">{title}</D.Description>
          )}
          <ModalContainer.Provider value={content}>{children}</ModalContainer.Provider>
        </D.Content>
      </D.Portal>
    </D.Root>
  );
}

/** The X that closes a modal or drawer (inside a Radix Dialog). */
export function CloseButton({ label, className }: { label: string; className?: string }) {
  return (
    <D.Close className={cn("rounded-md hover:bg-surface-2", className)} aria-label={label} data-dialog-close>
      <X className="h-5 w-5" aria-hidden />
    </D.Close>
  );
}
