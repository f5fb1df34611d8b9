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

export function AppNavLinks({ itemClassName, layout }: { itemClassName: string; layout: "row" | "column" }) {
  const { pathname } = useLocation();
  return (
    <ul className={layout === "row" ? "flex flex-wrap items-center gap-1" : "flex flex-col gap-1"}>
      {APP_NAV.map((entry) => {
        const current = pathname === entry.section || pathname.startsWith(`${entry.section}/`);
        return (
          <li key={entry.to}>
            <Link
              to={entry.to}
              aria-current={current ? "page" : undefined}
              className={`${itemClassName} ${current ? "bg-surface-2 font-semibold text-foreground" : "text-muted hover:text-foreground"}`}
            >
              {entry.label}
            </Link>
          </li>
        );
      })}
    </ul>
  );
}
