import { Suspense, useState } from "react";
import { SelectableTable } from "~/components/lists/selectable-table";
import { notOnServer, onDemand } from "~/components/on-demand";
import type { ToastArea } from "~/components/toast";
import { Button } from "~/components/ui/button";
import { strategyLabel } from "~/domain/strategies";
import { DEBTOR_INTENTS } from "~/schemas/intents";
import { DebtorBalance } from "./debtor-balance";
import { DebtorStatusBadge, OverdueBadge } from "./debtor-status";
import type { DebtorView } from "./debtor-view";
import { openInvoicesLabel } from "./open-invoices";

// The modals (Radix's dialog, the debtor form with conform and valibot, payments, the timeline) are
// a chunk of their own, fetched on first use (hover or focus of a button that opens one starts it).
const addModal = onDemand(() =>
  import.meta.env.SSR ? notOnServer() : import("./debtor-modals").then((m) => m.AddDebtorModal),
);
const configureModal = onDemand(() =>
  import.meta.env.SSR ? notOnServer() : import("./debtor-modals").then((m) => m.ConfigureDebtorModal),
);
const preloadModals = () => {
  addModal.preload();
  configureModal.preload();
};

/**
 * The line under a debtor's name: the address, how many invoices they still owe and, unless
 * active, the status: enough to tell two debtors of the same name apart.
 */
function Detail({ d }: { d: DebtorView }) {
  return (
    <div className="flex flex-wrap items-center gap-x-2 gap-y-1 text-muted">
      <span className="min-w-0 [overflow-wrap:anywhere]">{d.email}</span>
      <span data-testid="open-invoices">{`· ${openInvoicesLabel(d.openInvoices)}`}</span>
      <DebtorStatusBadge status={d.status} />
      {d.status === "active" && <OverdueBadge dueOn={d.oldestDueOn} />}
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
  accountCurrency,
  userLocale = null,
}: {
  debtors: DebtorView[];
  area: ToastArea;
  headingLevel?: 1 | 2;
  /** The account's currency (Settings → Info), which the Add Debtor form starts with. */
  accountCurrency: string;
  /** The user's number format (users.locale): a debtor without a language gets the user's. */
  userLocale?: string | null;
}) {
  const [adding, setAdding] = useState(false);
  const [configuringId, setConfiguringId] = useState<number | null>(null);
  const configuring = debtors.find((d) => d.id === configuringId) ?? null;
  // Once a modal has been opened they stay mounted (closing animates, the next opens at once).
  const [modalsUsed, setModalsUsed] = useState(false);
  if (!modalsUsed && (adding || configuring)) setModalsUsed(true);

  return (
    <SelectableTable
      headingId="debtors-heading"
      heading="Debtors"
      headingLevel={headingLevel}
      selectAllLabel="Select all debtors"
      items={debtors}
      idOf={(d) => d.id}
      nameOf={(d) => d.fullName}
      createAction={
        <Button onClick={() => setAdding(true)} onPointerEnter={preloadModals} onFocus={preloadModals}>
          Add Debtor
        </Button>
      }
      bulk={[
        { intent: DEBTOR_INTENTS.resend, label: "Re-send reminders" },
        { intent: DEBTOR_INTENTS.followCadence, label: "Follow the account cadence" },
        { intent: DEBTOR_INTENTS.pauseReminders, label: "Pause reminders" },
        { intent: DEBTOR_INTENTS.resumeReminders, label: "Resume reminders" },
      ]}
      bulkLinks={[
        {
          label: "Use another cadence",
          to: (ids) => `/debtors/cadence?${new URLSearchParams(ids.map((id) => ["ids", String(id)]))}`,
        },
      ]}
      area={area}
      emptyText="No debtors found"
      columns={[
        { label: "Emails sent", value: (d) => d.emailsSent },
        { label: "Receivables", value: (d) => <DebtorBalance debtor={d} show="paid" /> },
        { label: "Active strategy", value: (d) => strategyLabel(d.activeStrategy) },
      ]}
      detail={(d) => <Detail d={d} />}
      // Selecting the same debtor again deselects it (closes its modal).
      onConfigure={(id) => setConfiguringId((current) => (current === id ? null : id))}
      onConfigureIntent={preloadModals}
    >
      {(modalsUsed || adding || configuring) && (
        <Suspense fallback={null}>
          <addModal.Lazy
            open={adding}
            onOpenChange={setAdding}
            area={area}
            accountCurrency={accountCurrency}
            userLocale={userLocale}
          />
          <configureModal.Lazy
            debtor={configuring}
            onClose={() => setConfiguringId(null)}
            area={area}
            userLocale={userLocale}
          />
        </Suspense>
      )}
    </SelectableTable>
  );
}
