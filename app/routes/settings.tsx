import { data, Link } from "react-router";
import { requireUser } from "~/auth/guard.server";
import { PasswordForm } from "~/components/password-form";
import { ContactRulesForm } from "~/components/settings/contact-rules-form";
import { DefaultCurrencyForm } from "~/components/settings/default-currency-form";
import { NoticesForm } from "~/components/settings/notices-form";
import { OrgManager } from "~/components/settings/org-manager";
import { PaymentLinkForm } from "~/components/settings/payment-link-form";
import { ProfileInfo } from "~/components/settings/profile-info";
import { StripeConnectCard } from "~/components/settings/stripe-connect-card";
import { LinkTabs } from "~/components/ui/link-tabs";
import { getDb } from "~/db/client.server";
import { getApp } from "~/lib/context.server";
import { signedImageUrl } from "~/lib/images.server";
import { planName } from "~/lib/plans";
import { pageMeta } from "~/lib/site";
import { listOrganizations } from "~/models/organization.server";
import { infoSettingsOf, infoSettingsQuery } from "~/models/user.server";
import { accountRowQuery, stripeConnectView } from "~/payments/stripe-account.server";
import type { Route } from "./+types/settings";
import { organizationAction } from "./organization-action.server";
import { profileAction } from "./profile-action.server";

const TABS = [
  { id: "info", label: "Personal information", short: "Info" },
  { id: "orgs", label: "Organizations", short: "Organizations" },
  { id: "subscription", label: "Your Subscription", short: "Subscription" },
] as const;
type Tab = (typeof TABS)[number]["id"];

function parseTab(tab: string | undefined): Tab {
  const found = TABS.find((t) => t.id === (tab ?? "info"));
  if (!found) throw data(null, { status: 404 });
  return found.id;
}

/** /iam/:tab (the spec's path): the Settings page, one tab of it (info, orgs, subscription). */
export async function loader({ context, params, url }: Route.LoaderArgs) {
  const user = requireUser(context, url);
  const tab = parseTab(params.tab);
  const { env, config } = getApp(context);
  const db = getDb(env.DB);
  // Info: the contact settings, whether there is a password and the Stripe account: one batch.
  const [infoRows, accountRows] =
    tab === "info" ? await db.batch([infoSettingsQuery(db, user.id), accountRowQuery(db, user.id)]) : [[], []];
  const info = tab === "info" ? infoSettingsOf(infoRows[0]) : null;
  const refreshStripe = url.searchParams.has("stripe");
  return {
    tab,
    profile: {
      fullName: user.fullName,
      email: user.email,
      emailVerified: user.emailVerifiedAt !== null,
      imageUrl: user.imgKey ? await signedImageUrl(config, user.imgKey) : null,
    },
    hasPassword: info?.hasPassword ?? false,
    contactSettings: info?.settings ?? null,
    organizations: tab === "orgs" ? await listOrganizations(db, user.id) : [],
    // "Get paid online" (decisions/018); back from Stripe's onboarding, its state is read again.
    stripe:
      tab === "info" ? await stripeConnectView(env, config, db, user.id, refreshStripe, { row: accountRows[0] }) : null,
    plan: user.plan,
  };
}

/** Each tab with forms is the place of one entity's writes: profile on info, organizations on orgs. */
export async function action(args: Route.ActionArgs) {
  requireUser(args.context, args.url);
  switch (parseTab(args.params.tab)) {
    case "info":
      return profileAction(args);
    case "orgs":
      return organizationAction(args);
    case "subscription":
      throw data(null, { status: 405 });
  }
}

export default function Settings({ loaderData }: Route.ComponentProps) {
  const { tab, profile } = loaderData;
  return (
    <LinkTabs
      label="Settings"
      current={tab}
      tabs={TABS.map((t) => ({
        id: t.id,
        to: `/iam/${t.id}`,
        content: (
          <>
            <span className="md:hidden">{t.short}</span>
            <span className="hidden md:inline">{t.label}</span>
          </>
        ),
      }))}
      className="mx-auto flex max-w-6xl flex-col gap-6 px-4 py-10 md:flex-row"
      listClassName="flex gap-2 overflow-x-auto md:w-56 md:shrink-0 md:flex-col"
      tabClassName="whitespace-nowrap rounded-md px-3 py-2 text-sm font-medium hover:bg-surface-2 data-[state=active]:bg-primary data-[state=active]:text-primary-foreground"
      panelClassName="flex min-w-0 flex-1 flex-col gap-6 outline-none"
    >
      {tab === "info" && (
        <>
          <ProfileInfo profile={profile} />
          <PasswordForm hasPassword={loaderData.hasPassword} />
          {loaderData.contactSettings && (
            <>
              <DefaultCurrencyForm defaultCurrency={loaderData.contactSettings.defaultCurrency} />
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
        </>
      )}
      {tab === "orgs" && <OrgManager organizations={loaderData.organizations} />}
      {tab === "subscription" && (
        <section className="rounded-xl border border-border bg-surface p-6">
          <h1 className="text-2xl font-bold">Your Subscription</h1>
          <p className="mt-4">
            You are on the <strong>{planName(loaderData.plan)}</strong> plan.
          </p>
          <Link to="/pricing" className="mt-4 inline-block text-primary underline">
            See all plans on the pricing page
          </Link>
        </section>
      )}
    </LinkTabs>
  );
}

export const meta: Route.MetaFunction = ({ loaderData }) => {
  const tab = TABS.find((t) => t.id === loaderData?.tab);
  return pageMeta(tab ? `${tab.label} · Settings` : "Settings");
};
