import { Check, LogOut, Menu, Moon, Sun } from "lucide-react";
import { DropdownMenu } from "radix-ui";
import { useRef, useState } from "react";
import { Form, Link, useLocation } from "react-router";
import { AppNavLinks } from "~/components/app-nav";
import { Avatar, type HeaderUser } from "~/components/avatar";
import { ThemeToggle, useTheme } from "~/components/theme-toggle";
import { Sheet } from "~/components/ui/sheet";

/**
 * The header's menus, a chunk of their own (Radix's dropdown menu, floating-ui, the dialog behind
 * the drawer, the theme switch): site-header.tsx shows a button that looks the same and loads this
 * on first use, then renders it already open. From then on it is the menu itself.
 */

/** The signed-in drawer: the places of the header (all of them on phones), the theme switch and Log out. */
export function UserDrawer({ user }: { user: HeaderUser }) {
  const [open, setOpen] = useState(true);
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
          <p className="font-semibold [overflow-wrap:anywhere]">{user.fullName}</p>
          <p className="text-xs text-muted [overflow-wrap:anywhere]">{user.email}</p>
        </div>
      </div>
      <nav aria-label="Account" className="flex flex-col gap-1">
        <AppNavLinks itemClassName={item} layout="column" />
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

/** The visitor's menu: Home, Sign in, FAQ and the theme switch. */
export function VisitorMenu({ fromKeyboard }: { fromKeyboard: boolean }) {
  const focusFirstItem = useRef(fromKeyboard);
  const [theme, setTheme] = useTheme();
  const item = "block rounded-md px-3 py-2 text-sm outline-none data-[highlighted]:bg-surface-2";
  return (
    // Not modal: a modal menu hides the rest of the page from screen readers while its links stay
    // focusable (axe: aria-hidden-focus); the menu still closes on Escape and outside clicks.
    <DropdownMenu.Root defaultOpen modal={false}>
      <DropdownMenu.Trigger className="rounded-md p-2 hover:bg-surface-2" aria-label="Open menu">
        <Menu className="h-6 w-6" aria-hidden />
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content
          align="end"
          sideOffset={8}
          className="z-50 min-w-56 rounded-md border border-border bg-surface p-1 text-foreground shadow-lg"
          onFocus={(event) => {
            // The menu focuses itself when it opens; opened from the keyboard, its first item takes
            // the focus instead, as when Radix's own trigger opens it with Enter or Space.
            if (!focusFirstItem.current || event.target !== event.currentTarget) return;
            focusFirstItem.current = false;
            event.currentTarget.querySelector<HTMLElement>('[role="menuitem"]')?.focus();
          }}
        >
          {/* Document loads: the landing page has no scripts (docs/decisions/026). */}
          <DropdownMenu.Item asChild className={item}>
            <Link reloadDocument to="/">
              Home
            </Link>
          </DropdownMenu.Item>
          <DropdownMenu.Item asChild className={item}>
            <Link reloadDocument to="/#sign-in">
              Sign in
            </Link>
          </DropdownMenu.Item>
          <DropdownMenu.Item asChild className={item}>
            <Link to="/pricing">Pricing</Link>
          </DropdownMenu.Item>
          <DropdownMenu.Item asChild className={item}>
            <Link reloadDocument to="/#faq">
              FAQ
            </Link>
          </DropdownMenu.Item>
          <DropdownMenu.Separator className="my-1 h-px bg-border" />
          {/* A menu item (reached with the arrows like the others), checked in the light theme. */}
          <DropdownMenu.CheckboxItem
            className={`${item} flex cursor-pointer items-center gap-2`}
            checked={theme === "light"}
            onCheckedChange={(checked) => setTheme(checked ? "light" : "dracula")}
            // The menu stays open, so the change can be seen and undone.
            onSelect={(event) => event.preventDefault()}
            data-testid="theme-switch"
          >
            {theme === "light" ? <Sun className="h-4 w-4" aria-hidden /> : <Moon className="h-4 w-4" aria-hidden />}
            Light theme
            <DropdownMenu.ItemIndicator className="ml-auto">
              <Check className="h-4 w-4" aria-hidden />
            </DropdownMenu.ItemIndicator>
          </DropdownMenu.CheckboxItem>
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
