// The dashboard toasts' icons, loaded with sonner (toast.tsx), never with the page. Deep imports,
// not the "lucide-react" index: see the shell chunk in vite.config.ts.
import Frown from "lucide-react/icons/frown";
import PartyPopper from "lucide-react/icons/party-popper";

export function ToastIcon({ kind }: { kind: "success" | "error" }) {
  return kind === "success" ? (
    <PartyPopper className="h-4 w-4" aria-hidden />
  ) : (
    <Frown className="h-4 w-4" aria-hidden />
  );
}
