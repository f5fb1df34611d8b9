import type { Invoice } from "~/components/debtors/invoice-view";
import { PaymentForm } from "~/components/debtors/payment-form";
import { formatMoney } from "~/domain/money";
import type { ActionResult } from "~/platform/action-result";
import { PAID_CLAIM_INTENTS } from "~/schemas/intents";
import { CONFIRMED_PAYMENT_NOTE } from "~/schemas/messages";

/** A debtor who said "I've paid", as the dashboard's loader lists them. */
export interface PaidClaimView {
  id: number;
  fullName: string;
  paidClaimedAt: number;
  /** What is still owed, in cents of `currency`: the amount the payment form starts with. */
  owedCents: number;
  currency: string;
}

/**
 * "Confirm payment": the debtor modal's payment form, prefilled with
 * what is still owed, the user's today and the confirmed-claim note. Nothing is recorded until the
 * user submits it. It says what happens to the reminders the claim paused: paid in full they
 * stop; paid in part they run again for the rest (once the claim is answered, no notice is left
 * to resume them from). The dashboard shows it in a dialog, or in the notice itself without
 * JavaScript (`today`: the date the server rendered it with).
 */
export function ConfirmPaymentForm({
  claim,
  invoices,
  today,
  onResult,
  onCancel,
}: {
  claim: PaidClaimView;
  invoices?: Invoice[] | null;
  today?: string;
  onResult: (data: ActionResult) => void;
  onCancel?: () => void;
}) {
  const owed = formatMoney(claim.owedCents, claim.currency);
  return (
    <div className="flex flex-col gap-3">
      <p className="text-sm" id={`confirm-payment-text-${claim.id}`}>
        {claim.fullName} still owes <strong>{owed}</strong>. Enter the payment you received: paid in full, their
        reminders stop. Less than {owed}: the payment is recorded and the reminders the claim paused start again for the
        rest.
      </p>
      <PaymentForm
        debtor={{ id: claim.id, currency: claim.currency }}
        maxCents={claim.owedCents}
        invoices={invoices}
        onResult={onResult}
        onCancel={onCancel}
        confirm={{
          intent: PAID_CLAIM_INTENTS.confirm,
          formId: `paid-claim-confirm-${claim.id}`,
          amountCents: claim.owedCents,
          note: CONFIRMED_PAYMENT_NOTE,
          submitLabel: "Record payment",
          today,
        }}
      />
    </div>
  );
}
