import { useState } from "react";
import { SelectableTable } from "~/components/lists/selectable-table";
import type { ToastArea } from "~/components/toast";
import { Button } from "~/components/ui/button";
import { formatMoney } from "~/domain/money";
import { strategyLabel } from "~/domain/strategies";
import { AddDebtorModal, ConfigureDebtorModal } from "./debtor-modals";
import { DebtorStatusBadge } from "./debtor-status";
import { type DebtorView, owedCents } from "./debtor-view";

/** Paid / debt, from the debtor's payments; screen readers hear what is still owed too. */
function Receivables({ d }: { d: DebtorView }) {
  return (
    <span>
      <span className="text-success">{formatMoney(d.paidCents, d.currency)}</span>
      <span className="text-muted"> / </span>
      {formatMoney(d.debtCents, d.currency)}
      <span className="sr-only">, {formatMoney(owedCents(d), d.currency)} still owed</span>
    </span>
  );
}

/** The line under a debtor's name: the address and, unless active, the status. */
function Detail({ d, className }: { d: DebtorView; className: string }) {
  return (
    <div className={className}>
      <span className="min-w-0 truncate">{d.email}</span>
      <DebtorStatusBadge status={d.status} />
    </div>
  );
}

/**
 * The debtors table (docs/product-spec.md §2): heading, select-all, 'Add Debtor' (or 'Re-send reminders' while
 * some are selected), rows with real e-mail counts and receivables, cards on narrow screens.
 */
export function DebtorsTable({
  debtors,
  area,
  headingLevel = 2,
}: {
  debtors: DebtorView[];
  area: ToastArea;
  headingLevel?: 1 | 2;
}) {
  const [adding, setAdding] = useState(false);
  const [configuringId, setConfiguringId] = useState<number | null>(null);
  const configuring = debtors.find((d) => d.id === configuringId) ?? null;

  return (
    <SelectableTable
      headingId="debtors-heading"
      heading="Debtors"
      headingLevel={headingLevel}
      selectAllLabel="Select all debtors"
      items={debtors}
      idOf={(d) => d.id}
      nameOf={(d) => d.fullName}
      createAction={<Button onClick={() => setAdding(true)}>Add Debtor</Button>}
      bulk={{ intent: "debtor-resend", label: "Re-send reminders" }}
      area={area}
      emptyText="No debtors found"
      columns={[
        { label: "Emails sent", value: (d) => d.emailsSent },
        { label: "Receivables", value: (d) => <Receivables d={d} /> },
        { label: "Active strategy", value: (d) => strategyLabel(d.activeStrategy) },
      ]}
      rowDetail={(d) => <Detail d={d} className="flex flex-wrap items-center gap-2 text-muted" />}
      cardDetail={(d) => <Detail d={d} className="flex items-center gap-2 text-sm text-muted" />}
      // Selecting the same debtor again deselects it (closes its modal).
      onConfigure={(id) => setConfiguringId((current) => (current === id ? null : id))}
    >
      <AddDebtorModal open={adding} onOpenChange={setAdding} area={area} />
      <ConfigureDebtorModal debtor={configuring} onClose={() => setConfiguringId(null)} area={area} />
    </SelectableTable>
  );
}
