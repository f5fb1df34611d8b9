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
  /** What is still owed, in cents of `currency`. */
  owedCents: number;
  currency: string;
  /** What the debtor said, in words ("€600.50 on 20 November 2026 for INV-7 (reference RF18)"); null: nothing more than "I've paid". */
  said: string | null;
  /** What the form starts with: the amount they said (else what the invoices they named still owe, else all that is owed), their day, their one invoice. */
  prefillCents: number;
  paidOn: string | null;
  invoiceId: number | null;
  reference: string | null;
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
        {claim.said ? `${claim.fullName} says they paid ${claim.said}. ` : ""}
        {claim.fullName} still owes <strong>{owed}</strong>. Enter the payment you received, as your bank shows it: paid
        in full, their reminders stop. Less than {owed}: the payment is recorded and reminders go on for the rest.
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
          amountCents: Math.min(claim.prefillCents, claim.owedCents),
          note: claim.reference ? `${CONFIRMED_PAYMENT_NOTE} Reference: ${claim.reference}` : CONFIRMED_PAYMENT_NOTE,
          paidOn: claim.paidOn,
          invoiceId: claim.invoiceId,
          submitLabel: "Record payment",
          today,
        }}
      />
    </div>
  );
}
