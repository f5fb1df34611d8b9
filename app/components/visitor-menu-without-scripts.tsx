import Check from "lucide-react/icons/check";
import Menu from "lucide-react/icons/menu";
import Moon from "lucide-react/icons/moon";
import Sun from "lucide-react/icons/sun";
import { useLocation } from "react-router";
import { useNonce } from "~/platform/nonce";

/**
 * Escape closes the open menu and gives the focus back to its summary, and a click outside closes
 * it, as the hydrated menu does. Inline with the response's nonce, like the theme boot script: not
 * a module script (docs/decisions/026). Without it the menu still opens and closes by its summary.
 */
const CLOSE_SCRIPT = `(function(){var m=function(){return document.querySelector("details[data-menu][open]")};document.addEventListener("keydown",function(e){var d=m();if(e.key==="Escape"&&d){d.open=false;d.querySelector("summary").focus()}});document.addEventListener("click",function(e){var d=m();if(d&&!d.contains(e.target))d.open=false})})();`;

const ITEM = "flex w-full items-center gap-2 rounded-md px-3 py-2 text-left text-sm hover:bg-surface-2";

/** The switch's two buttons, one shown per theme by CSS (below): what each posts and says. */
const THEME_SWITCH = [
  // Shown in the dark theme: "Light theme" is off, and pressing it turns it on.
  { value: "light", on: false, shownWhen: "hidden dark:flex", Icon: Moon },
  // Shown in the light theme: it is on, and pressing it goes back to the dark one.
  { value: "dracula", on: true, shownWhen: "flex dark:hidden", Icon: Sun },
] as const;

/**
 * The visitor's menu on a page that sends no module scripts (the landing page, docs/decisions/026):
 * a native <details> disclosure (Enter and Space open it from the keyboard; screen readers announce
 * it expanded or collapsed) with the same places as the hydrated menu (header-menus.tsx) and the
 * theme switch as a form: it posts to /theme, which sets the theme cookie and comes back here.
 *
 * The switch is two buttons, one shown per theme by CSS: the inline boot script sets the theme from
 * the cookie or localStorage before paint, so the right one shows even when the server did not know
 * the theme yet. Both are named "Light theme" and say with aria-pressed whether it is on.
 */
export function VisitorMenuWithoutScripts() {
  const { pathname } = useLocation();
  const nonce = useNonce();
  return (
    <details className="group relative" data-testid="visitor-menu" data-menu="">
      <summary className="flex cursor-pointer list-none rounded-md p-2 hover:bg-surface-2 [&::-webkit-details-marker]:hidden">
        <Menu className="h-6 w-6" aria-hidden />
        <span className="sr-only">Menu</span>
      </summary>
      <div className="absolute right-0 z-50 mt-2 min-w-56 rounded-md border border-border bg-surface p-1 text-foreground shadow-lg">
        <nav aria-label="Menu">
          <ul>
            <li>
              <a href="/" className={ITEM}>
                Home
              </a>
            </li>
            <li>
              <a href="/#sign-in" className={ITEM}>
                Sign in
              </a>
            </li>
            <li>
              <a href="/pricing" className={ITEM}>
                Pricing
              </a>
            </li>
            <li>
              <a href="/#faq" className={ITEM}>
                FAQ
              </a>
            </li>
          </ul>
        </nav>
        <hr className="my-1 border-border" />
        <form method="post" action="/theme">
          <input type="hidden" name="redirectTo" value={pathname} />
          {THEME_SWITCH.map(({ value, on, shownWhen, Icon }) => (
            <button
              key={value}
              type="submit"
              name="theme"
              value={value}
              aria-pressed={on}
              className={`${ITEM} ${shownWhen}`}
              data-testid="theme-switch"
            >
              <Icon className="h-4 w-4" aria-hidden />
              Light theme
              {on && <Check className="ml-auto h-4 w-4" aria-hidden />}
            </button>
          ))}
        </form>
      </div>
      {/* biome-ignore lint/security/noDangerouslySetInnerHtml: a constant of ours (no user data). */}
      <script nonce={nonce} dangerouslySetInnerHTML={{ __html: CLOSE_SCRIPT }} />
    </details>
  );
}
