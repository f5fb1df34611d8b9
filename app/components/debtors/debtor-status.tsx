import { Badge } from "~/components/ui/badge";
import type { DebtorView } from "./debtor-view";

const STATUS: Record<Exclude<DebtorView["status"], "active">, { label: string; tone: "good" | "neutral" | "bad" }> = {
  paid: { label: "Paid", tone: "good" },
  opted_out: { label: "Opted out", tone: "neutral" },
  bouncing: { label: "Bouncing", tone: "bad" },
};

/** The debtor's status as a badge ('Paid', 'Opted out', 'Bouncing'); nothing for an active debtor. */
export function DebtorStatusBadge({ status }: { status: DebtorView["status"] }) {
  if (status === "active") return null;
  const s = STATUS[status];
  if (!s) return null;
  return <Badge tone={s.tone}>{s.label}</Badge>;
}
