import { useInvoices } from "~/components/debtors/use-invoices";
import { Modal } from "~/components/ui/dialog";
import type { ActionResult } from "~/platform/action-result";
import { ConfirmPaymentForm, type PaidClaimView } from "./confirm-payment-form";

/**
 * The dialog of the notice's "Confirm payment": opens on
 * the amount, Escape or Cancel closes it with nothing recorded. The debtor's invoices load from
 * GET /api/debtors/:id/invoices for "Apply to", as in the debtor's modal.
 */
export function ConfirmPaymentDialog({
  claim,
  open,
  onOpenChange,
  onResult,
}: {
  claim: PaidClaimView;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onResult: (data: ActionResult) => void;
}) {
  const { state } = useInvoices(claim.id, "");
  const invoices = state && "invoices" in state ? state.invoices : null;
  return (
    <Modal open={open} onOpenChange={onOpenChange} title={`Confirm the payment of ${claim.fullName}`}>
      <ConfirmPaymentForm claim={claim} invoices={invoices} onResult={onResult} onCancel={() => onOpenChange(false)} />
    </Modal>
  );
}
