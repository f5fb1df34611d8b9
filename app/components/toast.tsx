import { Suspense, useSyncExternalStore } from "react";
import { notOnServer, onDemand } from "~/components/on-demand";
import type { ToastArea, ToastEntry } from "./toast-list";

/**
 * Toasts (docs/product-spec.md §9): in the dashboard area 2500 ms with a cheerful icon for success and a sad
 * face for an error (drawn as SVG: an emoji glyph depends on the fonts installed) on a dark background with
 * white text; elsewhere 5000 ms, success 3000 ms.
 *
 * A toaster of our own, about a tenth of a toast library's code (docs/decisions/027-what-loads-on-interaction.md).
 * Its live region is part of every page, in the server's HTML, so it exists before the first toast
 * and screen readers announce every toast added to it (a live region created together with its first
 * message is often not announced). The toasts' own code (toast-list.tsx: icons, timers, the close
 * button) is fetched by the first toast; if it cannot be, the message is still shown and announced. The same message again (two saves
 * in a row) replaces the toast on screen with a new one, which is announced again. A toast stays while
 * the pointer is over it or the focus is in it (its close button), and the close button dismisses it.
 */
export type { ToastArea } from "./toast-list";

/** As many as fit above the page without covering it (a toast library's usual three). */
const VISIBLE = 3;
const NONE: ToastEntry[] = [];

let toasts: ToastEntry[] = NONE;
let serial = 0;
const listeners = new Set<() => void>();
function setToasts(next: ToastEntry[]) {
  toasts = next;
  for (const listener of listeners) listener();
}
function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
function dismiss(key: number) {
  setToasts(toasts.filter((t) => t.key !== key));
}

const toastList = onDemand(
  () => (import.meta.env.SSR ? notOnServer() : import("~/components/toast-list").then((m) => m.ToastList)),
  // The chunk could not be fetched: the bare messages (the last three), still shown and announced.
  ({ toasts: list }) => list.map((toast) => <li key={toast.key}>{toast.message}</li>),
);

export function notify(kind: "success" | "error", message: string, area: ToastArea = "page") {
  const id = `${kind}:${message}`;
  const duration = area === "dashboard" ? 2500 : kind === "success" ? 3000 : 5000;
  serial += 1;
  toastList.preload();
  setToasts([...toasts.filter((t) => t.id !== id), { key: serial, id, kind, message, area, duration }].slice(-VISIBLE));
}

/** The toasts' live region, always on the page (rendered by the root layout). */
export function AppToaster() {
  const list = useSyncExternalStore(
    subscribe,
    () => toasts,
    () => NONE,
  );
  return (
    <section
      aria-label="Notifications"
      aria-live="polite"
      aria-relevant="additions text"
      // react-aria's popovers (the date picker) hide the rest of the page from screen readers while
      // open, except what carries this mark: a toast raised meanwhile is still heard.
      data-react-aria-top-layer
      className="pointer-events-none fixed inset-x-0 top-4 z-[100] flex justify-center px-4"
    >
      <ol className="flex w-full max-w-sm flex-col gap-2">
        {list.length > 0 && (
          <Suspense fallback={null}>
            <toastList.Lazy toasts={list} onDismiss={dismiss} />
          </Suspense>
        )}
      </ol>
    </section>
  );
}
