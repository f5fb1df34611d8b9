import { BadgeCheck } from "lucide-react";
import { useFetcher } from "react-router";
import { notify } from "~/components/toast";
import { SubmitButton } from "~/components/ui/button";
import { formatDay } from "~/domain/time-zone";
import { PAID_CLAIM_INTENTS } from "~/entities/intents";
import { useFormResult } from "~/lib/use-form-result";
import type { debtorAction } from "~/routes/debtor-action.server";

const { confirm: CONFIRM, resume: RESUME } = PAID_CLAIM_INTENTS;

/** A debtor who said "I've paid", as the dashboard's loader lists them. */
export interface PaidClaimView {
  id: number;
  fullName: string;
  paidClaimedAt: number;
}

/**
 * Debtors who clicked "I've paid" in a reminder (docs/architecture.md §10): their reminders are paused
 * until the user confirms the payment (recorded as a payment of what is still owed) or resumes
 * the reminders.
 */
export function PaidClaimsNotice({ claims, timeZone }: { claims: PaidClaimView[]; timeZone: string }) {
  if (claims.length === 0) return null;
  return (
    <section
      aria-labelledby="paid-claims-heading"
      className="flex flex-col gap-3 rounded-xl border border-success bg-surface p-4"
      data-testid="paid-claims-notice"
    >
      <div className="flex items-start gap-2">
        <BadgeCheck className="mt-0.5 h-5 w-5 shrink-0 text-success" aria-hidden />
        <h2 id="paid-claims-heading" className="text-sm font-medium">
          {claims.length === 1
            ? "A debtor says they have paid: their reminders are paused."
            : `${claims.length} debtors say they have paid: their reminders are paused.`}
        </h2>
      </div>
      <ul className="flex flex-col gap-3">
        {claims.map((claim) => (
          <ClaimRow key={claim.id} claim={claim} timeZone={timeZone} />
        ))}
      </ul>
    </section>
  );
}

function ClaimRow({ claim, timeZone }: { claim: PaidClaimView; timeZone: string }) {
  const fetcher = useFetcher<typeof debtorAction>();
  const busy = fetcher.state !== "idle";
  const pending = fetcher.formData?.get("intent");
  const reply = useFormResult(fetcher, [CONFIRM, RESUME], (data) => {
    if (data.message) notify(data.ok ? "success" : "error", data.message, "dashboard");
  });
  const textId = `paid-claim-${claim.id}`;
  return (
    <li className="flex flex-col gap-2 rounded-lg border border-border bg-background p-3 sm:flex-row sm:items-center sm:justify-between">
      <p id={textId} className="break-words text-sm">
        <strong>{claim.fullName}</strong> says they have paid ({formatDay(claim.paidClaimedAt, timeZone)}).
      </p>
      <fetcher.Form method="post" className="flex flex-wrap gap-2">
        <input type="hidden" name="debtor_id" value={claim.id} />
        <SubmitButton
          name="intent"
          value={CONFIRM}
          size="sm"
          busy={busy && pending === CONFIRM}
          disabled={busy}
          aria-describedby={textId}
        >
          Confirm payment
        </SubmitButton>
        <SubmitButton
          name="intent"
          value={RESUME}
          size="sm"
          variant="outline"
          busy={busy && pending === RESUME}
          disabled={busy}
          aria-describedby={textId}
        >
          Resume reminders
        </SubmitButton>
      </fetcher.Form>
      {/* Without JavaScript the page comes back with the answer here. */}
      {reply && !reply.ok && reply.message && (
        <p role="alert" className="text-sm text-danger">
          {reply.message}
        </p>
      )}
    </li>
  );
}
