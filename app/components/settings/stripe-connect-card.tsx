import { Button } from "~/components/ui/button";

/** What Settings knows of the user's connected Stripe account (app/ledger/online/stripe-account.server.ts). */
export interface StripeConnectView {
  /** Stripe is set up in this deployment (production without a key: nothing is paid online). */
  available: boolean;
  status: "none" | "onboarding" | "ready";
  accountId: string | null;
}

/**
 * Settings → Info, "Get paid online" (decisions/018): connect
 * the user's own Stripe account through Stripe's hosted onboarding, see its state, disconnect it.
 * Plain forms (each is a full-page POST: Connect leaves for Stripe's pages).
 */
export function StripeConnectCard({ stripe }: { stripe: StripeConnectView }) {
  return (
    <section aria-labelledby="stripe-connect-title" className="rounded-xl border border-border bg-surface p-6">
      <h2 id="stripe-connect-title" className="text-xl font-semibold">
        Get paid online
      </h2>
      <p className="mt-1 text-sm text-muted">
        Connect your own Stripe account and your debtors pay by card or bank from their statement and every reminder.
        The money goes straight to your Stripe account, which carries its fees, refunds and disputes; Dunly records each
        payment against the invoices and stops the reminders.
      </p>
      {!stripe.available ? (
        <p className="mt-4 text-sm">Paying online is not available here yet: reminders use your payment link.</p>
      ) : stripe.status === "none" ? (
        <form method="post" action="/iam/stripe/connect" className="mt-4">
          <Button type="submit">Connect with Stripe</Button>
        </form>
      ) : (
        <div className="mt-4 flex flex-col gap-3">
          <p role="status" data-testid="stripe-status">
            {stripe.status === "ready" ? (
              <strong>Ready to take payments</strong>
            ) : (
              <strong>Onboarding incomplete</strong>
            )}
            <span className="ml-2 break-all text-sm text-muted">{stripe.accountId}</span>
          </p>
          {stripe.status === "onboarding" && (
            <p className="text-sm text-muted">
              Stripe needs more details before your debtors can pay you. Until then reminders use your payment link.
            </p>
          )}
          <div className="flex flex-wrap gap-2">
            {stripe.status === "onboarding" && (
              <form method="post" action="/iam/stripe/connect">
                <Button type="submit">Continue onboarding</Button>
              </form>
            )}
            <form method="post" action="/iam/stripe/disconnect">
              <Button type="submit" variant="outline">
                Disconnect
              </Button>
            </form>
          </div>
          <p className="text-sm text-muted">
            Disconnecting stops online payments from Dunly; payments already received stay recorded.
          </p>
        </div>
      )}
    </section>
  );
}
