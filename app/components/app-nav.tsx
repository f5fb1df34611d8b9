import { Link, useLocation } from "react-router";

/**
 * The signed-in user's places, in the header on wide screens and in the account drawer on phones
 * (docs/product-spec.md: the drawer's Dashboard and Settings, /iam/info, are two of them). The
 * current one is marked aria-current="page"; Settings is current on each of its tabs.
 */
export const APP_NAV = [
  { to: "/dashboard", label: "Dashboard", section: "/dashboard" },
  { to: "/debtors-list", label: "Debtors", section: "/debtors-list" },
  { to: "/schedules-list", label: "Schedules", section: "/schedules-list" },
  { to: "/report", label: "Report", section: "/report" },
  { to: "/pricing", label: "Pricing", section: "/pricing" },
  { to: "/iam/info", label: "Settings", section: "/iam" },
] as const;

/**
 * `plain`: plain anchors, for markup only a browser without JavaScript ever uses (the header's
 * `<noscript>` row): there a `Link` is an anchor anyway, and each one costs the server a router
 * lookup it does not need.
 */
export function AppNavLinks({
  itemClassName,
  layout,
  plain = false,
}: {
  itemClassName: string;
  layout: "row" | "column";
  plain?: boolean;
}) {
  const { pathname } = useLocation();
  return (
    <ul className={layout === "row" ? "flex flex-wrap items-center gap-1" : "flex flex-col gap-1"}>
      {APP_NAV.map((entry) => {
        const current = pathname === entry.section || pathname.startsWith(`${entry.section}/`);
        const props = {
          "aria-current": current ? ("page" as const) : undefined,
          className: `${itemClassName} ${current ? "bg-surface-2 font-semibold text-foreground" : "text-muted hover:text-foreground"}`,
          children: entry.label,
        };
        return <li key={entry.to}>{plain ? <a href={entry.to} {...props} /> : <Link to={entry.to} {...props} />}</li>;
      })}
    </ul>
  );
}
