// Deep import, not the "lucide-react" index: see the shell chunk in vite.config.ts.
import Menu from "lucide-react/icons/menu";
import { Suspense, useState } from "react";
import { Link } from "react-router";
import { AppNavLinks } from "~/components/app-nav";
import { Avatar, type HeaderUser } from "~/components/avatar";
import { notOnServer, onDemand } from "~/components/on-demand";
import { VisitorMenuWithoutScripts as MenuWithoutScripts } from "~/components/visitor-menu-without-scripts";

export type { HeaderUser };

function Logo({ to }: { to: string }) {
  return (
    // Named by its visible word ("Dunly"), as speech input users would say it.
    <Link to={to} className="flex items-center gap-2 text-xl font-extrabold tracking-tight">
      {/* The mark is drawn (the favicon's shape), so the link's only text is its name. */}
      <svg aria-hidden viewBox="0 0 64 64" className="h-8 w-8 shrink-0">
        <rect width="64" height="64" rx="14" fill="var(--primary)" />
        <path
          fill="var(--primary-foreground)"
          fillRule="evenodd"
          d="M19 14h13a18 18 0 0 1 0 36H19zm8 8v20h5a10 10 0 0 0 0-20z"
        />
      </svg>
      Dunly
    </Link>
  );
}

// Only ever rendered on the server (its pages never hydrate): the constant keeps it out of the
// client's shell chunk, which every other page loads.
const VisitorMenuWithoutScripts = import.meta.env.SSR ? MenuWithoutScripts : () => null;

// Every page shows the header, few open its menus: their code (Radix's dropdown and dialog,
// floating-ui, the theme switch) loads on first use (header-menus.tsx), not with the page.
const userDrawer = onDemand(() =>
  import.meta.env.SSR ? notOnServer() : import("~/components/header-menus").then((m) => m.UserDrawer),
);
const visitorMenu = onDemand(() =>
  import.meta.env.SSR ? notOnServer() : import("~/components/header-menus").then((m) => m.VisitorMenu),
);

/**
 * A menu button that stands in for the real one until it is first used: it looks and is named the
 * same, and its first click (or Enter or Space) loads the menu, which replaces it already open.
 * Hover and focus start the load early.
 */
function OnDemandMenu({
  label,
  popup,
  className,
  preload,
  children,
  menu,
}: {
  label: string;
  popup: "menu" | "dialog";
  className: string;
  preload: () => void;
  children: React.ReactNode;
  menu: (fromKeyboard: boolean) => React.ReactNode;
}) {
  // null until first used; then whether that first use came from the keyboard.
  const [opened, setOpened] = useState<{ fromKeyboard: boolean } | null>(null);
  const button = (
    <button
      type="button"
      className={className}
      aria-label={label}
      aria-haspopup={popup}
      aria-expanded={false}
      onPointerEnter={preload}
      onFocus={preload}
      // A click from Enter or Space has no pointer position (detail 0).
      onClick={(event) => setOpened({ fromKeyboard: event.detail === 0 })}
    >
      {children}
    </button>
  );
  if (!opened) return button;
  return <Suspense fallback={button}>{menu(opened.fromKeyboard)}</Suspense>;
}

const NAV_ITEM = "block rounded-md px-3 py-2 text-sm";

/**
 * `withoutScripts`: the page sends no module scripts (a visitor's page, docs/decisions/026), so a
 * menu that loads on first use could never open: the visitor gets a native disclosure instead.
 */
export function SiteHeader({ user, withoutScripts = false }: { user: HeaderUser | null; withoutScripts?: boolean }) {
  return (
    <header className="sticky top-0 z-30 border-b border-border bg-background/90 backdrop-blur">
      <div className="mx-auto flex h-16 max-w-6xl items-center justify-between gap-4 px-4">
        <Logo to={user ? "/dashboard" : "/"} />
        {user ? (
          <div className="flex items-center gap-2">
            {/* Wide screens: the places in the header; phones: in the account drawer. */}
            <nav aria-label="Main" className="hidden md:block">
              <AppNavLinks itemClassName={NAV_ITEM} layout="row" />
            </nav>
            <OnDemandMenu
              key="user"
              label="Open account menu"
              popup="dialog"
              className="rounded-full"
              preload={userDrawer.preload}
              menu={() => <userDrawer.Lazy user={user} />}
            >
              <Avatar user={user} />
            </OnDemandMenu>
          </div>
        ) : withoutScripts ? (
          <VisitorMenuWithoutScripts />
        ) : (
          <OnDemandMenu
            key="visitor"
            label="Open menu"
            popup="menu"
            className="rounded-md p-2 hover:bg-surface-2"
            preload={visitorMenu.preload}
            menu={(fromKeyboard) => <visitorMenu.Lazy fromKeyboard={fromKeyboard} />}
          >
            <Menu className="h-6 w-6" aria-hidden />
          </OnDemandMenu>
        )}
      </div>
      {user && (
        // Without JavaScript the drawer cannot open: its places (on phones) and Log out are here.
        // Only a browser without JavaScript reads this, so plain anchors and a plain form (what
        // Link and Form render there) instead of the router's components.
        <noscript>
          <div className="mx-auto flex max-w-6xl flex-wrap items-center gap-2 px-4 pb-2">
            <nav aria-label="Main (without JavaScript)" className="md:hidden">
              <AppNavLinks itemClassName={NAV_ITEM} layout="row" plain />
            </nav>
            <form method="post" action="/logout" className="ml-auto">
              <button type="submit" className={`${NAV_ITEM} text-muted hover:text-foreground`}>
                Log out
              </button>
            </form>
          </div>
        </noscript>
      )}
    </header>
  );
}

export function SiteFooter() {
  return (
    <footer className="border-t border-border py-6 text-center text-sm text-muted">Copyright © 2024 by Dunly</footer>
  );
}
