import type { CSSProperties, ReactNode } from "react";
import { useLocation } from "react-router";
import type { MessageBrand } from "~/domain/brand";
import { normalizeHex } from "~/domain/contrast";

/**
 * The theme switch without Dunly's menu: a plain form to /theme that comes back to this page (works
 * without JavaScript). Two buttons, one shown per theme by CSS, as the visitor's menu has them
 * (app/components/visitor-menu-without-scripts.tsx): the boot script sets the theme before paint.
 */
function ThemeSwitch({ label }: { label: string }) {
  const { pathname, search } = useLocation();
  return (
    <form method="post" action="/theme" className="ml-auto shrink-0">
      <input type="hidden" name="redirectTo" value={`${pathname}${search}`} />
      <button
        type="submit"
        name="theme"
        value="light"
        aria-pressed={false}
        className="hidden rounded-md px-2 py-1 text-sm text-muted hover:bg-surface-2 dark:block"
      >
        {label}
      </button>
      <button
        type="submit"
        name="theme"
        value="dracula"
        aria-pressed={true}
        className="block rounded-md px-2 py-1 text-sm text-muted hover:bg-surface-2 dark:hidden"
      >
        {label}
      </button>
    </form>
  );
}

/**
 * The frame of the pages a debtor reaches from a reminder (/d/…, /p/…, /u/…; docs/decisions/058):
 * the user's logo and name instead of Dunly's header, which links nowhere (no way to Dunly's landing
 * page from a page the user sent), the user's accent on buttons and links in both themes, and a
 * small "Powered by Dunly" line unless the top plan removed it. Plain text, not a link: the page
 * stays the user's, and it works without JavaScript.
 *
 * The accent is set as CSS custom properties in a style attribute (the CSP allows inline styles, never
 * inline scripts): app.css's [data-brand] rules make --primary the light variant, or in the dark
 * theme the dark one, both at least 4.5:1 where they are used (app/domain/brand.ts accentColours).
 * Only "#rrggbb" reaches the attribute.
 */
export function DebtorBrandFrame({
  brand,
  lightTheme = "Light theme",
  children,
}: {
  brand: MessageBrand | null | undefined;
  /** The theme switch's words in the page's language. */
  lightTheme?: string;
  children: ReactNode;
}) {
  if (!brand) return <>{children}</>;
  const light = normalizeHex(brand.accent);
  const dark = normalizeHex(brand.accentDark);
  const style = { ...(light && { "--brand-light": light }), ...(dark && { "--brand-dark": dark }) } as CSSProperties;
  return (
    <div data-brand="" style={style}>
      <div className="border-b border-border">
        <div className="mx-auto flex min-h-16 w-full max-w-2xl items-center gap-3 px-4 py-3" data-testid="debtor-brand">
          {brand.logoUrl && (
            <span className="flex shrink-0 items-center rounded-md bg-white p-1">
              <img src={brand.logoUrl} alt="" className="max-h-10 max-w-40 object-contain" />
            </span>
          )}
          <p className="min-w-0 break-words text-lg font-bold" data-testid="debtor-brand-name">
            {brand.name}
          </p>
          <ThemeSwitch label={lightTheme} />
        </div>
      </div>
      {children}
      {brand.poweredBy && (
        <p className="py-6 text-center text-xs text-muted" data-testid="powered-by">
          Powered by Dunly
        </p>
      )}
    </div>
  );
}
