import { lazy, Suspense } from "react";
import { data, redirect } from "react-router";
import { signedImageUrl } from "~/account/index.server";
import { cadenceAction } from "~/actions/cadence-action.server";
import { organizationAction } from "~/actions/organization-action.server";
import { profileAction } from "~/actions/profile-action.server";
import { getApp } from "~/auth/context.server";
import { requireUser, requireUserWith } from "~/auth/guard.server";
import { infoSettingsOf, infoSettingsQuery } from "~/auth/index.server";
import { noWayToPay, waysToPayQuery } from "~/bank/index.server";
import { getBilling, portalUrl } from "~/billing/index.server";
import { PasswordForm } from "~/components/password-form";
import { RouteError } from "~/components/route-error";
import { type AutopilotReview, CadenceSettings, type CadenceView } from "~/components/settings/cadence-settings";
import { ContactRulesForm } from "~/components/settings/contact-rules-form";
import { DefaultCurrencyForm } from "~/components/settings/default-currency-form";
import { EmailLog, type EmailLogRow } from "~/components/settings/email-log";
import { NoticesForm } from "~/components/settings/notices-form";
import { OrgManager } from "~/components/settings/org-manager";
import { PaymentLinkForm } from "~/components/settings/payment-link-form";
import { ProfileInfo } from "~/components/settings/profile-info";
import { SETTINGS_TABS, type SettingsTab, SettingsTabs } from "~/components/settings/settings-tabs";
import { StripeConnectCard } from "~/components/settings/stripe-connect-card";
import { YourData } from "~/components/settings/your-data";
import { type Db, getDb } from "~/db/client.server";
import { OWNER_ID, preparedQuery, SESSION_OWNER } from "~/db/prepared.server";
import { textSettingsOf } from "~/db/text-allowance";
import { listOrganizations } from "~/debtors/index.server";
import { formatDate, formatDateTime } from "~/domain/dates";
import { numberFormatChoices } from "~/domain/format-choices";
import { pageCount, pageOffset, parsePage } from "~/domain/list-params";
import { effectivePlan, inTrial, planName, trialEnd } from "~/domain/plans";
import { localDateString } from "~/domain/schedule-time";
import { accountRowQuery, stripeConnectView } from "~/ledger/index.server";
import { EMAIL_MAX_ATTEMPTS, listEmails } from "~/mail/index.server";
import { appOrigin } from "~/platform/config.server";
import { requestNumberLocale } from "~/platform/locale.server";
import { requestTimeZone } from "~/platform/time-zone.server";
import { autopilotSummary, countFollowers, getAccountCadence } from "~/reminders/index.server";
import { stripeSetup } from "~/stripe/index.server";
import { textsAvailable } from "~/texts/index.server";
import { pageMeta } from "~/ui/site";
import type { Route } from "./+types/settings";

/** This route's tabs: every one but those that are routes of their own (routes/settings-bank.tsx, settings-templates.tsx, settings-brand.tsx, settings-domain.tsx). */
type Tab = Exclude<SettingsTab, (typeof OWN_ROUTES)[number]>;
/** Tabs that are routes of their own. */
const OWN_ROUTES = ["bank", "templates", "brand", "domain", "accounting", "charges", "texts"] as const;
const TABS = SETTINGS_TABS.filter(
  (t): t is (typeof SETTINGS_TABS)[number] & { id: Tab } => !(OWN_ROUTES as readonly string[]).includes(t.id),
);

function parseTab(tab: string | undefined): Tab {
  const found = TABS.find((t) => t.id === (tab ?? "info"));
  if (!found) throw data(null, { status: 404 });
  return found.id;
}

/** The Info tab's statements, built once per isolate (app/db/prepared.server.ts): only the owner is bound. */
const SETTINGS = {
  info: preparedQuery((db) => infoSettingsQuery(db, OWNER_ID)),
  stripeAccount: preparedQuery((db) => accountRowQuery(db, OWNER_ID)),
};

/** /iam/:tab (the spec's path): the Settings page, one tab of it (info, orgs, subscription, emails). */
export async function loader({ context, params, url, request }: Route.LoaderArgs) {
  const tab = parseTab(params.tab);
  const { env, config } = getApp(context);
  const db = getDb(env.DB);
  // Info: the contact settings, whether there is a password and the Stripe account: one batch,
  // the session's with it (docs/decisions/025).
  const {
    user,
    rows: [infoRows, accountRows],
  } =
    tab === "info"
      ? await requireUserWith(context, url, [
          SETTINGS.info(db, { ownerId: SESSION_OWNER }),
          SETTINGS.stripeAccount(db, { ownerId: SESSION_OWNER }),
        ] as const)
      : { user: await requireUser(context, url), rows: [[], []] as const };
  const info = tab === "info" ? infoSettingsOf(infoRows[0]) : null;
  const refreshStripe = url.searchParams.has("stripe");
  const locale = requestNumberLocale(request, user);
  return {
    tab,
    profile: {
      fullName: user.fullName,
      businessName: user.businessName,
      email: user.email,
      emailVerified: user.emailVerifiedAt !== null,
      imageUrl: user.imgKey ? await signedImageUrl(config, user.imgKey) : null,
    },
    hasPassword: info?.hasPassword ?? false,
    contactSettings: info?.settings ?? null,
    // The formats to choose from, named on the server ("1.234,56 · 29.11.2026 · Deutsch (Deutschland)").
    numberFormats: tab === "info" ? numberFormatChoices() : [],
    organizations: tab === "orgs" ? await listOrganizations(db, user.id) : [],
    // "Get paid online" (decisions/018); back from Stripe's onboarding, its state is read again.
    stripe:
      tab === "info" ? await stripeConnectView(env, config, db, user.id, refreshStripe, { row: accountRows[0] }) : null,
    subscription: tab === "subscription" ? await subscriptionView(env, config, db, user.id, url, locale) : null,
    emails: tab === "emails" ? await emailLogView(db, user, url, requestTimeZone(request), locale) : null,
    cadence:
      tab === "cadence"
        ? await cadenceView(db, user.id, url, requestTimeZone(request), stripeSetup(config, env) !== null, locale, {
            available: textsAvailable(config),
            // A plan without texts (none, or Soft) sends every step by e-mail: no channel is offered.
            planTexts: effectivePlan(user, Date.now())?.monthlyTexts ?? 0,
          })
        : null,
  };
}

/**
 * Settings → Cadence: the account's cadence, autopilot, and (asked to turn it on) what it would do
 * now; each step's channel is offered only where texts exist and the account has them on.
 */
async function cadenceView(
  db: Db,
  ownerId: string,
  url: URL,
  zone: string,
  stripeOn: boolean,
  locale: string,
  texts: { available: boolean; planTexts: number },
) {
  const now = Date.now();
  const [account, following, textSettings] = await Promise.all([
    getAccountCadence(db, ownerId),
    countFollowers(db, ownerId),
    texts.available ? textSettingsOf(db, ownerId) : null,
  ]);
  const view: CadenceView = {
    ...account.cadence,
    autopilot: account.autopilot,
    since: account.autopilotSince ? formatDateTime(account.autopilotSince, zone, locale) : null,
    following,
    texts: !textSettings ? "unavailable" : texts.planTexts === 0 ? "no-plan" : textSettings.enabled ? "on" : "off",
  };
  if (account.autopilot || url.searchParams.get("review") !== "autopilot") return { view, review: null };
  const [summary, ways] = await Promise.all([
    autopilotSummary(db, ownerId, account.cadence, now),
    waysToPayQuery(db, ownerId),
  ]);
  const review: AutopilotReview = {
    ...summary,
    noWayToPay: noWayToPay(ways[0], stripeOn),
    first: summary.first.map((f) => ({
      name: f.name,
      day: f.date === localDateString(now, f.timeZone) ? "today" : formatDate(f.date, locale),
      what: f.what,
    })),
  };
  return { view, review };
}

/** Settings → E-mails: a page of the newest EMAIL_LOG_LISTED e-mails, times in the user's zone. */
const EMAIL_LOG_PAGE = 25;
const EMAIL_LOG_LISTED = 1_000;
async function emailLogView(db: Db, user: { id: string; email: string }, url: URL, zone: string, locale: string) {
  const page = parsePage(url.searchParams.get("page"), EMAIL_LOG_LISTED / EMAIL_LOG_PAGE);
  const { rows, total } = await listEmails(db, user.id, user.email, pageOffset(page, EMAIL_LOG_PAGE), EMAIL_LOG_PAGE);
  const pages = pageCount(Math.min(total, EMAIL_LOG_LISTED), EMAIL_LOG_PAGE);
  // A page past the end (an old link, a typed number) leads to the last one.
  if (page > pages) throw redirect(`/iam/emails?page=${pages}`);
  const at = (ms: number) => formatDateTime(ms, zone, locale);
  return {
    page,
    pages,
    total,
    listed: EMAIL_LOG_LISTED,
    rows: rows.map(
      (row): EmailLogRow => ({
        key: `${row.source}-${row.id}`,
        subject: row.subject,
        recipient: row.recipient,
        status: row.status,
        error: row.error,
        when: at(row.sentAt ?? row.createdAt),
        attempts: row.attempts,
        maxAttempts: EMAIL_MAX_ATTEMPTS,
        nextTry: row.status === "pending" && row.nextAttemptAt ? at(row.nextAttemptAt) : null,
      }),
    ),
  };
}

const day = (ms: number, locale: string) => formatDate(new Date(ms).toISOString().slice(0, 10), locale);

/** Settings → Subscription (docs/decisions/019): the plan, its status and dates, as the webhooks set them. */
async function subscriptionView(
  env: Env,
  config: Parameters<typeof stripeSetup>[0],
  db: ReturnType<typeof getDb>,
  userId: string,
  url: URL,
  locale: string,
) {
  const billing = await getBilling(db, userId);
  if (!billing) return null;
  const now = Date.now();
  const plan = effectivePlan(billing, now);
  const trial = inTrial(billing, now);
  return {
    planName: plan ? planName(plan.id) : null,
    status: billing.subscriptionStatus,
    trial,
    trialEndsOn: day(trialEnd(billing), locale),
    periodEndsOn: billing.currentPeriodEnd ? day(billing.currentPeriodEnd, locale) : null,
    cancelAtPeriodEnd: billing.cancelAtPeriodEnd,
    canManage: billing.stripeCustomerId !== null && stripeSetup(config, env) !== null,
    available: stripeSetup(config, env) !== null,
    // Back from Checkout: the plan is confirmed by Stripe's event, never by this redirect.
    checkoutDone: url.searchParams.get("checkout") === "done",
    confirmed: !trial && plan !== null && billing.subscriptionStatus !== "canceled",
  };
}

/** Each tab with forms is the place of one entity's writes: profile on info, organizations on orgs. */
export async function action(args: Route.ActionArgs) {
  await requireUser(args.context, args.url);
  switch (parseTab(args.params.tab)) {
    case "info":
      return profileAction(args);
    case "orgs":
      return organizationAction(args);
    case "cadence":
      return cadenceAction(args);
    case "subscription":
      return manageBilling(args);
    case "emails":
      throw data(null, { status: 405 });
  }
}

/** "Manage billing": a Stripe billing portal session of the user's own customer, then 303 there. */
async function manageBilling({ context, url }: Route.ActionArgs) {
  const user = await requireUser(context, url);
  const { env, config } = getApp(context);
  const stripe = stripeSetup(config, env);
  if (!stripe) return data({ error: "Plans cannot be bought yet, so there is no billing to manage." }, { status: 503 });
  const billing = await getBilling(getDb(env.DB), user.id);
  if (!billing?.stripeCustomerId) {
    return data({ error: "You have no subscription yet: choose a plan on the Pricing page." }, { status: 409 });
  }
  let to: string;
  try {
    to = await portalUrl(stripe, billing.stripeCustomerId, `${appOrigin(config, url)}/iam/subscription`);
  } catch (error) {
    console.error("[dunly] billing portal could not open", error);
    return data({ error: "Stripe's billing portal could not be opened. Please try again." }, { status: 502 });
  }
  throw redirect(to, 303);
}

export default function Settings({ loaderData, actionData }: Route.ComponentProps) {
  const { tab, profile } = loaderData;
  return (
    <SettingsTabs current={tab}>
      {tab === "info" && (
        <>
          <ProfileInfo profile={profile} />
          <PasswordForm hasPassword={loaderData.hasPassword} />
          {loaderData.contactSettings && (
            <>
              <DefaultCurrencyForm
                defaultCurrency={loaderData.contactSettings.defaultCurrency}
                formats={loaderData.numberFormats}
              />
              {loaderData.stripe && <StripeConnectCard stripe={loaderData.stripe} />}
              <PaymentLinkForm paymentUrl={loaderData.contactSettings.paymentUrl ?? null} />
              <ContactRulesForm settings={loaderData.contactSettings} />
              <NoticesForm
                debtorActions={loaderData.contactSettings.notifyDebtorActions}
                deliveryProblems={loaderData.contactSettings.notifyDeliveryProblems}
                scheduleEnds={loaderData.contactSettings.notifyScheduleEnds}
                digest={loaderData.contactSettings.notifyDigest}
              />
            </>
          )}
          <YourData email={profile.email} />
        </>
      )}
      {tab === "orgs" && <OrgManager organizations={loaderData.organizations} />}
      {/* Not a chunk of its own: a form typed into before a lazy chunk hydrated could be re-rendered empty. */}
      {tab === "cadence" && loaderData.cadence && (
        <CadenceSettings view={loaderData.cadence.view} review={loaderData.cadence.review} />
      )}
      {tab === "emails" && loaderData.emails && <EmailLog {...loaderData.emails} />}
      {tab === "subscription" && loaderData.subscription && (
        <Suspense fallback={<p className="text-muted">Loading your subscription…</p>}>
          <SubscriptionPanel
            view={loaderData.subscription}
            error={actionData && "error" in actionData ? String(actionData.error) : null}
          />
        </Suspense>
      )}
    </SettingsTabs>
  );
}

/**
 * The Subscription tab's panel is a chunk of its own: the other tabs do
 * not load it. Rendered on the server too (React waits for it there); its buttons are plain form
 * posts, so they work before the chunk has hydrated.
 */
const SubscriptionPanel = lazy(() =>
  import("~/components/settings/subscription-panel").then((m) => ({ default: m.SubscriptionPanel })),
);

export function ErrorBoundary() {
  return <RouteError message="We couldn't load your settings." />;
}

export const meta: Route.MetaFunction = ({ loaderData }) => {
  const tab = TABS.find((t) => t.id === loaderData?.tab);
  return pageMeta(tab ? `${tab.label} · Settings` : "Settings");
};
