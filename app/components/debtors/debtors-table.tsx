import { Settings2 } from "lucide-react";
import { useState } from "react";
import { BulkSendButton } from "~/components/bulk-send-button";
import type { ToastArea } from "~/components/toast";
import { Button } from "~/components/ui/button";
import { SelectAllCheckbox } from "~/components/ui/select-all-checkbox";
import { formatMoney } from "~/domain/money";
import { strategyLabel } from "~/domain/strategies";
import { toggleAll, toggleOne } from "~/lib/selection";
import { AddDebtorModal, ConfigureDebtorModal } from "./debtor-modals";
import type { DebtorView } from "./debtor-view";

function Receivables({ d }: { d: DebtorView }) {
  return (
    <span>
      <span className="text-success">{formatMoney(d.paidCents, d.currency)}</span>
      <span className="text-muted"> / </span>
      {formatMoney(d.debtCents, d.currency)}
    </span>
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
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const [adding, setAdding] = useState(false);
  const [configuringId, setConfiguringId] = useState<number | null>(null);
  const configuring = debtors.find((d) => d.id === configuringId) ?? null;
  const ids = debtors.map((d) => d.id);
  const selectedIds = ids.filter((id) => selected.has(id));
  const someSelected = selectedIds.length > 0;
  const Heading = headingLevel === 1 ? "h1" : "h2";
  // Selecting the same debtor again deselects it (closes its modal).
  const configure = (id: number) => setConfiguringId((current) => (current === id ? null : id));

  return (
    <section aria-labelledby="debtors-heading" className="rounded-xl border border-border bg-surface p-4 sm:p-6">
      <div className="mb-4 flex flex-wrap items-center justify-between gap-3">
        <div className="flex items-center gap-3">
          <SelectAllCheckbox
            label="Select all debtors"
            total={ids.length}
            selectedCount={selectedIds.length}
            onToggle={() => setSelected((s) => toggleAll(s, ids))}
          />
          <Heading id="debtors-heading" className="text-xl font-bold">
            Debtors
          </Heading>
        </div>
        {someSelected ? (
          <BulkSendButton
            intent="debtor-resend"
            label="Re-send reminders"
            ids={selectedIds}
            area={area}
            onDone={() => setSelected(new Set())}
          />
        ) : (
          <Button onClick={() => setAdding(true)}>Add Debtor</Button>
        )}
      </div>

      {debtors.length === 0 ? (
        <p className="py-8 text-center text-muted">No debtors found</p>
      ) : (
        <>
          <table className="hidden w-full text-left text-sm md:table">
            <thead className="border-b border-border text-muted">
              <tr>
                <th className="w-8 py-2">
                  <span className="sr-only">Selected</span>
                </th>
                <th className="py-2">Name</th>
                <th className="py-2">Emails sent</th>
                <th className="py-2">Receivables</th>
                <th className="py-2">Active strategy</th>
                <th className="py-2">
                  <span className="sr-only">Configure</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {debtors.map((d) => (
                <tr key={d.id} className="border-b border-border last:border-0">
                  <td className="py-3">
                    <input
                      type="checkbox"
                      className="h-4 w-4 accent-[var(--primary)]"
                      aria-label={`Select ${d.fullName}`}
                      checked={selected.has(d.id)}
                      onChange={() => setSelected((s) => toggleOne(s, d.id))}
                    />
                  </td>
                  <td className="py-3">
                    <div className="font-semibold">{d.fullName}</div>
                    <div className="text-muted">{d.email}</div>
                  </td>
                  <td className="py-3">{d.emailsSent}</td>
                  <td className="py-3">
                    <Receivables d={d} />
                  </td>
                  <td className="py-3">{strategyLabel(d.activeStrategy)}</td>
                  <td className="py-3 text-right">
                    <Button
                      variant="outline"
                      size="sm"
                      onClick={() => configure(d.id)}
                      aria-label={`Configure ${d.fullName}`}
                    >
                      <Settings2 className="h-4 w-4" aria-hidden /> Configure
                    </Button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <ul className="flex flex-col gap-3 md:hidden" aria-label="Debtors">
            {debtors.map((d) => (
              <li key={d.id} className="rounded-lg border border-border bg-background p-4">
                <div className="flex items-start gap-3">
                  <input
                    type="checkbox"
                    className="mt-1 h-4 w-4 accent-[var(--primary)]"
                    aria-label={`Select ${d.fullName}`}
                    checked={selected.has(d.id)}
                    onChange={() => setSelected((s) => toggleOne(s, d.id))}
                  />
                  <div className="min-w-0 flex-1">
                    <div className="font-semibold">{d.fullName}</div>
                    <div className="truncate text-sm text-muted">{d.email}</div>
                    <dl className="mt-2 grid grid-cols-2 gap-1 text-sm">
                      <dt className="text-muted">Emails sent</dt>
                      <dd>{d.emailsSent}</dd>
                      <dt className="text-muted">Receivables</dt>
                      <dd>
                        <Receivables d={d} />
                      </dd>
                      <dt className="text-muted">Active strategy</dt>
                      <dd>{strategyLabel(d.activeStrategy)}</dd>
                    </dl>
                  </div>
                </div>
                <Button
                  variant="outline"
                  size="sm"
                  className="mt-3 w-full"
                  onClick={() => configure(d.id)}
                  aria-label={`Configure ${d.fullName}`}
                >
                  <Settings2 className="h-4 w-4" aria-hidden /> Configure
                </Button>
              </li>
            ))}
          </ul>
        </>
      )}
      <AddDebtorModal open={adding} onOpenChange={setAdding} area={area} />
      <ConfigureDebtorModal debtor={configuring} onClose={() => setConfiguringId(null)} area={area} />
    </section>
  );
}
