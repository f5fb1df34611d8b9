import { useState } from "react";
import { useFetcher } from "react-router";
import type { debtorAction } from "~/actions/debtor-action.server";
import { type ConfigureStep, ConfirmStep, DetailsStep } from "~/components/lists/configure-steps";
import { notify, type ToastArea } from "~/components/toast";
import { Modal } from "~/components/ui/dialog";
import { debtorLanguageLabel } from "~/domain/debtor-language";
import { formatMoney, fromCents } from "~/domain/money";
import { strategyLabel } from "~/domain/strategies";
import type { ActionResult } from "~/platform/action-result";
import { DEBTOR_INTENTS } from "~/schemas/intents";
import { useFormResult } from "~/ui/use-form-result";
import { DebtorBalance } from "./debtor-balance";
import { DebtorForm } from "./debtor-form";
import { DebtorInvoices } from "./debtor-invoices";
import { DebtorPayments } from "./debtor-payments";
import { DebtorStatusBadge } from "./debtor-status";
import { DebtorTimeline } from "./debtor-timeline";
import type { DebtorView } from "./debtor-view";
import { OptOutNotice, useConsentAnswer } from "./opt-out-notice";
import { useInvoices } from "./use-invoices";

function toastFor(data: ActionResult, area: ToastArea) {
  if (data.ok && data.message) notify("success", data.message, area);
  else if (data.message) notify("error", data.message, area);
}

/** 'Add a new debtor': the debtor form in a modal; it resets and closes after a save. */
export function AddDebtorModal({
  open,
  onOpenChange,
  area,
  accountCurrency,
  userLocale,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  area: ToastArea;
  accountCurrency: string;
  userLocale: string | null;
}) {
  return (
    <Modal open={open} onOpenChange={onOpenChange} title="Add a new debtor">
      <DebtorForm
        accountCurrency={accountCurrency}
        userLocale={userLocale}
        onDone={(data) => {
          toastFor(data, area);
          if (data.ok) onOpenChange(false);
        }}
      />
    </Modal>
  );
}

/**
 * The modal's Invoices and Payments sections: the invoices are loaded once for both (Payments'
 * "Apply to" lists the owed ones), again after an invoice write or when the debtor's balance or
 * open invoices change.
 */
function InvoicesAndPayments({ debtor, area }: { debtor: DebtorView; area: ToastArea }) {
  const { state, reload } = useInvoices(debtor.id, `${debtor.debtCents}:${debtor.paidCents}:${debtor.openInvoices}`);
  return (
    <>
      <div className="mt-6 border-t border-border pt-4">
        <DebtorInvoices
          debtor={debtor}
          state={state}
          onResult={(data) => toastFor(data, area)}
          onWritten={reload}
          onRetry={reload}
        />
      </div>
      <DebtorPayments
        debtor={debtor}
        invoices={state && "invoices" in state ? state.invoices : null}
        onResult={(data) => toastFor(data, area)}
      />
    </>
  );
}

/**
 * 'Configure debtor profile': details with Disable and Edit, then the debtor's invoices and
 * payments; Edit shows the form (Cancel returns), Disable asks 'Are you sure you want to delete
 * this debtor?' (Cancel returns, confirm deletes).
 */
export function ConfigureDebtorModal({
  debtor,
  onClose,
  area,
  userLocale,
}: {
  debtor: DebtorView | null;
  onClose: () => void;
  area: ToastArea;
  /** The user's number format (users.locale): a debtor without a language gets the user's. */
  userLocale: string | null;
}) {
  const [view, setView] = useState<ConfigureStep>("details");
  // Another debtor opens on its details (state reset during render, not in an effect).
  const [viewFor, setViewFor] = useState(debtor?.id);
  if (viewFor !== debtor?.id) {
    setViewFor(debtor?.id);
    setView("details");
  }
  useConsentAnswer(debtor?.id ?? 0, area);
  const deleter = useFetcher<typeof debtorAction>();
  useFormResult(deleter, [DEBTOR_INTENTS.remove], (data) => {
    toastFor(data, area);
    if (data.ok) onClose();
  });

  return (
    <Modal open={Boolean(debtor)} onOpenChange={(open) => !open && onClose()} title="Configure debtor profile">
      {debtor && view === "details" && (
        <>
          <DetailsStep onDisable={() => setView("disable")} onEdit={() => setView("edit")}>
            <dl className="grid grid-cols-[7rem_1fr] gap-x-4 gap-y-2 text-sm">
              <dt className="text-muted">Full Name</dt>
              <dd className="flex flex-wrap items-center gap-2 font-medium">
                {debtor.fullName} <DebtorStatusBadge status={debtor.status} />
              </dd>
              <dt className="text-muted">Email</dt>
              <dd className="break-all">{debtor.email}</dd>
              <dt className="text-muted">Debt</dt>
              <dd>{formatMoney(debtor.debtCents, debtor.currency)}</dd>
              <dt className="text-muted">Paid</dt>
              <dd>{formatMoney(debtor.paidCents, debtor.currency)}</dd>
              <dt className="text-muted">Owed</dt>
              <dd>
                <DebtorBalance debtor={debtor} show="owed" />
              </dd>
              <dt className="text-muted">Currency</dt>
              <dd>{debtor.currency}</dd>
              {debtor.invoiceNumber && (
                <>
                  <dt className="text-muted">Invoice</dt>
                  <dd className="break-all">{debtor.invoiceNumber}</dd>
                </>
              )}
              <dt className="text-muted">Strategy</dt>
              <dd>{strategyLabel(debtor.activeStrategy)}</dd>
              <dt className="text-muted">Time zone</dt>
              <dd className="break-all">{debtor.timeZone}</dd>
              <dt className="text-muted">Language</dt>
              <dd data-testid="debtor-language">{debtorLanguageLabel(debtor.language, userLocale)}</dd>
            </dl>
          </DetailsStep>
          {debtor.status === "opted_out" && <OptOutNotice debtorId={debtor.id} email={debtor.email} />}
          <InvoicesAndPayments debtor={debtor} area={area} />
          <DebtorTimeline debtor={debtor} />
        </>
      )}
      {debtor && view === "edit" && (
        <DebtorForm
          debtor={{
            id: debtor.id,
            kind: debtor.kind,
            full_name: debtor.fullName,
            email: debtor.email,
            debt: fromCents(debtor.debtCents),
            active_strategy: debtor.activeStrategy,
            time_zone: debtor.timeZone,
            language: debtor.language ?? null,
            invoice_number: debtor.invoiceNumber,
            currency: debtor.currency,
            single_invoice: debtor.singleInvoice,
            contact_name: debtor.contactName,
            contact_role: debtor.contactRole,
            late_charges: debtor.lateCharges ?? "account",
            phone: debtor.phone,
            text_consent_at: debtor.textConsentAt,
            text_consent_by: debtor.textConsentBy,
          }}
          userLocale={userLocale}
          onCancel={() => setView("details")}
          onDone={(data) => {
            toastFor(data, area);
            if (data.ok) onClose();
          }}
        />
      )}
      {debtor && view === "disable" && (
        <ConfirmStep
          fetcher={deleter}
          intent={DEBTOR_INTENTS.remove}
          id={debtor.id}
          message="Are you sure you want to delete this debtor?"
          confirmLabel="Delete"
          onCancel={() => setView("details")}
        />
      )}
    </Modal>
  );
}
