import { LayoutDashboard, LogOut, Menu, Settings } from "lucide-react";
import { DropdownMenu } from "radix-ui";
import { useState } from "react";
import { Form, Link, useLocation } from "react-router";
import { ThemeToggle } from "~/components/theme-toggle";
import { Sheet } from "~/components/ui/sheet";

export interface HeaderUser {
  fullName: string;
  email: string;
  imageUrl: string | null;
}

function initials(name: string) {
  const parts = name.trim().split(/\s+/).filter(Boolean);
  return (parts[0]?.[0] ?? "?").toUpperCase() + (parts[1]?.[0] ?? "").toUpperCase();
}

export function Avatar({ user, className = "h-9 w-9" }: { user: HeaderUser; className?: string }) {
  return user.imageUrl ? (
    <img src={user.imageUrl} alt="" className={`${className} rounded-full object-cover`} />
  ) : (
    <span
      className={`${className} inline-flex items-center justify-center rounded-full bg-primary text-sm font-bold text-primary-foreground`}
    >
      {initials(user.fullName || user.email)}
    </span>
  );
}

function Logo({ to }: { to: string }) {
  return (
    <Link to={to} className="flex items-center gap-2 text-xl font-extrabold tracking-tight" aria-label="Dunly home">
      <span
        aria-hidden
        className="inline-flex h-8 w-8 items-center justify-center rounded-lg bg-primary text-primary-foreground"
      >
        D
      </span>
      Dunly
    </Link>
  );
}

function UserDrawer({ user }: { user: HeaderUser }) {
  const [open, setOpen] = useState(false);
  const location = useLocation();
  // Navigating from the drawer closes it (state reset during render, not in an effect).
  const [openedAt, setOpenedAt] = useState(location.key);
  if (openedAt !== location.key) {
    setOpenedAt(location.key);
    setOpen(false);
  }
  const item = "flex items-center gap-3 rounded-md px-3 py-2 text-sm hover:bg-surface-2";
  return (
    <Sheet
      open={open}
      onOpenChange={setOpen}
      title="Menu"
      trigger={
        <button type="button" className="rounded-full" aria-label="Open account menu">
          <Avatar user={user} />
        </button>
      }
    >
      <div className="mb-2 flex items-center gap-3 px-3">
        <Avatar user={user} className="h-10 w-10" />
        <div className="min-w-0">
          <p className="truncate font-semibold">{user.fullName}</p>
          <p className="truncate text-xs text-muted">{user.email}</p>
        </div>
      </div>
      <nav aria-label="Account" className="flex flex-col gap-1">
        <Link to="/dashboard" className={item}>
          <LayoutDashboard className="h-4 w-4" aria-hidden /> Dashboard
        </Link>
        <Link to="/iam/info" className={item}>
          <Settings className="h-4 w-4" aria-hidden /> Settings
        </Link>
        <ThemeToggle />
        <hr className="my-2 border-border" />
        <Form method="post" action="/logout">
          <button type="submit" className={`${item} w-full text-left`}>
            <LogOut className="h-4 w-4" aria-hidden /> Log out
          </button>
        </Form>
      </nav>
    </Sheet>
  );
}

function VisitorMenu() {
  const item = "block rounded-md px-3 py-2 text-sm outline-none data-[highlighted]:bg-surface-2";
  return (
    <DropdownMenu.Root>
      <DropdownMenu.Trigger className="rounded-md p-2 hover:bg-surface-2" aria-label="Open menu">
        <Menu className="h-6 w-6" aria-hidden />
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content
          align="end"
          sideOffset={8}
          className="z-50 min-w-56 rounded-md border border-border bg-surface p-1 text-foreground shadow-lg"
        >
          <DropdownMenu.Item asChild className={item}>
            <Link to="/">Home</Link>
          </DropdownMenu.Item>
          <DropdownMenu.Item asChild className={item}>
            <Link to="/#sign-in">Sign in</Link>
          </DropdownMenu.Item>
          <DropdownMenu.Item asChild className={item}>
            <Link to="/#faq">FAQ</Link>
          </DropdownMenu.Item>
          <DropdownMenu.Separator className="my-1 h-px bg-border" />
          <div className="px-0">
            <ThemeToggle />
          </div>
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}

export function SiteHeader({ user }: { user: HeaderUser | null }) {
  return (
    <header className="sticky top-0 z-30 border-b border-border bg-background/90 backdrop-blur">
      <div className="mx-auto flex h-16 max-w-6xl items-center justify-between px-4">
        <Logo to={user ? "/dashboard" : "/"} />
        {user ? <UserDrawer user={user} /> : <VisitorMenu />}
      </div>
    </header>
  );
}

export function SiteFooter() {
  return (
    <footer className="border-t border-border py-6 text-center text-sm text-muted">Copyright © 2024 by Dunly</footer>
  );
}
