import { Check } from "lucide-react";
import { requireUser } from "~/auth/guard.server";
import { Faq } from "~/components/faq";
import { buttonVariants } from "~/components/ui/variants";
import { getApp } from "~/lib/context.server";
import { pricingFaq } from "~/lib/faq";
import { plans } from "~/lib/plans";
import { pageMeta } from "~/lib/site";
import type { Route } from "./+types/pricing";

/** What a plan without a configured checkout page says (docs/architecture.md §10). */
const PLAN_UNAVAILABLE = "This plan cannot be bought yet.";

export async function loader({ context, url }: Route.LoaderArgs) {
  const user = requireUser(context, url);
  const { config } = getApp(context);
  return {
    // The plan Settings → Subscription names: marked here too, never offered again.
    currentPlan: user.plan,
    plans: plans.map(({ checkoutVar, ...plan }) => ({ ...plan, checkoutUrl: config[checkoutVar] ?? null })),
  };
}

export default function Pricing({ loaderData }: Route.ComponentProps) {
  return (
    <>
      <section className="mx-auto max-w-6xl px-4 py-12">
        <h1 className="text-center text-4xl font-black">Pricing</h1>
        <p className="mt-3 text-center text-muted">Pick the strategy that fits your debtors.</p>
        <div className="mt-10 grid gap-6 md:grid-cols-3">
          {loaderData.plans.map((plan) => {
            const current = plan.id === loaderData.currentPlan;
            return (
              <article
                key={plan.id}
                aria-labelledby={`plan-${plan.id}`}
                aria-current={current ? "true" : undefined}
                className={`relative flex flex-col rounded-2xl border bg-surface p-6 ${
                  current || plan.popular ? "border-primary shadow-lg shadow-primary/20" : "border-border"
                }`}
              >
                {current && (
                  <p className="absolute -top-3 left-6 rounded-full bg-primary px-3 py-0.5 text-xs font-semibold text-primary-foreground">
                    Your plan
                  </p>
                )}
                <h2 id={`plan-${plan.id}`} className="text-2xl font-bold">
                  {plan.name}
                </h2>
                <p className="mt-1 text-sm uppercase tracking-wide text-accent">{plan.tagline}</p>
                <p className="mt-6">
                  <span className="text-5xl font-black">${plan.price}</span>
                  <span className="text-muted">/month</span>
                </p>
                <ul className="mt-6 flex flex-1 flex-col gap-2">
                  {plan.features.map((f) => (
                    <li key={f} className="flex items-start gap-2">
                      <Check className="mt-0.5 h-4 w-4 shrink-0 text-success" aria-hidden />
                      {f}
                    </li>
                  ))}
                </ul>
                {current ? (
                  <p className="mt-8 text-center text-sm font-medium" data-testid="current-plan">
                    You are on this plan.
                  </p>
                ) : plan.checkoutUrl ? (
                  <a
                    href={plan.checkoutUrl}
                    rel="noopener noreferrer"
                    className={buttonVariants({
                      variant: plan.popular ? "primary" : "outline",
                      size: "lg",
                      className: "mt-8",
                    })}
                  >
                    Subscribe<span className="sr-only"> to {plan.name}</span>
                  </a>
                ) : (
                  // No checkout page configured: say so rather than link to an address that does not exist.
                  <div className="mt-8 flex flex-col gap-2">
                    <button
                      type="button"
                      disabled
                      aria-describedby={`plan-${plan.id}-unavailable`}
                      className={buttonVariants({
                        variant: "outline",
                        size: "lg",
                        className: "cursor-not-allowed opacity-60",
                      })}
                    >
                      Subscribe<span className="sr-only"> to {plan.name}</span>
                    </button>
                    <p id={`plan-${plan.id}-unavailable`} className="text-sm text-muted">
                      {PLAN_UNAVAILABLE}
                    </p>
                  </div>
                )}
              </article>
            );
          })}
        </div>
      </section>
      <Faq id="pricing-faq" title="Frequently asked questions" items={pricingFaq} />
    </>
  );
}

export const meta: Route.MetaFunction = () => pageMeta("Pricing");
