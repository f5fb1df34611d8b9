import type { ReactNode } from "react";
import { LinkTabs } from "~/components/ui/link-tabs";

/**
 * Settings' tabs: /iam/:tab (routes/settings.tsx); bank, texts, brand and domain are routes of their
 * own (routes/settings-bank.tsx, settings-templates.tsx, settings-brand.tsx, settings-domain.tsx,
 * settings-accounting.tsx, settings-charges.tsx, settings-texts.tsx).
 */
export const SETTINGS_TABS = [
  { id: "info", label: "Personal information", short: "Info" },
  { id: "orgs", label: "Organizations", short: "Organizations" },
  { id: "cadence", label: "Cadence & autopilot", short: "Cadence" },
  { id: "bank", label: "Bank transfer", short: "Bank" },
  { id: "templates", label: "E-mail texts", short: "Texts" },
  { id: "brand", label: "Brand", short: "Brand" },
  { id: "domain", label: "Sending domain", short: "Domain" },
  { id: "accounting", label: "Accounting", short: "Accounting" },
  { id: "charges", label: "Late charges", short: "Charges" },
  { id: "texts", label: "Text messages", short: "SMS" },
  { id: "subscription", label: "Your Subscription", short: "Subscription" },
  { id: "emails", label: "E-mails", short: "E-mails" },
] as const;
export type SettingsTab = (typeof SETTINGS_TABS)[number]["id"];

/** The tab list, and the current tab's panel. */
export function SettingsTabs({ current, children }: { current: SettingsTab; children: ReactNode }) {
  return (
    <LinkTabs
      label="Settings"
      current={current}
      tabs={SETTINGS_TABS.map((t) => ({
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
      {children}
    </LinkTabs>
  );
}
