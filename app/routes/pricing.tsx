import { Check } from "lucide-react";
import { data, redirect } from "react-router";
import { getApp, sessionUser } from "~/auth/context.server";
import { requireUser } from "~/auth/guard.server";
import { checkoutUrl } from "~/billing/index.server";
import { Faq } from "~/components/faq";
import { RouteError } from "~/components/route-error";
import { buttonVariants } from "~/components/ui/variants";
import { getDb } from "~/db/client.server";
import { formatDate } from "~/domain/dates";
import { effectivePlan, inTrial, isPlanId, PLANS, planFeatures, TRIAL_DAYS, trialEnd } from "~/domain/plans";
import { accountCaps, appOrigin } from "~/platform/config.server";
import { requestNumberLocale } from "~/platform/locale.server";
import { stripeSetup } from "~/stripe/index.server";
import { pricingFaq } from "~/ui/faq";
import { pageMeta } from "~/ui/site";
import type { Route } from "./+types/pricing";

/** What Subscribe says where nothing can be sold (production without Stripe: docs/decisions/019). */
const PLANS_UNAVAILABLE = "Plans cannot be bought yet.";
/** A visitor's way in: sign in (a new address makes an account), then the welcome page. */
const START_TRIAL = "/404?redirectTo=%2Fwelcome";
const CHECKOUT_FAILED = "Stripe could not start the checkout. Nothing was charged; please try again.";

/**
 * The plans: public. A visitor sees them with "Start free trial" (sign-in, then the welcome page);
 * a signed-in user sees their plan or trial and subscribes.
 */
export async function loader({ context, request }: Route.LoaderArgs) {
  const user = await sessionUser(context);
  const { env, config } = getApp(context);
  const now = Date.now();
  const current = user ? effectivePlan(user, now) : null;
  const trial = user ? inTrial(user, now) : false;
  return {
    signedIn: user !== null,
    // The plan Settings → Subscription names: marked here too (its card offers the portal instead).
    currentPlan: current?.id ?? null,
    trialEndsOn:
      user && trial
        ? formatDate(new Date(trialEnd(user)).toISOString().slice(0, 10), requestNumberLocale(request, user))
        : null,
    subscribed: user !== null && !trial && current !== null,
    available: stripeSetup(config, env) !== null,
    plans: PLANS.map((p) => ({
      id: p.id,
      name: p.name,
      tagline: p.tagline,
      price: p.price,
      popular: p.popular,
      features: planFeatures(p, accountCaps(config).debtors),
    })),
  };
}

/** Subscribe (docs/decisions/019): a Checkout Session for the signed-in user, or the portal when subscribed. */
export async function action({ context, request, url }: Route.ActionArgs) {
  const user = await requireUser(context, url);
  const { env, config } = getApp(context);
  const form = await request.formData();
  const plan = form.get("plan");
  if (!isPlanId(plan)) return data({ plan: null, error: "Choose one of the plans." }, { status: 400 });
  const stripe = stripeSetup(config, env);
  if (!stripe) return data({ plan, error: PLANS_UNAVAILABLE }, { status: 503 });
  let to: string;
  try {
    to = await checkoutUrl(stripe, getDb(env.DB), user, plan, appOrigin(config, url));
  } catch (error) {
    console.error("[dunly] checkout could not start", error);
    return data({ plan, error: CHECKOUT_FAILED }, { status: 502 });
  }
  throw redirect(to, 303);
}

export default function Pricing({ loaderData, actionData }: Route.ComponentProps) {
  const { currentPlan, subscribed, available, signedIn } = loaderData;
  return (
    <>
      <section className="mx-auto max-w-6xl px-4 py-12">
        <h1 className="text-center text-4xl font-black">Pricing</h1>
        <p className="mt-3 text-center text-muted">Pick the strategy that fits your debtors.</p>
        <p className="mt-2 text-center text-sm" data-testid="trial-note">
          {`Every new account starts with a ${TRIAL_DAYS}-day free trial of Medium.`}
          {loaderData.trialEndsOn
            ? ` Your trial ends on ${loaderData.trialEndsOn}: subscribe now and billing starts then, not today.`
            : ""}
        </p>
        <p className="mt-1 text-center text-sm text-muted">
          Prices are in USD, excluding VAT and sales tax; a business enters its VAT number at checkout.
        </p>
        {!available && (
          <p
            role="status"
            className="mx-auto mt-4 max-w-xl rounded-md border border-border bg-surface-2 p-3 text-center"
          >
            {PLANS_UNAVAILABLE}
          </p>
        )}
        <div className="mt-10 grid gap-6 md:grid-cols-3">
          {loaderData.plans.map((plan) => {
            const current = plan.id === currentPlan;
            const error = actionData?.plan === plan.id ? actionData.error : null;
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
                    {subscribed ? "Your plan" : "Your trial"}
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
                {!signedIn ? (
                  <a
                    href={START_TRIAL}
                    className={buttonVariants({
                      variant: plan.popular ? "primary" : "outline",
                      size: "lg",
                      className: "mt-8",
                    })}
                  >
                    Start free trial
                    <span className="sr-only">{` (${TRIAL_DAYS} days of Medium, then ${plan.name} if you choose it)`}</span>
                  </a>
                ) : current && subscribed ? (
                  <p className="mt-8 text-center text-sm font-medium" data-testid="current-plan">
                    You are on this plan.
                  </p>
                ) : (
                  <form method="post" className="mt-8 flex flex-col gap-2">
                    <input type="hidden" name="plan" value={plan.id} />
                    <button
                      type="submit"
                      disabled={!available}
                      aria-describedby={error || !available ? `plan-${plan.id}-note` : undefined}
                      className={buttonVariants({
                        variant: plan.popular ? "primary" : "outline",
                        size: "lg",
                        className: available ? "" : "cursor-not-allowed opacity-60",
                      })}
                    >
                      {subscribed ? "Switch" : "Subscribe"}
                      <span className="sr-only"> to {plan.name}</span>
                    </button>
                    {(error || !available) && (
                      <p id={`plan-${plan.id}-note`} role={error ? "alert" : undefined} className="text-sm text-muted">
                        {error ?? PLANS_UNAVAILABLE}
                      </p>
                    )}
                  </form>
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

export function ErrorBoundary() {
  return <RouteError message="We couldn't load the plans." />;
}

export const meta: Route.MetaFunction = () => pageMeta("Pricing");
