import { Badge } from "~/components/ui/badge";
import { overdueLabel } from "~/domain/statement";
import { useToday } from "~/ui/root-data";
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

/** "Overdue · 20 days" for a debtor whose earliest open invoice is past due; nothing otherwise. */
export function OverdueBadge({ dueOn }: { dueOn: string | null }) {
  const label = overdueLabel(dueOn, useToday());
  return label ? <Badge tone="bad">{label}</Badge> : null;
}
