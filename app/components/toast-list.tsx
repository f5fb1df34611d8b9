// Deep imports, not the "lucide-react" index: see the shell chunk in vite.config.ts.
import CircleCheck from "lucide-react/icons/circle-check";
import CircleX from "lucide-react/icons/circle-x";
import Frown from "lucide-react/icons/frown";
import PartyPopper from "lucide-react/icons/party-popper";
import X from "lucide-react/icons/x";
import { useEffect, useRef } from "react";

export type ToastArea = "dashboard" | "page";

export interface ToastEntry {
  /** A new key for every toast shown, so a repeated message is a new element (and announced). */
  key: number;
  id: string;
  kind: "success" | "error";
  message: string;
  area: ToastArea;
  duration: number;
}

/**
 * The toasts themselves (toast.tsx keeps the live region they appear in): fetched with the first
 * toast, never with the page (docs/decisions/027-what-loads-on-interaction.md).
 */
export function ToastList({ toasts, onDismiss }: { toasts: ToastEntry[]; onDismiss: (key: number) => void }) {
  return toasts.map((toast) => <ToastItem key={toast.key} toast={toast} onDismiss={onDismiss} />);
}

const TONE = {
  dashboard: "border-[#44475a] bg-[#1e1f29] text-white",
  success: "border-success bg-surface text-success",
  error: "border-danger bg-surface text-danger",
} as const;

function ToastItem({ toast, onDismiss }: { toast: ToastEntry; onDismiss: (key: number) => void }) {
  const item = useRef<HTMLLIElement>(null);
  // The time left, paused while the pointer is over the toast or the focus is in it.
  useEffect(() => {
    const element = item.current;
    if (!element) return;
    let left = toast.duration;
    let started = Date.now();
    let timer: ReturnType<typeof setTimeout> | undefined = setTimeout(() => onDismiss(toast.key), left);
    const holders = new Set<string>();
    const hold = (why: string) => () => {
      holders.add(why);
      if (timer === undefined) return;
      clearTimeout(timer);
      timer = undefined;
      left -= Date.now() - started;
    };
    const release = (why: string) => () => {
      holders.delete(why);
      if (holders.size > 0 || timer !== undefined) return;
      started = Date.now();
      timer = setTimeout(() => onDismiss(toast.key), Math.max(left, 1000));
    };
    const handlers: [string, () => void][] = [
      ["pointerenter", hold("pointer")],
      ["pointerleave", release("pointer")],
      ["focusin", hold("focus")],
      ["focusout", release("focus")],
    ];
    for (const [event, handler] of handlers) element.addEventListener(event, handler);
    return () => {
      clearTimeout(timer);
      for (const [event, handler] of handlers) element.removeEventListener(event, handler);
    };
  }, [toast, onDismiss]);
  const dashboard = toast.area === "dashboard";
  const Icon = dashboard
    ? toast.kind === "success"
      ? PartyPopper
      : Frown
    : toast.kind === "success"
      ? CircleCheck
      : CircleX;
  return (
    <li
      ref={item}
      data-toast={toast.kind}
      className={`toast-in pointer-events-auto flex items-center gap-2 rounded-lg border px-4 py-3 text-sm shadow-lg ${TONE[dashboard ? "dashboard" : toast.kind]}`}
    >
      <Icon className="h-4 w-4 shrink-0" aria-hidden />
      <span className="flex-1 break-words">{toast.message}</span>
      <button
        type="button"
        aria-label="Close toast"
        onClick={() => onDismiss(toast.key)}
        className="-mr-1 rounded p-1 opacity-80 hover:opacity-100"
      >
        <X className="h-4 w-4" aria-hidden />
      </button>
    </li>
  );
}
