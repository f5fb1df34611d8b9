import { Suspense, useEffect, useSyncExternalStore } from "react";
import { notOnServer, onDemand } from "~/components/on-demand";

/**
 * Toasts (docs/product-spec.md §9): in the dashboard area 2500 ms with a cheerful icon for success and a sad
 * face for an error (drawn as SVG: an emoji glyph depends on the fonts installed) on a dark background with
 * white text; elsewhere 5000 ms, success 3000 ms.
 *
 * sonner is not part of any page's first load (docs/architecture.md §11): it is fetched once the page is idle,
 * or by the first toast if that comes sooner. The toaster (sonner's live region) is mounted then, so it is on the
 * page before the toasts it announces; a toast raised before it mounted is shown when it does.
 */
export type ToastArea = "dashboard" | "page";

const sonner = () => (import.meta.env.SSR ? notOnServer() : import("sonner"));
const icons = () => (import.meta.env.SSR ? notOnServer() : import("~/components/toast-icons"));
const toaster = onDemand(() => sonner().then((m) => m.Toaster));

// Whether the toaster is wanted yet, for AppToaster (false on the server and during hydration).
let wanted = false;
const listeners = new Set<() => void>();
function wantToaster() {
  if (wanted) return;
  wanted = true;
  for (const listener of listeners) listener();
}
function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function notify(kind: "success" | "error", message: string, area: ToastArea = "page") {
  wantToaster();
  // The same message again (two saves in a row) refreshes the toast on screen instead of stacking a copy.
  const id = `${kind}:${message}`;
  void Promise.all([sonner(), icons()]).then(
    ([{ toast }, { ToastIcon }]) => {
      if (area === "dashboard") {
        const options = {
          id,
          duration: 2500,
          icon: <ToastIcon kind={kind} />,
          style: { background: "#1e1f29", color: "#ffffff", border: "1px solid #44475a" },
        };
        if (kind === "success") toast.success(message, options);
        else toast.error(message, options);
      } else if (kind === "success") toast.success(message, { id, duration: 3000 });
      else toast.error(message, { id, duration: 5000 });
    },
    (error: unknown) => console.error("[dunly] the toast could not be shown", message, error),
  );
}

export function AppToaster() {
  const show = useSyncExternalStore(
    subscribe,
    () => wanted,
    () => false,
  );
  useEffect(() => {
    if (typeof requestIdleCallback === "function") {
      const handle = requestIdleCallback(wantToaster, { timeout: 2000 });
      return () => cancelIdleCallback(handle);
    }
    const timer = setTimeout(wantToaster, 200);
    return () => clearTimeout(timer);
  }, []);
  return show ? (
    <Suspense fallback={null}>
      <toaster.Lazy position="top-center" richColors closeButton />
    </Suspense>
  ) : null;
}
