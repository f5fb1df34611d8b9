import { Link } from "react-router";
import { buttonVariants } from "~/components/ui/variants";

export interface SubscriptionView {
  planName: string | null;
  status: string | null;
  trial: boolean;
  trialEndsOn: string;
  periodEndsOn: string | null;
  cancelAtPeriodEnd: boolean;
  canManage: boolean;
  available: boolean;
  checkoutDone: boolean;
  confirmed: boolean;
}

const STATUS_WORDS: Record<string, string> = {
  active: "Active",
  trialing: "Active",
  past_due: "Payment failed: Stripe is trying the card again",
  canceled: "Ended",
  unpaid: "Unpaid",
  incomplete: "Waiting for the first payment",
  incomplete_expired: "Not started",
};

/**
 * Settings → Subscription (docs/decisions/019): the plan the account has now, its status, when it
 * renews or ends, the trial's end, and "Manage billing" (Stripe's billing portal: change plan,
 * update the card, cancel). What it says comes from Stripe's verified events only.
 */
export function SubscriptionPanel({ view, error }: { view: SubscriptionView; error: string | null }) {
  const subscribed = !view.trial && view.planName !== null && view.status !== null;
  return (
    <section aria-labelledby="subscription-title" className="rounded-xl border border-border bg-surface p-6">
      <h1 id="subscription-title" className="text-2xl font-bold">
        Your Subscription
      </h1>
      {view.checkoutDone && (
        <p role="status" className="mt-4 rounded-md border border-border bg-surface-2 p-3" data-testid="checkout-done">
          {view.confirmed
            ? `Thank you — you are on the ${view.planName} plan.`
            : "Thank you — your plan is being confirmed. This page shows it as soon as Stripe tells us."}
        </p>
      )}
      {view.planName ? (
        <p className="mt-4" data-testid="subscription-plan">
          You are on the <strong>{view.planName}</strong> plan{view.trial ? " (free trial)" : ""}.
        </p>
      ) : (
        <p className="mt-4" data-testid="subscription-plan">
          You have no plan: your trial has ended, so reminders are on hold. Nothing was deleted; choose a plan to resume
          them.
        </p>
      )}
      <dl className="mt-4 grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1 text-sm">
        {view.status && (
          <>
            <dt className="text-muted">Status</dt>
            <dd data-testid="subscription-status">{STATUS_WORDS[view.status] ?? view.status}</dd>
          </>
        )}
        {subscribed && view.periodEndsOn && (
          <>
            <dt className="text-muted">
              {view.cancelAtPeriodEnd ? "Ends on" : view.status === "trialing" ? "Billing starts on" : "Renews on"}
            </dt>
            <dd data-testid="subscription-period">{view.periodEndsOn}</dd>
          </>
        )}
        {view.trial && (
          <>
            <dt className="text-muted">Trial ends on</dt>
            <dd data-testid="trial-end">{view.trialEndsOn}</dd>
          </>
        )}
      </dl>
      {subscribed && view.status === "trialing" && !view.cancelAtPeriodEnd && (
        <p className="mt-3 text-sm" data-testid="billing-starts">
          You subscribed during your free trial: its days are kept, and nothing is charged before {view.periodEndsOn}.
        </p>
      )}
      {subscribed && view.cancelAtPeriodEnd && (
        <p className="mt-3 text-sm">
          Your subscription is cancelled and ends on {view.periodEndsOn}. Until then nothing changes; after it,
          reminders hold until you choose a plan.
        </p>
      )}
      {view.trial && (
        <p className="mt-3 text-sm text-muted">
          Your free trial of Medium ends on {view.trialEndsOn}. Choose a plan before then to keep reminders going:
          billing starts when the trial ends, not when you subscribe.
        </p>
      )}
      {!view.available && <p className="mt-3 text-sm">Plans cannot be bought yet.</p>}
      {error && (
        <p role="alert" className="mt-3 text-sm text-danger">
          {error}
        </p>
      )}
      <div className="mt-6 flex flex-wrap items-center gap-4">
        {view.canManage && (
          <form method="post">
            <button type="submit" className={buttonVariants({ variant: "primary" })}>
              Manage billing
            </button>
          </form>
        )}
        <Link to="/pricing" className="text-primary underline">
          See all plans on the pricing page
        </Link>
      </div>
      {view.canManage && (
        <p className="mt-2 text-sm text-muted">
          Manage billing opens Stripe's billing portal: change your plan, update your card or cancel.
        </p>
      )}
    </section>
  );
}
