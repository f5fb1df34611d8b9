import { Toaster, toast } from "sonner";

/**
 * Toasts (docs/product-spec.md §9): in the dashboard area 2500 ms with an emoji icon (👏 success, 😢 error) on a
 * dark background with white text; elsewhere 5000 ms, success 3000 ms.
 */
export type ToastArea = "dashboard" | "page";

export function notify(kind: "success" | "error", message: string, area: ToastArea = "page") {
  // The same message again (two saves in a row) refreshes the toast on screen instead of stacking a copy.
  const id = `${kind}:${message}`;
  if (area === "dashboard") {
    const options = {
      id,
      duration: 2500,
      icon: <span aria-hidden>{kind === "success" ? "👏" : "😢"}</span>,
      style: { background: "#1e1f29", color: "#ffffff", border: "1px solid #44475a" },
    };
    return kind === "success" ? toast.success(message, options) : toast.error(message, options);
  }
  return kind === "success"
    ? toast.success(message, { id, duration: 3000 })
    : toast.error(message, { id, duration: 5000 });
}

export function AppToaster() {
  return <Toaster position="top-center" richColors closeButton />;
}
